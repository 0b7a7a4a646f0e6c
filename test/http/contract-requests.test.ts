/**
 * The contract is exact for requests too: for every operation, requests generated from the
 * contract's own parameter and body schemas (json-schema-faker, seeded, so every run sends the
 * same requests) go to the local stack with a test key, and none is refused for its shape. A
 * refusal for shape is `validation_error` or the code of a field whose whole rule is in the schema
 * (`delivery_invalid`, `summary_type_invalid`…). What JSON Schema cannot say is answered with
 * semantic codes (a check digit, an unknown id, a week outside the window), which the parameters'
 * descriptions name; those are allowed, and listed below. Every answer is also checked against the
 * contract's response schemas (test/support/api.ts), so the document is exact both ways.
 */
import { readFileSync } from 'node:fs';
import { generate, type JsonSchema } from 'json-schema-faker';
import { describe, expect, it } from 'vitest';
import { routeList } from '../../shared/app/routes.ts';
import { call, createKey } from '../support/api.ts';

const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
};
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}

/** Requests generated per operation. */
const SAMPLES = 12;
const SEED = 20261128;

/** Codes whose field's whole rule is in the schema: a generated value must never get them. */
const SHAPE_CODES = new Set([
  'validation_error',
  'invalid_json',
  'delivery_invalid',
  'summary_type_invalid',
  'search_scope_invalid',
  'register_invalid',
]);

interface ApiErrorBody {
  code: string;
  param: string | null;
  message: string;
}

/**
 * `validation_error`s the contract allows for a schema-valid request, because JSON Schema cannot
 * say the rule and the parameter's description (or the spec) does.
 */
const SEMANTIC_VALIDATION: readonly {
  rule: string;
  allows: (route: string, error: ApiErrorBody) => boolean;
}[] = [
  { rule: 'a cursor the API did not issue', allows: (_, error) => error.param === 'cursor' },
  {
    rule: 'a monitoring feed position the API did not issue (like a cursor)',
    allows: (route, error) => route === 'ListMonitorEvents' && error.param === 'after',
  },
  {
    rule: "a monitor import's CSV text whose first line names no import column (CSV content is not JSON Schema's)",
    allows: (route, error) =>
      route === 'ImportMonitors' && error.message.startsWith('The first CSV line must name the columns'),
  },
  {
    rule: 'a day the month does not have (the pattern allows days 01-31 in every month)',
    allows: (_, error) => /is not a (calendar date|real time)/.test(error.message),
  },
  {
    rule: "a period whose ends are out of order (from after to, or after today's default to)",
    allows: (_, error) => / is later than /.test(error.message),
  },
  {
    rule: 'a people search id that names no search (spec 4.5: 422 on searchId)',
    allows: (route, error) =>
      route === 'PurchasePersonExtracts' &&
      error.param === 'searchId' &&
      error.message.startsWith('No people search'),
  },
  {
    rule: 'business names: number alone, or stateNumber with jurisdiction (the parameters say so)',
    allows: (route, error) =>
      route === 'FindBusinessNames' &&
      (error.param === 'stateNumber' || error.param === 'jurisdiction') &&
      !/must be/.test(error.message),
  },
];

const generated = async (schema: JsonSchema, seed: number) =>
  generate({ ...(schema as object), components: document.components } as JsonSchema, {
    seed,
    optionalsProbability: 0.5,
    maxItems: 3,
    maxLength: 40,
  });

async function sample(operation: Operation, seed: number) {
  const path: Record<string, string> = {};
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const [i, parameter] of (operation.parameters ?? []).entries()) {
    if (parameter.in !== 'path' && !parameter.required && (seed + i) % 2 === 0) continue;
    const value = await generated(parameter.schema, seed * 31 + i);
    if (parameter.in === 'path') path[parameter.name] = String(value);
    else if (parameter.in === 'query') {
      for (const item of Array.isArray(value) ? value : [value]) query.append(parameter.name, String(item));
    } else headers[parameter.name] = String(value);
  }
  const bodySchema = operation.requestBody?.content['application/json'].schema;
  const body = bodySchema ? await generated(bodySchema, seed * 37) : undefined;
  return { path, query, headers, body };
}

const operations = routeList
  .filter((route) => !route.internal)
  .map((route) => ({
    route,
    operation: document.paths[route.path]?.[route.method.toLowerCase()] as Operation,
  }));

describe('requests generated from the contract', () => {
  it.each(operations.map((o) => [o.route.name, o] as const))(
    '%s: none is refused for its shape',
    async (_, { route, operation }) => {
      const key = await createKey('test');
      const refused: unknown[] = [];
      for (let n = 0; n < SAMPLES; n++) {
        const request = await sample(operation, SEED + n);
        let url = route.path;
        for (const [name, value] of Object.entries(request.path))
          url = url.replace(`{${name}}`, encodeURIComponent(value));
        if (request.query.size > 0) url += `?${request.query}`;
        const response = await call<{ error?: { code: string; param: string | null; message: string } }>(
          url,
          {
            key: key.secret,
            method: route.method,
            headers: request.headers,
            ...(request.body === undefined ? {} : { body: request.body }),
          },
        );
        const error = response.body?.error;
        if (!error || !SHAPE_CODES.has(error.code)) continue;
        if (SEMANTIC_VALIDATION.some((semantic) => semantic.allows(route.name, error))) continue;
        refused.push({ url, headers: request.headers, body: request.body, status: response.status, error });
      }
      expect(refused).toEqual([]);
    },
    60_000,
  );
});
