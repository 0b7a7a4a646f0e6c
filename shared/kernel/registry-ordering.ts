/**
 * The registry's record orders (spec document 1, section 2.9). Lists keep the registry's order
 * (section 2.1), so the sandbox registry and the simulator sort with these functions and the
 * service can re-sort with them when it merges or filters records. Every sort is stable and
 * returns a new array; codes outside a table's order come after the known ones, by code.
 */
import type {
  RegistryAddressRecord,
  RegistryCharge,
  RegistryDocument,
  RegistryLicence,
  RegistryOfficeholder,
  RegistryPersonRole,
  RegistryRelationship,
} from './registry-port.ts';

/** Display order of office-holder roles: the listed ones, then the other known roles. */
export const officeholderRoleOrder: readonly string[] = Object.freeze([
  'RN',
  'CA',
  'EO',
  'DR',
  'SR',
  'LD',
  'AA',
  'AG',
  'UH',
  'RC',
  'RM',
  'PT',
  'PQ',
  'MQ',
  'VQ',
  'CQ',
  'SM',
  'CM',
  'DM',
  'OM',
  'AQ',
  'CR',
  'MC',
  'AC',
  'AD',
  'BI',
  'BM',
  'BP',
  'SB',
  'DA',
  'TC',
  'MA',
  'RY',
  'TN',
  'PW',
  'OQ',
]);

/** Company address record order; CC (contact address) is shown apart, after all of them. */
export const addressTypeOrder: readonly string[] = Object.freeze(['RG', 'RP', 'PA', 'RO', 'CC']);

/** Order of the roles a company holds in other organisations. */
export const companyRoleOrder: readonly string[] = Object.freeze(['AG', 'DR', 'UH', 'TM', 'TR', 'RN']);

/** The Member role of a person extract (person-additional-roles): listed after every office role. */
export const MEMBER_ROLE = 'SH';

/** Order of licence records in a person extract: the person-licence-roles table's order. */
export const personLicenceRoleOrder: readonly string[] = Object.freeze([
  'BF',
  'BS',
  'DD',
  'AF',
  'FK',
  'FL',
  'FR',
  'FX',
  'LP',
  'OQ',
  'RA',
  'RQ',
]);

/** Record statuses that count as current: C, and F (future, current from its effective date). */
export const isCurrentStatus = (status: string): boolean => status === 'C' || status === 'F';

const rankIn = (order: readonly string[]) => {
  const ranks = new Map(order.map((code, index) => [code, index]));
  return (a: string, b: string): number => {
    const ra = ranks.get(a) ?? order.length;
    const rb = ranks.get(b) ?? order.length;
    if (ra !== rb) return ra - rb;
    return ra === order.length ? compareText(a, b) : 0;
  };
};

/** Code-point comparison: deterministic whatever the locale. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const statusRank = (status: string): number => (status === 'C' ? 0 : status === 'F' ? 1 : 2);

/**
 * C first, then F, then ceased records (E, or any status the table does not know) newest-ceasing
 * first; a ceased record without a ceasing date goes last. Current records keep their order.
 */
export function compareCurrency(
  a: { status: string; ceased: string | null },
  b: { status: string; ceased: string | null },
): number {
  const byStatus = statusRank(a.status) - statusRank(b.status);
  if (byStatus !== 0 || statusRank(a.status) < 2) return byStatus;
  if (a.ceased === b.ceased) return 0;
  if (a.ceased === null) return 1;
  if (b.ceased === null) return -1;
  return compareText(b.ceased, a.ceased);
}

const compareRole = rankIn(officeholderRoleOrder);
const compareAddressType = rankIn(addressTypeOrder);
const compareCompanyRole = rankIn(companyRoleOrder);
const compareLicenceType = rankIn(personLicenceRoleOrder);

/** Newest date first; a missing date last. */
const compareNewestFirst = (a: string | null, b: string | null): number => {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compareText(b, a);
};

export const compareOfficeholders = (a: RegistryOfficeholder, b: RegistryOfficeholder): number =>
  compareRole(a.role, b.role) ||
  compareCurrency({ status: a.status, ceased: a.ceasedAt }, { status: b.status, ceased: b.ceasedAt });

