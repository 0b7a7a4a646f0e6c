/**
 * People searches (free): the birth-date rules are checked here (the names' by the request's
 * schema), before the registry is asked, with the codes the registry would use; each search is
 * kept with its `prs_` ids.
 */

import './errors.ts';
import { isUnexpired } from '../extracts/lifecycle.ts';
import { isSameOwner, type Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { newId } from '../kernel/ids.ts';
import { fromRegistry } from '../kernel/registry-errors.ts';
import { presentPersonMatch } from './present.ts';
import type { PeopleRegistry } from './registry-port.ts';
import type { PeopleSearch, PeopleSearchCriteria, PeopleSearchStore, SearchedPerson } from './store-port.ts';

export const SEARCH_LIFETIME_MS = 30 * 24 * 3600_000;

/** A name as the registry is asked (the request's schema has checked its characters). */
const registryName = (name: string): string => name.trim().replace(/\s+/g, ' ').toUpperCase();

function checkBirthRange(from: string | undefined, to: string | undefined, today: string) {
  if ((from === undefined) !== (to === undefined)) {
    throw new ApiError('birth_date_range_invalid', {
      param: from === undefined ? 'birthDateFrom' : 'birthDateTo',
      message: 'Give both birthDateFrom and birthDateTo, or neither.',
    });
  }
  if (from === undefined || to === undefined) return;
  if (from > today) {
    throw new ApiError('birth_date_range_invalid', {
      param: 'birthDateFrom',
      message: `birthDateFrom ${from} is in the future.`,
    });
  }
  if (from > to) {
    throw new ApiError('birth_date_range_invalid', {
      param: 'birthDateFrom',
      message: `birthDateFrom ${from} is after birthDateTo ${to}.`,
    });
  }
}

export interface SearchInput {
  body: { familyName: string; givenName: string; birthDateFrom?: string; birthDateTo?: string };
  owner: Owner;
  requestId: string;
  now: Date;
  registry: PeopleRegistry;
  searches: PeopleSearchStore;
}

export async function searchPeople(input: SearchInput) {
  const { body, owner, now } = input;
  const criteria: PeopleSearchCriteria = {
    familyName: registryName(body.familyName),
    givenName: registryName(body.givenName),
    birthDateFrom: body.birthDateFrom ?? null,
    birthDateTo: body.birthDateTo ?? null,
  };
  checkBirthRange(body.birthDateFrom, body.birthDateTo, now.toISOString().slice(0, 10));
  const { found, matches } = await fromRegistry(
    input.registry.searchPeople(criteria, { accountId: owner.accountId, requestId: input.requestId }),
  );
  const search: PeopleSearch = {
    id: newId('psr_'),
    accountId: owner.accountId,
    environment: owner.environment,
    criteria,
    found,
    createdAt: toTimestamp(now),
    expiresAt: toTimestamp(new Date(now.getTime() + SEARCH_LIFETIME_MS)),
    people: matches.map((match) => {
      const id = newId('prs_');
      return {
        id,
        registryIdentifier: match.registryIdentifier,
        roleCount: match.roleCount,
        match: presentPersonMatch(id, match),
      };
    }),
  };
  await input.searches.save(search);
  return presentSearch(search);
}

export const presentSearch = (search: PeopleSearch) => ({
  object: 'peopleSearch',
  id: search.id,
  ...search.criteria,
  createdAt: search.createdAt,
  expiresAt: search.expiresAt,
  totalCount: search.people.length,
  found: search.found,
  data: search.people.map((person) => person.match),
});

/** 403 for another account's or environment's search or person. */
export function assertOwnSearch(subject: Owner, owner: Owner, param: string) {
  if (isSameOwner(subject, owner)) return;
  throw new ApiError('search_owner_mismatch', {
    param,
    message:
      subject.accountId !== owner.accountId
        ? 'This search belongs to another account.'
        : `This search was made with a ${subject.environment} key; use a ${subject.environment} key.`,
  });
}

export const isSearchExpired = (expiresAt: string, now: Date) => !isUnexpired({ expiresAt }, now);

export const searchExpired = (param: string, expiresAt: string) =>
  new ApiError('search_expired', {
    param,
    message: `This people search expired at ${expiresAt}, 30 days after it was made. Search again for new ids.`,
  });

/** A search the caller owns and may still buy from: 404 (as validation), 403, then 410. */
export async function readableSearch(searches: PeopleSearchStore, searchId: string, owner: Owner, now: Date) {
  const search = await searches.get(searchId);
  if (!search) {
    throw new ApiError('validation_error', {
      param: 'searchId',
      message: `No people search has the id ${searchId}.`,
    });
  }
  assertOwnSearch(search, owner, 'searchId');
  if (isSearchExpired(search.expiresAt, now)) throw searchExpired('searchId', search.expiresAt);
  return search;
}

/** A person by `prs_` id: 404 when unknown, 403 when another owner's. */
export async function knownPerson(
  searches: PeopleSearchStore,
  personId: string,
  owner: Owner,
  param = 'personId',
): Promise<SearchedPerson> {
  const person = await searches.getPerson(personId);
  if (!person) {
    throw new ApiError('person_not_found', { param, message: `No people search returned ${personId}.` });
  }
  assertOwnSearch(person, owner, param);
  return person;
}
