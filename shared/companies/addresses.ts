/** A company's addresses from its held extract, by type and status, with its contact address (free). */
import type { recordStatuses } from './schemas.ts';
import {
  byRecordStatus,
  readSection,
  type SectionInput,
  type SectionPorts,
  type StatusRecord,
} from './sections.ts';

interface AddressRecord extends StatusRecord {
  type: { code: string };
}

export interface AddressesQuery {
  type?: string | undefined;
  status?: (typeof recordStatuses)[number] | undefined;
  extract?: string | undefined;
}

/**
 * The held extract's addresses of a type (all types unless asked) and status (current unless
 * asked; ceased and all need a historical extract), and its contact address. Type CC asks for the
 * contact address itself, kept apart from the records.
 */
export async function listCompanyAddresses(
  ports: SectionPorts,
  input: SectionInput & { query: AddressesQuery },
) {
  const { type } = input.query;
  const status = input.query.status ?? 'current';
  const { extract, data } = await readSection(ports, input, 'addresses', status !== 'current');
  const { records, contactAddress } = data as {
    records: AddressRecord[];
    contactAddress: AddressRecord | null;
  };
  const candidates = type === 'CC' ? (contactAddress ? [contactAddress] : []) : records;
  const matching = candidates
    .filter((record) => type === undefined || record.type.code === type)
    .filter(byRecordStatus(status));
  return { matching, extract, contactAddress };
}