export const compareAddressRecords = (a: RegistryAddressRecord, b: RegistryAddressRecord): number =>
  compareAddressType(a.type, b.type) ||
  compareCurrency({ status: a.status, ceased: a.to }, { status: b.status, ceased: b.to });

/** Newest first by date received, then by document number, highest first. */
export const compareDocuments = (a: RegistryDocument, b: RegistryDocument): number =>
  compareText(b.receivedAt, a.receivedAt) || compareText(b.documentNumber, a.documentNumber);

/** Chronological by registration (unknown time last), then by charge number. */
export function compareCharges(a: RegistryCharge, b: RegistryCharge): number {
  if (a.registeredAt !== b.registeredAt) {
    if (a.registeredAt === null) return 1;
    if (b.registeredAt === null) return -1;
    const byTime = compareText(a.registeredAt, b.registeredAt);
    if (byTime !== 0) return byTime;
  }
  return a.chargeNumber.length - b.chargeNumber.length || compareText(a.chargeNumber, b.chargeNumber);
}

export const compareRelationships = (a: RegistryRelationship, b: RegistryRelationship): number =>
  compareCompanyRole(a.role, b.role) ||
  compareCurrency({ status: a.status, ceased: a.ceasedAt }, { status: b.status, ceased: b.ceasedAt });

/** C, then F, then the rest, each group in registry order: for share classes and members. */
export const compareByStatus = (a: { status: string }, b: { status: string }): number =>
  statusRank(a.status) - statusRank(b.status);

export const sortOfficeholders = (list: readonly RegistryOfficeholder[]): RegistryOfficeholder[] =>
  [...list].sort(compareOfficeholders);
export const sortAddressRecords = (list: readonly RegistryAddressRecord[]): RegistryAddressRecord[] =>
  [...list].sort(compareAddressRecords);
export const sortDocuments = (list: readonly RegistryDocument[]): RegistryDocument[] =>
  [...list].sort(compareDocuments);
export const sortCharges = (list: readonly RegistryCharge[]): RegistryCharge[] =>
  [...list].sort(compareCharges);
export const sortRelationships = (list: readonly RegistryRelationship[]): RegistryRelationship[] =>
  [...list].sort(compareRelationships);

/** What `comparePersonRoles` reads of a role record. */
export type PersonRoleSortable = Pick<RegistryPersonRole, 'role' | 'status' | 'appointedAt' | 'ceasedAt'> & {
  company: { number: string };
};

/**
 * The registry's order of a person's roles: office roles in role display order (unknown roles
 * after the known ones, by code), then every Member (`SH`) role. Within one role, current records
 * (C, then F) come first and ceased ones newest-ceasing first (`compareCurrency`); records still
 * equal are ordered newest appointment first (none last), then by company number.
 */
export function comparePersonRoles(a: PersonRoleSortable, b: PersonRoleSortable): number {
  const aMember = a.role === MEMBER_ROLE;
  const bMember = b.role === MEMBER_ROLE;
  if (aMember !== bMember) return aMember ? 1 : -1;
  return (
    (aMember ? 0 : compareRole(a.role, b.role)) ||
    compareCurrency({ status: a.status, ceased: a.ceasedAt }, { status: b.status, ceased: b.ceasedAt }) ||
    compareNewestFirst(a.appointedAt, b.appointedAt) ||
    compareText(a.company.number, b.company.number)
  );
}

/**
 * Licence records: by type in the person-licence-roles order (unknown types after, by code);
 * within a type current first, then ceased newest-ending first; then newest start first, then by
 * licence number.
 */
export const compareLicences = (a: RegistryLicence, b: RegistryLicence): number =>
  compareLicenceType(a.type, b.type) ||
  compareCurrency({ status: a.status, ceased: a.to }, { status: b.status, ceased: b.to }) ||
  compareNewestFirst(a.from, b.from) ||
  compareText(a.licenceNumber, b.licenceNumber);

/** A person's roles in the registry's order (see `comparePersonRoles`); stable, a new array. */
export const sortPersonRoles = <T extends PersonRoleSortable>(list: readonly T[]): T[] =>
  [...list].sort(comparePersonRoles);
export const sortLicences = (list: readonly RegistryLicence[]): RegistryLicence[] =>
  [...list].sort(compareLicences);
