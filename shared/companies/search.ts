/** Company search (free): by name in a scope, or by ACN or ABN. */
import './errors.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { type CursorCodec, pageOfArray } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import { fromRegistry } from '../kernel/registry-errors.ts';
import type { RegistryCaller } from '../kernel/registry-port.ts';
import { lookupCompany } from './extracts.ts';
import { parseCompanyIdentifier } from './identifier.ts';
import {
  type CompanyRegistry,
  type CompanySearchScope,
  companySearchScopes,
  type RegistryCompanyMatch,
} from './registry-port.ts';
import * as companyRoutes from './routes.ts';

export interface CompanySearchQuery {
  q?: string | undefined;
  acn?: string | undefined;
  abn?: string | undefined;
  scope?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/**
 * Exactly one of q, acn or abn (a well-formed number); a known scope. Checked before the registry
 * is asked.
 */
export function checkSearchCriteria(query: CompanySearchQuery) {
  if (query.acn !== undefined && query.abn !== undefined) {
    throw new ApiError('abn_and_acn_supplied', { param: 'abn', message: 'Give an ACN or an ABN, not both.' });
  }
  if (query.q !== undefined && (query.acn !== undefined || query.abn !== undefined)) {
    throw new ApiError('identifier_conflict', {
      param: query.acn !== undefined ? 'acn' : 'abn',
      message: 'Search by name (q) or by number (acn or abn), not both.',
    });
  }
  if (query.q === undefined && query.acn === undefined && query.abn === undefined) {
    throw new ApiError('validation_error', { param: 'q', message: 'q (a name), acn or abn is required.' });
  }
  const scope = query.scope ?? 'current';
  if (!(companySearchScopes as readonly string[]).includes(scope)) {
    throw new ApiError('search_scope_invalid', {
      param: 'scope',
      message: `scope must be one of ${companySearchScopes.join(', ')}.`,
    });
  }
  const numberParam = query.acn !== undefined ? 'acn' : query.abn !== undefined ? 'abn' : undefined;
  return {
    scope: scope as CompanySearchScope,
    name: query.q,
    number: numberParam && {
      param: numberParam,
      identifier: parseCompanyIdentifier(query[numberParam] as string, numberParam, numberParam),
    },
  };
}

export interface CompanySearchRequest {
  registry: CompanyRegistry;
  cursors: CursorCodec;
  owner: Owner;
  caller: RegistryCaller;
  query: CompanySearchQuery;
}

/**
 * One page of the matches: a number is looked up (one match, by its current name), a name searched
 * in its scope. Registry rejections name the parameter they are about; a cursor is valid only for
 * the same criteria and caller.
 */
export async function searchCompanies({ registry, cursors, owner, caller, query }: CompanySearchRequest) {
  const search = checkSearchCriteria(query);
  let matches: RegistryCompanyMatch[];
  if (search.number) {
    const company = await lookupCompany(registry, search.number.identifier, caller, search.number.param);
    matches = [{ company, matchedName: company.name, nameStatus: 'current', score: 100, address: null }];
  } else {
    const found = await fromRegistry(
      registry.searchCompanies({ name: search.name as string, scope: search.scope }, caller),
      'q',
    );
    matches = found.matches;
  }
  const filters = { q: query.q, acn: query.acn, abn: query.abn, scope: search.scope };
  return pageOfArray(matches, pageRequest({ cursors }, companyRoutes.searchCompanies, owner, query, filters));
}
