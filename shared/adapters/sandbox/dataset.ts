/**
 * The in-memory register behind the sandbox registry and the registry simulator: one
 * `CompanyRecord` per organisation holding everything the registry knows about it in full history,
 * one `PersonRecord` per name record of the personal name index, and a `Dataset` that indexes the
 * records by number, ABN, charge number, name and registry identifier.
 */

import { isCurrentStatus } from '../../kernel/registry-ordering.ts';
import type {
  RegistryAddress,
  RegistryAddressRecord,
  RegistryCharge,
  RegistryCompany,
  RegistryCompanyMatch,
  RegistryDocument,
  RegistryExternalAdministration,
  RegistryLicence,
  RegistryMember,
  RegistryOfficeholder,
  RegistryPersonMatch,
  RegistryPersonRole,
  RegistryRelationship,
  RegistryShareClass,
  RegistryShareholding,
} from '../../kernel/registry-port.ts';

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
  /**
   * Documents (of `documents` or of a charge) that are imaged but whose image cannot be produced:
   * typically lodged with a state office before 1991 and never migrated.
   */
  unavailableImages: readonly string[];
}

/** One searchable name: a current or former name of one organisation, normalised once. */
export interface NameEntry {
  record: CompanyRecord;
  name: string;
  status: 'current' | 'former';
  normalized: string;
  words: readonly string[];
}

/**
 * One name record of the personal name index, in full history: every role (office-holder roles
 * and Member `SH` roles, current, future and ceased), licence, shareholding and document.
 * `match.roleCount` is the number of role records, of every status, Member roles included.
 */
export interface PersonRecord {
  match: RegistryPersonMatch;
  roles: RegistryPersonRole[];
  licences: RegistryLicence[];
  shareholdings: RegistryShareholding[];
  /** Status and `priced` are null in person documents. */
  documents: RegistryDocument[];
}

/** One person as a people search sees them: the names normalised once (`normalizePersonName`). */
export interface PersonEntry {
  record: PersonRecord;
  familyName: string;
  /** The given names split into words, in order. */
  givenWords: readonly string[];
}

/** The record a document was lodged against, which decides an image order's fee. */
export type DocumentSubject =
  | { type: 'organisation'; record: CompanyRecord }
  | { type: 'person'; record: PersonRecord }
  | { type: 'other' };

export interface DocumentEntry {
  document: RegistryDocument;
  subject: DocumentSubject;
  /** False when `imaged` is false or the record lists the image as unavailable. */
  imageAvailable: boolean;
}

export interface Dataset {
  readonly companies: readonly CompanyRecord[];
  readonly byNumber: ReadonlyMap<string, CompanyRecord>;
  /** By recorded ABN; organisations without an ABN are absent. */
  readonly byAbn: ReadonlyMap<string, CompanyRecord>;
  readonly charges: ReadonlyMap<string, RegistryCharge>;
  /** Current names first (in record order), then former names. */
  readonly names: readonly NameEntry[];
  readonly people: readonly PersonRecord[];
  readonly byRegistryIdentifier: ReadonlyMap<string, PersonRecord>;
  /** By normalised family name, in record order. */
  readonly peopleByFamilyName: ReadonlyMap<string, readonly PersonEntry[]>;
  /** Documents of no record: a professional register's, for example (subject `other`). */
  readonly otherDocuments: readonly RegistryDocument[];
  /**
   * Every document by number: the records' (their charges' included; subject `other` for the
   * `NON_ORGANISATION_TYPES`), the other documents, then those lodged against a person alone. A
   * record's document filed among a person's documents stays the record's. Built on first use.
   */
  readonly documents: ReadonlyMap<string, DocumentEntry>;
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

/**
 * Search form of a person's name: upper case, apostrophes dropped (O'BRIEN = OBRIEN), hyphens and
 * anything else that is not a letter or digit turned into a space (MACKENZIE-REID = MACKENZIE
 * REID), spaces collapsed. Like `normalizeName`, but letters of every script are kept (MÜLLER is
 * not M LLER), in their composed form.
 */
export function normalizePersonName(name: string): string {
  return name
    .normalize('NFC')
    .toUpperCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
}

/** A registry identifier: one to nine digits. */
export const isRegistryIdentifier = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{1,9}$/.test(value);

/** A record from its parts; `match.roleCount` is computed from `roles`. */
export function personRecord(
  parts: { match: Omit<RegistryPersonMatch, 'roleCount'> } & Partial<Omit<PersonRecord, 'match'>>,
): PersonRecord {
  const roles = parts.roles ?? [];
  return {
    match: { ...parts.match, roleCount: roles.length },
    roles,
    licences: parts.licences ?? [],
    shareholdings: parts.shareholdings ?? [],
    documents: parts.documents ?? [],
  };
}

/** The search form of a person: normalised family name and given-name words. */
export function personEntry(record: PersonRecord): PersonEntry {
  const { name } = record.match;
  return {
    record,
    familyName: normalizePersonName(name.familyName),
    givenWords: nameWords(normalizePersonName(name.givenNames.join(' '))),
  };
}

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

/** Whether the image of one of the record's documents can be produced. */
export const imageAvailableIn = (record: CompanyRecord, document: RegistryDocument): boolean =>
  document.imaged && !record.unavailableImages.includes(document.documentNumber);

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
    unavailableImages: parts.unavailableImages ?? [],
  };
}

