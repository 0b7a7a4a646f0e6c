/**
 * A person's company roles, read free from a held person extract (spec 4.5).
 */

import { personExtractProduct } from '../companies/products.ts';
import { byRecordStatus, type StatusRecord } from '../companies/sections.ts';
import { assertReadable, type ExtractRef, extractRefOf, isUnexpired } from '../extracts/lifecycle.ts';
import type { HeldExtracts } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { type CursorCodec, pageOfArray } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import { MEMBER_ROLE } from '../kernel/registry-ordering.ts';
import { findCodeTable } from '../reference/code-tables.ts';
import { PERSON_SECTION, type StoredPersonExtract } from './present.ts';
import * as peopleRoutes from './routes.ts';
import type { roleStatuses } from './schemas.ts';
import { isSearchExpired, knownPerson, searchExpired } from './search.ts';
import type { PeopleSearchStore, SearchedPerson } from './store-port.ts';

export type RoleStatus = (typeof roleStatuses)[number];

const roleCodes = new Set([
  ...(findCodeTable('office-holder-roles')?.entries.map((entry) => entry.code) ?? []),
  MEMBER_ROLE,
]);

/** `role[]` values and any plain `role` ones, together: each an office-holder role code or SH. */
export function parseRoleFilter(query: {
  'role[]'?: string | string[] | undefined;
  role?: string | string[] | undefined;
}) {
  const codes = [query['role[]'], query.role].flatMap((given) => (given === undefined ? [] : given));
  if (codes.length === 0) return undefined;
  for (const [index, code] of codes.entries()) {
    if (!roleCodes.has(code)) {
      throw new ApiError('validation_error', {
        param: `role[${index}]`,
        message: `${code === '' ? 'An empty value' : code} is not an office-holder role code or SH.`,
      });
    }
  }
  return [...new Set(codes)];
}

export interface RolesRequest {
  personId: string;
  status: RoleStatus;
  /** Role codes to keep (`role[]`); all when undefined. */
  roles: string[] | undefined;
  extractId: string | undefined;
  owner: Owner;
  now: Date;
  heldExtracts: HeldExtracts;
  searches: PeopleSearchStore;
}

function extractRequired(person: SearchedPerson, history: boolean, reason: string) {
  return new ApiError('extract_required', {
    message: reason,
    details: {
      purchase: {
        method: 'POST',
        path: '/v1/people/extracts',
        body: { searchId: person.searchId, personIds: [person.id], history },
        product: personExtractProduct.product,
      },
    },
  });
}

/** The person extract a roles read uses: the one named, or the newest unexpired one that has what the status needs. */
async function extractFor(request: RolesRequest, person: SearchedPerson): Promise<ExtractRef> {
  const { owner, now, heldExtracts } = request;
  const needsHistory = request.status !== 'current';
  if (request.extractId !== undefined) {
    const header = assertReadable(await heldExtracts.getHeader(request.extractId), owner, now, 'extract');
    if (header.kind !== 'person' || header.subjectKey !== person.registryIdentifier) {
      throw new ApiError('extract_not_found', {
        param: 'extract',
        message: `${header.id} is not a person extract of ${person.id}.`,
      });
    }
    if (needsHistory && header.type !== 'historical') {
      throw extractRequired(
        person,
        true,
        `${header.id} is a current extract; former roles need a historical extract (history true).`,
      );
    }
    return header;
  }
  const held = (
    await heldExtracts.heldForSubject(owner.accountId, owner.environment, 'person', person.registryIdentifier)
  ).filter((ref) => isUnexpired(ref, now));
  const usable = held.find((ref) => !needsHistory || ref.type === 'historical');
  if (usable) return usable;
  // Without a live search the purchase a 402 would propose cannot be made: search again first.
  if (isSearchExpired(person.searchExpiresAt, now)) throw searchExpired('personId', person.searchExpiresAt);
  throw extractRequired(
    person,
    needsHistory,
    held.length > 0
      ? 'Only a current extract of this person is held; former roles need a historical extract.'
      : 'No unexpired extract of this person is held. Buy one with the request in details.purchase.',
  );
}

/** The roles matching the filters, in the order the extract holds them, and the extract read. */
export async function readPersonRoles(request: RolesRequest) {
  const person = await knownPerson(request.searches, request.personId, request.owner);
  const extract = await extractFor(request, person);
  const stored = (await request.heldExtracts.getSection(extract.id, PERSON_SECTION)) as StoredPersonExtract;
  const all = stored.roles as (StatusRecord & { role: { code: string } })[];
  const wanted = request.roles ? new Set(request.roles) : undefined;
  const inStatus = byRecordStatus(request.status);
  const data = all.filter((record) => inStatus(record) && (!wanted || wanted.has(record.role.code)));
  return { extract: extractRefOf(extract), data };
}

export interface RolesQuery {
  'role[]'?: string | string[] | undefined;
  role?: string | string[] | undefined;
  status?: RoleStatus | undefined;
  extract?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/**
 * One page of a person's roles (current unless asked, of the roles asked), with the extract read;
 * a cursor is valid only for the same filters, extract and caller.
 */
export async function listPersonRoles(
  read: Pick<RolesRequest, 'owner' | 'now' | 'heldExtracts' | 'searches'> & { cursors: CursorCodec },
  personId: string,
  query: RolesQuery,
) {
  const roles = parseRoleFilter(query);
  const status = query.status ?? 'current';
  const { extract, data } = await readPersonRoles({
    ...read,
    personId,
    status,
    roles,
    extractId: query.extract,
  });
  const filters = { personId, status, roles: roles && [...roles].sort().join(','), extract: extract.id };
  const page = await pageOfArray(
    data,
    pageRequest(read, peopleRoutes.listPersonRoles, read.owner, query, filters),
  );
  return { page, extract };
}
