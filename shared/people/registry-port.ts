/** The people capability: people searches and personal name extracts. */
import {
  type IsoDate,
  type IsoTimestamp,
  methodsOf,
  type RegistryAddress,
  type RegistryBirth,
  type RegistryCaller,
  type RegistryCompany,
  type RegistryDocument,
  type RegistryPersonName,
  type RegistrySourceDocument,
} from '../kernel/registry-port.ts';

/** The registry sells no person extract for a name with more roles than this (PE51). */
export const MAX_ROLES_PER_NAME = 999;

export interface RegistryPersonMatch {
  /** The registry's stable name-record id: up to nine digits. */
  registryIdentifier: string;
  name: RegistryPersonName;
  birth: RegistryBirth | null;
  /** The name the person was known by before, when the registry records one. */
  formerName: RegistryPersonName | null;
  /**
   * Role records (office-holder and Member roles, current and ceased) held against the name.
   * Over 999 makes a person extract unavailable (PE51), so a batch can be refused before any
   * purchase.
   */
  roleCount: number;
}

export interface PeopleSearchQuery {
  /** Uppercase as typed by the caller: letters, hyphens, apostrophes and spaces. */
  familyName: string;
  /** One or more given names, space separated; each matches the start of the person's given name in that place. */
  givenName: string;
  birthDateFrom: IsoDate | null;
  birthDateTo: IsoDate | null;
}

/** A role the person holds or held in an organisation: an office-holder role, or `SH` (Member). */
export interface RegistryPersonRole {
  /** office-holder-roles code, or SH (person-additional-roles). */
  role: string;
  /** record-status code: C, E or F. */
  status: string;
  /** Null for Member roles. */
  appointedAt: IsoDate | null;
  ceasedAt: IsoDate | null;
  company: RegistryCompany;
  address: RegistryAddress | null;
  sourceDocument: RegistrySourceDocument | null;
}

export interface RegistryLicence {
  /** person-licence-roles code (BF, BS, DD, FL, RA…). */
  type: string;
  /** record-status code. */
  status: string;
  licenceNumber: string;
  /** licence-statuses code. */
  licenceStatus: string;
  from: IsoDate;
  to: IsoDate | null;
  address: RegistryAddress | null;
  sourceDocument: RegistrySourceDocument | null;
}

/** Shares the person holds in a proprietary company (the registry keeps the 20 largest holders per class). */
export interface RegistryShareholding {
  company: RegistryCompany;
  classCode: string;
  classDescription: string;
  /** record-status code. */
  status: string;
  sharesHeld: number;
  fullyPaid: boolean;
  beneficiallyHeld: boolean;
  sourceDocument: RegistrySourceDocument | null;
}

export interface RegistryPersonNotice {
  /** acnc_charity: a directorship of a registered charity; same_name: namesakes exist. */
  type: 'acnc_charity' | 'same_name';
  /** The company concerned (acnc_charity); null for same_name. */
  acn: string | null;
  text: string;
}

export interface PersonExtractOptions {
  /** True: current and ceased roles and licences (historical); false: current only. */
  history: boolean;
  /** True: shareholdings and Member (SH) roles too. */
  includeShareholdings: boolean;
}

/**
 * A personal name extract. Roles are in the registry's order (role display order; current before
 * ceased, ceased newest first; Member roles last); documents newest first.
 */
export interface RegistryPersonExtract {
  type: 'current' | 'historical';
  asOf: IsoTimestamp;
  person: RegistryPersonMatch;
  roles: RegistryPersonRole[];
  licences: RegistryLicence[];
  shareholdings: RegistryShareholding[];
  documents: RegistryDocument[];
  notices: RegistryPersonNotice[];
}

/** People searches and personal name extracts. */
export interface PeopleRegistry {
  /**
   * Free people search. Rejects PN01/PN02 (a name missing), PN03 (characters other than letters,
   * hyphens, apostrophes, spaces), PN05–PN07 (birth-date range: one end only or not a date, start
   * in the future, start after end), PN51 (nothing found) and PN52 (over 100 matches), the last
   * two with `details.counts` {returned, found}. `found` counts the names matched before the
   * birth-date range is applied.
   */
  searchPeople(
    query: PeopleSearchQuery,
    caller: RegistryCaller,
  ): Promise<{ found: number; matches: RegistryPersonMatch[] }>;
  /**
   * Billable purchase of one personal name extract (fee 958). Rejects RS02 when an option is not a
   * boolean, PE03 for an unknown identifier and PE51 when the name holds more than 999 roles.
   */
  purchasePersonExtract(
    registryIdentifier: string,
    options: PersonExtractOptions,
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<RegistryPersonExtract>;
}

export const peopleRegistryMethods = methodsOf<PeopleRegistry>()(['searchPeople', 'purchasePersonExtract']);
