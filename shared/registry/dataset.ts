/**
 * The in-memory register behind the sandbox registry and the registry simulator: one
 * `CompanyRecord` per organisation holding everything the registry knows about it in full history,
 * and a `Dataset` that indexes the records by number, ABN, charge number and name.
 */
import type {
  RegistryAddress,
  RegistryAddressRecord,
  RegistryCharge,
  RegistryCompany,
  RegistryCompanyMatch,
  RegistryDocument,
  RegistryExternalAdministration,
  RegistryMember,
  RegistryOfficeholder,
  RegistryRelationship,
  RegistryShareClass,
} from '../ports/registry.ts';
import { isCurrentStatus } from './ordering.ts';

export type PartialAddress = NonNullable<RegistryCompanyMatch['address']>;

export interface CompanyRecord {
  company: RegistryCompany;
  /** Current (C), future (F) and ceased (E) office holders, in any order. */
  officeholders: RegistryOfficeholder[];
  /** RG, RP, PA, RO and the CC contact address, current and ceased. */
  addresses: RegistryAddressRecord[];
  /** Share classes and members, current (C) and ceased (E). */
  shareClasses: RegistryShareClass[];
  members: RegistryMember[];
  /** Every document lodged, including annual returns (AR) and financial reports (FR). */
  documents: RegistryDocument[];
  /** Shown in extracts while the company's status is EXAD. */
  externalAdministration: RegistryExternalAdministration | null;
  /** Satisfied (SATF) and deleted (DELT) charges; each charge's `company` is `company`. */
  charges: RegistryCharge[];
  /** Roles this organisation holds in other organisations. */
  relationships: RegistryRelationship[];
  /** What a name search shows of the address (see `partialAddressOf`). */
  searchAddress: PartialAddress | null;
}

/** One searchable name: a current or former name of one organisation, normalised once. */
export interface NameEntry {
  record: CompanyRecord;
  name: string;
  status: 'current' | 'former';
  normalized: string;
  words: readonly string[];
}

export interface Dataset {
  readonly companies: readonly CompanyRecord[];
  readonly byNumber: ReadonlyMap<string, CompanyRecord>;
  /** By recorded ABN; organisations without an ABN are absent. */
  readonly byAbn: ReadonlyMap<string, CompanyRecord>;
  readonly charges: ReadonlyMap<string, RegistryCharge>;
  /** Current names first (in record order), then former names. */
  readonly names: readonly NameEntry[];
}

/**
 * Search form of a name: upper case, apostrophes dropped (O'BRIEN = OBRIEN), every other
 * character but letters, digits and `&` turned into a space, spaces collapsed.
 */
export function normalizeName(name: string): string {
  return name
    .toUpperCase()
    .replace(/['’]/g, '')
    .replace(/[^A-Z0-9&]+/g, ' ')
    .trim();
}

export const nameWords = (normalized: string): string[] => (normalized === '' ? [] : normalized.split(' '));

const partialAddressOrder = ['RG', 'RO', 'RP', 'PA'];

/**
 * The partial address a name search shows: from the current registered office (RG), else the
 * registered address in the place of incorporation (RO, so a foreign company shows its country),
 * else RP, else the principal place of business. Overseas addresses show locality and country.
 */
export function partialAddressOf(addresses: readonly RegistryAddressRecord[]): PartialAddress | null {
  for (const type of partialAddressOrder) {
    const record = addresses.find(
      (candidate) => candidate.type === type && isCurrentStatus(candidate.status),
    );
    if (record) return partialAddress(record.address);
  }
  return null;
}

export function partialAddress(address: RegistryAddress): PartialAddress {
  return address.country === 'AUSTRALIA'
    ? {
        locality: address.locality,
        state: address.state,
        postcode: address.postcode,
        country: address.country,
      }
    : { locality: address.locality, state: null, postcode: null, country: address.country };
}

/**
 * A record from its parts: missing lists are empty, `chargesExtractPages` is the page total of the
 * charges' documents and `searchAddress` comes from the addresses unless given.
 */
export function companyRecord(
  parts: Pick<CompanyRecord, 'company'> & Partial<Omit<CompanyRecord, 'company'>>,
): CompanyRecord {
  const charges = parts.charges ?? [];
  const addresses = parts.addresses ?? [];
  parts.company.chargesExtractPages = charges.reduce(
    (total, charge) => total + charge.documents.reduce((sum, document) => sum + document.pageCount, 0),
    0,
  );
  return {
    company: parts.company,
    officeholders: parts.officeholders ?? [],
    addresses,
    shareClasses: parts.shareClasses ?? [],
    members: parts.members ?? [],
    documents: parts.documents ?? [],
    externalAdministration: parts.externalAdministration ?? null,
    charges,
    relationships: parts.relationships ?? [],
    searchAddress: parts.searchAddress === undefined ? partialAddressOf(addresses) : parts.searchAddress,
  };
}

const nameEntry = (record: CompanyRecord, name: string, status: NameEntry['status']): NameEntry => {
  const normalized = normalizeName(name);
  return { record, name, status, normalized, words: nameWords(normalized) };
};

/**
 * Indexes the records. Throws when two records share a number or an ABN, or two charges share a
 * number, so a generated dataset cannot shadow a documented sandbox identifier.
 */
export function buildDataset(records: readonly CompanyRecord[]): Dataset {
  const byNumber = new Map<string, CompanyRecord>();
  const byAbn = new Map<string, CompanyRecord>();
  const charges = new Map<string, RegistryCharge>();
  const currentNames: NameEntry[] = [];
  const formerNames: NameEntry[] = [];
  for (const record of records) {
    const { number, abn, name } = record.company;
    if (byNumber.has(number)) throw new Error(`Duplicate organisation number ${number}`);
    byNumber.set(number, record);
    if (abn !== null) {
      if (byAbn.has(abn)) throw new Error(`Duplicate ABN ${abn}`);
      byAbn.set(abn, record);
    }
    for (const charge of record.charges) {
      if (charges.has(charge.chargeNumber)) throw new Error(`Duplicate charge number ${charge.chargeNumber}`);
      charges.set(charge.chargeNumber, charge);
    }
    currentNames.push(nameEntry(record, name, 'current'));
    for (const former of record.company.formerNames)
      formerNames.push(nameEntry(record, former.name, 'former'));
  }
  return { companies: [...records], byNumber, byAbn, charges, names: [...currentNames, ...formerNames] };
}
