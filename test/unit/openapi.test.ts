import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { CLIENT_TYPES_FILE, clientTypesText, OPENAPI_FILE, openApiText } from '../../scripts/openapi.ts';
import { serviceErrors } from '../../shared/app/errors.ts';
import { buildOpenApiDocument, responseExamples } from '../../shared/app/openapi/document.ts';
import { errorCodesByStatus, REGISTRY_ERRORS } from '../../shared/app/openapi/errors.ts';
import { requestExamples } from '../../shared/app/openapi/examples.ts';
import { routeList, routes } from '../../shared/app/routes.ts';
import { checkContract } from '../support/contract.ts';

interface Operation {
  operationId: string;
  tags: string[];
  security?: unknown[];
  parameters?: { in: string; name: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: Schema }> }>;
  'x-codeSamples': { source: string }[];
}
interface Schema {
  properties?: Record<string, Schema>;
  enum?: string[];
  allOf?: Schema[];
  $ref?: string;
}

const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content: Record<string, { schema: Schema }> }> };
  security: unknown[];
};
const contractRoutes = routeList.filter((route) => !route.internal);
const operationOf = (route: (typeof routeList)[number]) =>
  document.paths[route.path]?.[route.method.toLowerCase()] as Operation;

/** The `error.code` enum of one response, following a shared response's `$ref`. */
function codesOf(operation: Operation, status: number): string[] | undefined {
  let response = operation.responses[String(status)];
  if (response?.$ref) response = document.components.responses[response.$ref.split('/').pop() as string];
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  // `Error` narrowed to this status's codes: `allOf: [{$ref: Error}, {error: {type, code}}]`.
  expect(schema.allOf?.[0]?.$ref).toBe('#/components/schemas/Error');
  return schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum;
}

