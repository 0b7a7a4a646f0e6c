/**
 * Register entries and register extracts as the API shows them: raw registry codes become
 * `{code, label}` (an unknown code shows with label = code), and an entry carries exactly the
 * identifier field of its register, so every browse row holds the number its lookup needs.
 */
import { coded, codedOrNull, partialAddress, presentAddress, presentParty } from '../companies/present.ts';
import type { StoredExtract } from '../extracts/store-port.ts';
import type { RegistryBan, RegistryRegisterEntry, RegistryRegisterExtract } from './registry-port.ts';
import { servedRegisters } from './registry-port.ts';

const presentBan = (ban: RegistryBan) => ({
  type: codedOrNull('licence-ban-types', ban.type),
  from: ban.from,
  to: ban.to,
  status: coded('record-status', ban.status),
  documentNumber: ban.documentNumber,
  legislation: codedOrNull('pre-asic-legislation', ban.legislation),
});

/** A browse row and the entry lookup: the same shape. */
export function presentRegisterEntry(entry: RegistryRegisterEntry) {
  const { family, identifierField } = servedRegisters[entry.register];
  return {
    object: 'registerEntry' as const,
    register: coded('register-types', entry.register),
    family,
    [identifierField]: entry.number,
    holder: presentParty({ ...entry.holder, birth: null }),
    status: codedOrNull('register-status', entry.status),
    licenceStatus: codedOrNull('licence-statuses', entry.licenceStatus),
    from: entry.from,
    to: entry.to,
    principal: entry.principal ? { ...entry.principal } : null,
    bans: entry.bans ? entry.bans.map(presentBan) : null,
    address: partialAddress(entry.address),
  };
}

/** The `entry` of a register extract: the entry's fields (the holder with its birth) and its sections. */
export function presentRegisterExtractEntry(bought: RegistryRegisterExtract) {
  const { entry } = bought;
  return {
    ...presentRegisterEntry(entry),
    holder: presentParty(entry.holder),
    addresses: bought.addresses.map((record) => ({
      object: 'address' as const,
      type: coded('register-address-types', record.type),
      status: coded('record-status', record.status),
      from: record.from,
      to: record.to,
      address: presentAddress(record.address),
      sourceDocument: { ...record.sourceDocument },
    })),
    trading:
      bought.trading?.map((trading) => ({
        type: coded('register-trading-types', trading.type),
        name: trading.name,
        number: trading.number,
      })) ?? null,
    officers:
      bought.officers?.map((officer) => ({
        role: coded('register-officer-roles', officer.role),
        status: coded('record-status', officer.status),
        appointedAt: officer.appointedAt,
        ceasedAt: officer.ceasedAt,
        party: presentParty(officer.party),
      })) ?? null,
    authorities:
      bought.authorities?.map((authority) => ({
        type: coded('authorities-held', authority.type),
        principal: { ...authority.principal },
        from: authority.from,
        to: authority.to,
        status: coded('record-status', authority.status),
      })) ?? null,
    suspensions:
      bought.suspensions?.map((suspension) => ({
        reason: coded('suspension-reasons', suspension.reason),
        from: suspension.from,
        to: suspension.to,
        status: coded('record-status', suspension.status),
      })) ?? null,
    bans: entry.bans ? entry.bans.map((ban) => ({ ...presentBan(ban), comments: ban.comments })) : null,
    legislation: codedOrNull('pre-asic-legislation', bought.legislation),
  };
}

/** The extract object from its stored summary and sections (GET /v1/extracts/{id} and the purchase). */
export const presentRegisterExtract = (
  summary: Record<string, unknown>,
  sections: Record<string, unknown>,
): Record<string, unknown> => ({
  ...summary,
  entry: sections.entry ?? null,
  documents: sections.documents ?? [],
});

/** A stored register extract: its header's summary and its sections. */
export const presentStoredRegisterExtract = ({ header, sections }: StoredExtract) =>
  presentRegisterExtract(header.summary, sections);
