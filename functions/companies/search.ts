import type { RoutePorts } from '../../shared/app/ports.ts';
import { lookupCompany } from '../../shared/companies/extracts.ts';
import { parseCompanyIdentifier } from '../../shared/companies/identifier.ts';
import { presentCompanyMatch } from '../../shared/companies/present.ts';
import {
  type CompanySearchScope,
  companySearchScopes,
  type RegistryCompanyMatch,
} from '../../shared/companies/registry-port.ts';
import { companyRoutes } from '../../shared/companies/routes.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { pageOfArray } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { fromRegistry } from '../../shared/kernel/registry-errors.ts';

/** Exactly one of q, acn or abn; a known scope. Checked before the registry is asked. */
function checkCriteria(query: {
  q?: string | undefined;
  acn?: string | undefined;
  abn?: string | undefined;
  scope?: string | undefined;
}) {
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
  return scope as CompanySearchScope;
}

export const createHandler = (ports: RoutePorts<typeof companyRoutes.searchCompanies>) =>
  createHttpHandler(companyRoutes.searchCompanies, ports, async ({ query, auth, requestId }) => {
    const scope = checkCriteria(query);
    const numberParam = query.acn !== undefined ? 'acn' : query.abn !== undefined ? 'abn' : undefined;
    const identifier =
      numberParam && parseCompanyIdentifier(query[numberParam] as string, numberParam, numberParam);
    const registry = ports.registryFor(auth.environment);
    const caller = { accountId: auth.accountId, requestId };
    let matches: RegistryCompanyMatch[];
    if (identifier) {
      const company = await lookupCompany(registry, identifier, caller, numberParam);
      matches = [{ company, matchedName: company.name, nameStatus: 'current', score: 100, address: null }];
    } else {
      const found = await fromRegistry(
        registry.searchCompanies({ name: query.q as string, scope }, caller),
        'q',
      );
      matches = found.matches;
    }
    const page = await pageOfArray(
      matches,
      pageRequest(ports, companyRoutes.searchCompanies, auth, query, {
        q: query.q,
        acn: query.acn,
        abn: query.abn,
        scope,
      }),
    );
    return { body: { object: 'list', ...page, data: page.data.map(presentCompanyMatch) } };
  });

export const handler = createHandler(awsRoutePorts(companyRoutes.searchCompanies, { registryFor }));