describe('docs/openapi.json', () => {
  it('is what the route table generates (run `npm run openapi` after changing a route or schema)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText());
  });

  // Generating the types takes 2-4 s on a quiet machine: room for a loaded one.
  it('has its typed client types generated from it (clients/typescript/schema.ts)', async () => {
    expect(readFileSync(CLIENT_TYPES_FILE, 'utf8')).toBe(
      await clientTypesText(readFileSync(OPENAPI_FILE, 'utf8')),
    );
  }, 30_000);

  it('names every component schema (no anonymous `__schemaN`), the resources of spec document 1 among them', () => {
    const names = Object.keys(
      (document as unknown as { components: { schemas: object } }).components.schemas,
    );
    expect(names.filter((name) => !/^[A-Z][A-Za-z0-9]*$/.test(name))).toEqual([]);
    expect(names).toEqual(
      expect.arrayContaining([
        'Company',
        'CompanySummary',
        'CompanyExtract',
        'PersonExtract',
        'WeeklySummaryExtract',
        'RegisterExtract',
        'Extract',
        'Order',
        'OfflineSearch',
        'Document',
        'Charge',
        'Party',
        'Address',
        'CodedValue',
        'Event',
        'WebhookEndpoint',
        'FeeEntry',
        'OrderList',
        'Error',
        'OrderDelivery',
      ]),
    );
    // Every request body is a named component too.
    for (const route of contractRoutes.filter((r) => r.request.body)) {
      const body = operationOf(route).requestBody?.content['application/json'] as
        | { schema: { $ref?: string } }
        | undefined;
      expect(body?.schema.$ref, route.name).toMatch(/^#\/components\/schemas\/[A-Z]\w+$/);
    }
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('has one operation per route of the contract, and none for the HTML pages', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations.map((op) => op.operationId).sort()).toEqual(contractRoutes.map((r) => r.name).sort());
    for (const route of routeList.filter((r) => r.internal))
      expect(document.paths[route.path]).toBeUndefined();
  });

  it('lists, per status, exactly the error codes each route can answer with, with the envelope of spec 7.1', () => {
    for (const route of contractRoutes) {
      const operation = operationOf(route);
      const byStatus = errorCodesByStatus(route);
      const documented = Object.keys(operation.responses)
        .map(Number)
        .filter((status) => status >= 400);
      expect(documented, route.name).toEqual([...byStatus.keys()]);
      for (const [status, codes] of byStatus)
        expect(codesOf(operation, status), `${route.name} ${status}`).toEqual(codes);
      for (const code of route.errors) {
        expect(codesOf(operation, serviceErrors[code].status), `${route.name} ${code}`).toContain(code);
      }
    }
  });

  it('adds the errors every keyed route shares, the registry errors of registry routes, and none to the public document', () => {
    const purchase = operationOf(routes.purchaseCompanyExtract);
    expect(codesOf(purchase, 401)).toEqual(['unauthorized']);
    expect(codesOf(purchase, 429)).toEqual(['rate_limited', 'idempotency_key_in_use']);
    expect(codesOf(purchase, 400)).toContain('request_too_large');
    expect(codesOf(purchase, 413)).toBeUndefined();
    expect(codesOf(purchase, 431)).toBeUndefined();
    expect(codesOf(purchase, 500)).toEqual(['internal_error']);
    // A 409 is never retried (spec 7.2): only the key reused with another request.
    expect(codesOf(purchase, 409)).toEqual(['idempotency_conflict']);
    // Every answer spec 7.2 retries says when to come back; the others do not.
    const headersOf = (status: number) => {
      type Response = { $ref?: string; headers?: Record<string, unknown> };
      const response = purchase.responses[String(status)] as Response;
      const shared = response.$ref?.split('/').pop();
      const resolved = (shared ? document.components.responses[shared] : response) as Response;
      return Object.keys(resolved.headers ?? {});
    };
    for (const status of [429, 500, 502, 503])
      expect(headersOf(status), String(status)).toContain('Retry-After');
    for (const status of [400, 401, 409, 422])
      expect(headersOf(status), String(status)).not.toContain('Retry-After');
    expect(codesOf(purchase, 503)).toEqual(['registry_unavailable', 'service_unavailable']);
    expect(codesOf(purchase, 502)).toEqual(['registry_application_error']);
    for (const code of REGISTRY_ERRORS) {
      expect(codesOf(purchase, serviceErrors[code].status)).toContain(code);
    }
    // No registry call: no registry errors.
    expect(codesOf(operationOf(routes.getOrder), 502)).toBeUndefined();
    const contract = operationOf(routes.getOpenApiDocument);
    expect(contract.security).toEqual([]);
    expect(contract.responses['401']).toBeUndefined();
    expect(Object.keys(contract.responses)).toContain('304');
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it('documents the purchase and simulation headers where they apply', () => {
    const headersOf = (route: (typeof routeList)[number]) =>
      (operationOf(route).parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headersOf(routes.purchaseCompanyExtract)).toEqual(['Idempotency-Key', 'X-Client-Reference']);
    expect(headersOf(routes.orderChargesExtract)).toEqual([
      'Idempotency-Key',
      'X-Client-Reference',
      'X-Sandbox-Simulate',
    ]);
    expect(headersOf(routes.getCompany)).toEqual([]);
  });

  it('has a sandbox example per operation that passes its route’s request schemas', () => {
    for (const route of contractRoutes) {
      const example = requestExamples[route.name];
      expect(example, route.name).toBeDefined();
      if (!example) continue;
      expect(z.safeParse(route.request.path, example.path ?? {}).success, `${route.name} path`).toBe(true);
      expect(z.safeParse(route.request.query, example.query ?? {}).success, `${route.name} query`).toBe(true);
      if (route.request.body) {
        expect(z.safeParse(route.request.body, example.body).success, `${route.name} body`).toBe(true);
        expect(operationOf(route).requestBody?.content['application/json']?.example).toEqual(example.body);
      }
      expect(operationOf(route)['x-codeSamples'][0]?.source).toMatch(/^curl /);
    }
  });

  it('has a success response recorded from the sandbox per JSON operation, valid for its route', () => {
    const headers = new Headers({
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'req_1',
      'ratelimit-limit': '600',
      'ratelimit-remaining': '599',
      'ratelimit-reset': '60',
    });
    const notJson = ['DownloadOrder', 'GetOpenApiDocument'];
    for (const route of contractRoutes) {
      const recorded = responseExamples[route.name];
      if (notJson.includes(route.name)) {
        expect(recorded, route.name).toBeUndefined();
        continue;
      }
      expect(recorded, route.name).toBeDefined();
      const parsed = z.safeParse(route.response, recorded);
      expect(parsed.success, `${route.name}: ${JSON.stringify(parsed.error?.issues[0])}`).toBe(true);
      // The document's schema too (stricter than zod's: no field it does not list).
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      expect(() =>
        checkContract(route.method, path, { status: route.status, headers, body: recorded }),
      ).not.toThrow();
      const content = operationOf(route).responses[String(route.status)]?.content?.['application/json'] as
        | { example?: unknown }
        | undefined;
      expect(content?.example, route.name).toEqual(recorded);
    }
  }, 30_000);

  it('refers every error response to one shared response per status and set of codes', () => {
    const sets = new Map<string, string>();
    for (const route of contractRoutes) {
      for (const [status, codes] of errorCodesByStatus(route)) {
        const ref = operationOf(route).responses[String(status)]?.$ref;
        expect(ref, `${route.name} ${status}`).toMatch(/^#\/components\/responses\/[A-Za-z0-9]+$/);
        const key = `${status} ${codes.join(',')}`;
        expect(sets.get(key) ?? ref, key).toBe(ref);
        sets.set(key, ref as string);
      }
    }
    // One shared response per distinct set, and none that no operation uses.
    expect(Object.keys(document.components.responses).length).toBe(sets.size);
    expect(document.components.responses.Unauthorized).toBeDefined();
    expect(document.components.responses.BadRequest).toBeDefined();
    expect(operationOf(routes.purchaseCompanyExtract).responses['403']?.$ref).toBe(
      '#/components/responses/Status403RegistryOrSpendCapExceeded',
    );
  });

  it('writes no object schema inline twice: a shape of more than two properties used twice is a named component', () => {
    const seen = new Map<string, string[]>();
    const visit = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as { type?: unknown; properties?: Record<string, unknown> };
      if (schema.type === 'object' && schema.properties && Object.keys(schema.properties).length > 2) {
        const text = JSON.stringify(schema);
        seen.set(text, [...(seen.get(text) ?? []), at]);
      }
      for (const [key, value] of Object.entries(node))
        if (key !== 'example' && key !== 'examples') visit(value, `${at}/${key}`);
    };
    visit(document, '#');
    const repeated = [...seen.values()].filter((places) => places.length > 1);
    expect(repeated).toEqual([]);
  });

  it('has no anonymous object schema inside a component: every object a generated client types has a name', () => {
    const anonymous: string[] = [];
    const visit = (node: unknown, at: string, root: boolean): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as { type?: unknown; properties?: unknown; anyOf?: unknown; oneOf?: unknown };
      const object =
        schema.properties !== undefined ||
        (schema.type === 'object' && schema.anyOf === undefined && schema.oneOf === undefined);
      if (object && !root) anonymous.push(at);
      for (const [key, value] of Object.entries(node))
        if (key !== 'example' && key !== 'examples') visit(value, `${at}/${key}`, false);
    };
    const { schemas } = (document as unknown as { components: { schemas: Record<string, unknown> } })
      .components;
    for (const [name, schema] of Object.entries(schemas)) visit(schema, name, true);
    expect(anonymous).toEqual([]);
  });

  it('says the monitoring bodies take exactly one of their two fields (oneOf of required lists)', () => {
    const schemas = (document as unknown as { components: { schemas: Record<string, { oneOf?: unknown }> } })
      .components.schemas;
    expect(schemas.CreateMonitorRequest?.oneOf).toEqual([
      { required: ['company'] },
      { required: ['person'] },
    ]);
    expect(schemas.ImportMonitorsRequest?.oneOf).toEqual([{ required: ['rows'] }, { required: ['csv'] }]);
    // The schema that validates the request refuses the same bodies, on the first field.
    for (const body of [
      {},
      { company: '990000014', person: { familyName: 'A', givenNames: ['B'], birthDate: '1970-01-01' } },
    ]) {
      const result = z.safeParse(routes.createMonitor.request.body as z.ZodMiniType, body);
      expect(result.error?.issues.map((issue) => issue.path)).toEqual([['company']]);
    }
    for (const body of [{}, { rows: [{ company: '990000014' }], csv: 'company' }]) {
      const result = z.safeParse(routes.importMonitors.request.body as z.ZodMiniType, body);
      expect(result.error?.issues.map((issue) => issue.path)).toEqual([['rows']]);
    }
  });

  it('refuses a route with no example', () => {
    const { getCompany } = routes;
    expect(() => buildOpenApiDocument([{ ...getCompany, name: 'NoExample' }])).toThrow(/no request example/);
  });
});

describe('the error guide', () => {
  it('explains every catalogue code with a cause and a fix', () => {
    for (const [code, entry] of Object.entries(serviceErrors)) {
      expect(entry.cause.length, code).toBeGreaterThan(10);
      expect(entry.fix.length, code).toBeGreaterThan(5);
    }
  });
});
