/** The people capability: people searches and personal name extracts. */
import {
  type IsoTimestamp,
  methodsOf,
  type PeopleSearchQuery,
  type RegistryCaller,
  type RegistryDocument,
  type RegistryLicence,
  type RegistryPersonMatch,
  type RegistryPersonRole,
  type RegistryShareholding,
} from '../kernel/registry-port.ts';

// The person records the sandbox's shared dataset builds too: kernel/registry-port.ts holds them.
export type {
  PeopleSearchQuery,
  RegistryLicence,
  RegistryPersonMatch,
  RegistryPersonRole,
  RegistryShareholding,
} from '../kernel/registry-port.ts';

/** The registry sells no person extract for a name with more roles than this (PE51). */
export const MAX_ROLES_PER_NAME = 999;

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

/** This capability's part of the registry port (shared/app/registry.ts). */
declare module '../kernel/registry-port.ts' {
  interface RegistryParts {
    people: PeopleRegistry;
  }
}