const nameEntry = (record: CompanyRecord, name: string, status: NameEntry['status']): NameEntry => {
  const normalized = normalizeName(name);
  return { record, name, status, normalized, words: nameWords(normalized) };
};

interface PeopleIndex {
  people: readonly PersonRecord[];
  byRegistryIdentifier: ReadonlyMap<string, PersonRecord>;
  peopleByFamilyName: ReadonlyMap<string, readonly PersonEntry[]>;
}

function indexPeople(people: readonly PersonRecord[]): PeopleIndex {
  const byRegistryIdentifier = new Map<string, PersonRecord>();
  const peopleByFamilyName = new Map<string, PersonEntry[]>();
  for (const record of people) {
    const id = record.match.registryIdentifier;
    if (!isRegistryIdentifier(id)) throw new Error(`Registry identifier ${id} is not one to nine digits`);
    if (byRegistryIdentifier.has(id)) throw new Error(`Duplicate registry identifier ${id}`);
    byRegistryIdentifier.set(id, record);
    const entry = personEntry(record);
    const namesakes = peopleByFamilyName.get(entry.familyName);
    if (namesakes) namesakes.push(entry);
    else peopleByFamilyName.set(entry.familyName, [entry]);
  }
  return { people: [...people], byRegistryIdentifier, peopleByFamilyName };
}

/**
 * Organisation types that are not organisations to the document images product: a business
 * name's documents, like a professional register's, are lodged against no organisation.
 */
export const NON_ORGANISATION_TYPES: readonly string[] = ['BUSN'];

/**
 * Throws when two records, or a record and an other document, hold the same document number. A
 * person's document with a record's number is that record's document filed for the person; among
 * people the first one keeps it.
 */
function indexDocuments(
  records: readonly CompanyRecord[],
  others: readonly RegistryDocument[],
  people: readonly PersonRecord[],
): Map<string, DocumentEntry> {
  const index = new Map<string, DocumentEntry>();
  const owners = new Map<string, CompanyRecord>();
  for (const record of records) {
    const subject: DocumentSubject = NON_ORGANISATION_TYPES.includes(record.company.type)
      ? { type: 'other' }
      : { type: 'organisation', record };
    const lodged = [
      ...record.documents,
      ...record.charges.flatMap((charge) => charge.documents),
      ...(record.externalAdministration?.documents ?? []),
    ];
    for (const document of lodged) {
      const owner = owners.get(document.documentNumber);
      if (owner === record) continue;
      if (owner) throw new Error(`Document ${document.documentNumber} is lodged against two organisations`);
      owners.set(document.documentNumber, record);
      index.set(document.documentNumber, {
        document,
        subject,
        imageAvailable: imageAvailableIn(record, document),
      });
    }
  }
  for (const document of others) {
    if (index.has(document.documentNumber))
      throw new Error(`Duplicate document number ${document.documentNumber}`);
    index.set(document.documentNumber, {
      document,
      subject: { type: 'other' },
      imageAvailable: document.imaged,
    });
  }
  for (const record of people) {
    for (const document of record.documents) {
      if (index.has(document.documentNumber)) continue;
      index.set(document.documentNumber, {
        document,
        subject: { type: 'person', record },
        imageAvailable: document.imaged,
      });
    }
  }
  return index;
}

/**
 * Indexes the records. Throws when two records share a number or an ABN, two charges share a
 * number, or two people share a registry identifier (or one is not one to nine digits), so a
 * generated dataset cannot shadow a documented sandbox identifier.
 *
 * `people` may be a function: the people are then built and indexed on first use of `people`,
 * `byRegistryIdentifier` or `peopleByFamilyName` (and their checks throw then), so a function
 * that only looks up companies never pays for them. The document index is built on first use of
 * `documents`, and its checks (`indexDocuments`) throw then.
 */
export function buildDataset(
  records: readonly CompanyRecord[],
  people: readonly PersonRecord[] | (() => readonly PersonRecord[]) = [],
  otherDocuments: readonly RegistryDocument[] = [],
): Dataset {
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
  let index = typeof people === 'function' ? undefined : indexPeople(people);
  const peopleIndex = (): PeopleIndex => {
    index ??= indexPeople((people as () => readonly PersonRecord[])());
    return index;
  };
  let documents: Map<string, DocumentEntry> | undefined;
  return {
    companies: [...records],
    byNumber,
    byAbn,
    charges,
    names: [...currentNames, ...formerNames],
    get people() {
      return peopleIndex().people;
    },
    get byRegistryIdentifier() {
      return peopleIndex().byRegistryIdentifier;
    },
    get peopleByFamilyName() {
      return peopleIndex().peopleByFamilyName;
    },
    otherDocuments: [...otherDocuments],
    get documents() {
      documents ??= indexDocuments(records, otherDocuments, peopleIndex().people);
      return documents;
    },
  };
}
