/**
 * People searches: kept so that the `prs_` ids a search returned can be bought (for 30 days)
 * and can name the person in free role reads (as long as an extract of them can be held).
 */
import type { Environment } from '../kernel/api-keys.ts';

export interface PeopleSearchCriteria {
  familyName: string;
  givenName: string;
  birthDateFrom: string | null;
  birthDateTo: string | null;
}

/** One person a search found, under the `prs_` id this search gave them. */
export interface FoundPerson {
  id: string;
  /** The registry's stable name-record id: the same person across searches. */
  registryIdentifier: string;
  roleCount: number;
  /** The personMatch object as the API shows it. */
  match: Record<string, unknown>;
}

export interface PeopleSearch {
  id: string;
  accountId: string;
  environment: Environment;
  criteria: PeopleSearchCriteria;
  /** Names the registry found before the birth-date range applied. */
  found: number;
  createdAt: string;
  /** 30 days after `createdAt`: the ids can no longer be bought. */
  expiresAt: string;
  /** In the registry's order. */
  people: FoundPerson[];
}

/** A person looked up by `prs_` id, with the search that found them. */
export interface SearchedPerson extends FoundPerson {
  searchId: string;
  accountId: string;
  environment: Environment;
  searchExpiresAt: string;
}

export interface PeopleSearchStore {
  /** The search and one entry per person; the search is readable only once every person is. */
  save(search: PeopleSearch): Promise<void>;
  get(searchId: string): Promise<PeopleSearch | undefined>;
  getPerson(personId: string): Promise<SearchedPerson | undefined>;
}

declare module '../kernel/capability-ports.ts' {
  interface CapabilityOwnPorts {
    /** People searches and the people they found, kept 30 days. */
    peopleSearches: PeopleSearchStore;
  }
}
