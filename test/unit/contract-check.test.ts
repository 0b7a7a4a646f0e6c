/** The check every HTTP test response goes through (test/support/contract.ts) refuses what the document does not allow. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ContractViolation, checkContract } from '../support/contract.ts';

const headers = (extra: Record<string, string> = {}) =>
  new Headers({
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': 'req_1',
    'ratelimit-limit': '600',
    'ratelimit-remaining': '599',
    'ratelimit-reset': '60',
    ...extra,
  });

const envelope = (code: string, type: string, extra: Record<string, unknown> = {}) => ({
  error: {
    type,
    code,
    message: 'm',
    param: null,
    registryCode: null,
    requestId: 'req_1',
    docUrl: `http://localhost/docs/errors#${code}`,
    ...extra,
  },
});

const unauthorized = envelope('unauthorized', 'authentication_error');

describe('checkContract', () => {
  it('accepts a documented error of the operation', () => {
    expect(() =>
      checkContract('GET', '/v1/companies/990000149', {
        status: 401,
        headers: headers(),
        body: unauthorized,
      }),
    ).not.toThrow();
    expect(() =>
      checkContract('GET', '/v1/companies/990000998', {
        status: 404,
        headers: headers(),
        body: envelope('company_not_found', 'not_found_error', { registryCode: 'CE03', param: 'id' }),
      }),
    ).not.toThrow();
  });

  it('refuses an undocumented status', () => {
    expect(() =>
      checkContract('GET', '/v1/companies/990000149', {
        status: 418,
        headers: headers(),
        body: unauthorized,
      }),
    ).toThrow(/status 418 is not documented for GetCompany/);
  });

  it('refuses a code the operation does not list for that status', () => {
    expect(() =>
      checkContract('GET', '/v1/orders/ord_1', {
        status: 404,
        headers: headers(),
        body: envelope('company_not_found', 'not_found_error'),
      }),
    ).toThrow(ContractViolation);
  });

  it('refuses an undocumented field, in an error and in a success', () => {
    expect(() =>
      checkContract('GET', '/v1/companies/990000149', {
        status: 401,
        headers: headers(),
        body: { error: { ...unauthorized.error, hint: 'x' } },
      }),
    ).toThrow(/must NOT have additional properties/);
    const list = {
      object: 'list',
      data: [],
      hasMore: false,
      nextCursor: null,
      totalCount: 0,
      meta: { billable: false, product: null, requestId: 'req_1' },
    };
    expect(() =>
      checkContract('GET', '/v1/reference/code-tables', { status: 200, headers: headers(), body: list }),
    ).not.toThrow();
    expect(() =>
      checkContract('GET', '/v1/reference/code-tables', {
        status: 200,
        headers: headers(),
        body: { ...list, page: 1 },
      }),
    ).toThrow(/additional properties/);
  });

  it('refuses, in an answer about one resource (`allOf` of the resource and `meta`), a field that is neither', () => {
    interface Operation {
      parameters?: { name: string; example?: unknown }[];
      responses: Record<
        string,
        { content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> }
      >;
    }
    const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, { allOf?: unknown[] }> };
    };
    const envelopes = Object.keys(document.components.schemas).filter(
      (name) => document.components.schemas[name]?.allOf,
    );
    const checked: string[] = [];
    for (const [template, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods))
        for (const [status, response] of Object.entries(operation.responses)) {
          const content = response.content?.['application/json'];
          const name = content?.schema?.$ref?.split('/').pop() ?? '';
          if (!envelopes.includes(name) || content?.example === undefined || !/^2/.test(status)) continue;
          const url = template.replace(/\{([^}]+)\}/g, (_, param: string) =>
            String(operation.parameters?.find((p) => p.name === param)?.example ?? 'x'),
          );
          const answer = (body: unknown) => ({ status: Number(status), headers: headers(), body });
          expect(() => checkContract(method.toUpperCase(), url, answer(content.example)), name).not.toThrow();
          expect(
            () =>
              checkContract(
                method.toUpperCase(),
                url,
                answer({ ...(content.example as object), accountId: 'acc_1' }),
              ),
            name,
          ).toThrow(/must NOT have unevaluated properties/);
          checked.push(name);
        }
    // Every such answer, through an operation's recorded example.
    expect([...new Set(checked)].sort()).toEqual(envelopes.sort());
  });

  it('refuses a response without the headers every response carries', () => {
    const bare = new Headers({ 'content-type': 'application/json' });
    expect(() =>
      checkContract('GET', '/v1/companies/990000149', { status: 401, headers: bare, body: unauthorized }),
    ).toThrow(/required header X-Request-Id/);
  });

  it('refuses an undocumented content type', () => {
    expect(() =>
      checkContract('GET', '/v1/companies/990000149', {
        status: 401,
        headers: headers({ 'content-type': 'text/plain' }),
        body: null,
      }),
    ).toThrow(/content type 'text\/plain' is not documented/);
  });

  it('takes a request no operation matches only as 404 route_not_found', () => {
    const notFound = envelope('route_not_found', 'not_found_error');
    expect(() =>
      checkContract('DELETE', '/v1/usage', { status: 404, headers: headers(), body: notFound }),
    ).not.toThrow();
    expect(() => checkContract('DELETE', '/v1/usage', { status: 200, headers: headers(), body: {} })).toThrow(
      /no operation/,
    );
  });
});
