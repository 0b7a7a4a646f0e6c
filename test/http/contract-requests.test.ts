/**
 * The contract is exact for requests, both ways, for every operation (issue 40).
 *
 * - Accepted: requests generated from the contract's own parameter and body schemas
 *   (json-schema-faker, seeded, so every run sends the same requests) go to the local stack with a
 *   test key, and none is refused for a reason JSON Schema could have said. Every 400 or 422
 *   `invalid_request_error` counts as such a refusal, whatever its code, unless it is one of the
 *   rules below that JSON Schema cannot say (a check digit, an id the API did not issue, the
 *   order of two dates…), which the field's or the operation's description states.
 * - Refused: from each operation's documented example, every constraint the schema states
 *   (required, pattern, bounds, length, items, uniqueItems, enum) is broken in turn, one at a time,
 *   and the service must refuse the request with a 4xx the operation documents, a code it lists for
 *   that status, and `param` naming the field broken (or the object holding it).
 * - A body the service needs is `required`, and one it does not need is not: the request without
 *   a body is refused exactly when the contract says the body is required.
 *
 * Every answer is also checked against the contract's response schemas (test/support/api.ts).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generate, type JsonSchema } from 'json-schema-faker';
import { describe, expect, it } from 'vitest';
import { errorCodesByStatus } from '../../shared/app/openapi/errors.ts';
import { routeList } from '../../shared/app/routes.ts';
import type { RouteDefinition } from '../../shared/kernel/http/route.ts';
import { type ApiResponse, call, createKey } from '../support/api.ts';

type Schema = Record<string, unknown> & JsonSchema;
const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
  example?: unknown;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: {
    required?: boolean;
    content: { 'application/json': { schema: Schema; example?: unknown } };
  };
}

/** Requests generated per operation. */
const SAMPLES = 3;
const SEED = 20261128;

interface ApiErrorBody {
  type: string;
  code: string;
  param: string | null;
  message: string;
}

interface Sent {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
}

/** The value the request sent at an error's `param` (`documents[0].pages` → that object). */
function valueAt(request: Sent, param: string | null): unknown {
  if (param === null) return undefined;
  const [head = '', ...rest] = param.split(/\.|\[|\]\.?/).filter(Boolean);
  const start =
    request.path[head] ??
    request.query[head] ??
    request.query[`${head}[]`] ??
    request.headers[head] ??
    (request.body as Record<string, unknown> | undefined)?.[head];
  return rest.reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], start);
}

const compactDigits = (value: unknown) => (typeof value === 'string' ? value.replace(/ /g, '') : '');

/**
 * Refusals of a schema-valid request that the contract allows, because JSON Schema cannot say
 * the rule and the field's or operation's description (or the spec) does.
 */
const SEMANTIC: readonly {
  rule: string;
  allows: (route: string, error: ApiErrorBody, request: Sent) => boolean;
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
    rule: 'a check digit: a nine- or eleven-digit identifier of the right form that fails its check',
    allows: (_, error, request) =>
      ['acn_invalid', 'abn_invalid', 'abn_not_acn_based'].includes(error.code) &&
      /^(\d{9}|\d{11})$/.test(compactDigits(valueAt(request, error.param))),
  },
  {
    rule: 'exactly one kind of identifier (company search, business names), or years or a from/to range',
    allows: (_, error) =>
      ['identifier_conflict', 'abn_and_acn_supplied', 'document_period_conflict'].includes(error.code),
  },
  {
    rule: 'company search: exactly one of q, acn and abn (the operation says so)',
    allows: (route, error) =>
      route === 'SearchCompanies' &&
      error.code === 'validation_error' &&
      error.param === 'q' &&
      error.message === 'q (a name), acn or abn is required.',
  },
  {
    rule: 'a date range: both ends or neither, and the end not before the start',
    allows: (_, error) => ['document_date_range_invalid', 'birth_date_range_invalid'].includes(error.code),
  },
  {
    rule: 'a week start must be the Monday of a completed week within the last 12 months',
    allows: (_, error) => error.code === 'week_start_invalid',
  },
  {
    rule: "answers that depend on the registry's data, not on the request's form",
    allows: (_, error) =>
      [
        'extract_unavailable_for_type',
        'too_many_matches',
        'document_list_unavailable',
        'person_too_many_roles',
        'document_not_imaged',
        'document_too_large_for_delivery',
      ].includes(error.code),
  },
  {
    rule: 'an image order: pages.to not below pages.from and within the document',
    allows: (_, error) =>
      error.code === 'page_range_invalid' && /is below pages\.from|has \d+ pages/.test(error.message),
  },
  {
    rule: 'a document number given twice in another case or with spaces (compared upper-cased and trimmed)',
    allows: (_, error) => error.code === 'duplicate_document_number',
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

const refusedForForm = (response: ApiResponse<{ error?: ApiErrorBody }>) => {
  const error = response.body?.error;
  return error?.type === 'invalid_request_error' && (response.status === 400 || response.status === 422);
};

// ajv-formats is CommonJS: its default export is the plugin itself or under `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false }));
const validators = new Map<Schema, ValidateFunction>();
const isValid = (schema: Schema, value: unknown) => {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...(schema as object), components: document.components });
    validators.set(schema, validate);
  }
  return validate(value);
};

/**
 * A value the schema accepts, generated from it; the example's when the generator cannot make one
 * (json-schema-faker does not read `\p{L}`, the letters of a person's name, and writes it out).
 */
async function generated(schema: Schema, seed: number, fallback: unknown) {
  const value = await generate({ ...(schema as object), components: document.components } as JsonSchema, {
    seed,
    optionalsProbability: 0.5,
    maxItems: 3,
    maxLength: 40,
  });
  return isValid(schema, value) ? value : fallback;
}

async function sample(operation: Operation, seed: number): Promise<Sent> {
  const sent: Sent = { path: {}, query: {}, headers: {}, body: undefined };
  for (const [i, parameter] of (operation.parameters ?? []).entries()) {
    if (parameter.in !== 'path' && !parameter.required && (seed + i) % 2 === 0) continue;
    const value = await generated(parameter.schema, seed * 31 + i, parameter.example);
    if (value === undefined) continue;
    if (parameter.in === 'path') sent.path[parameter.name] = String(value);
    else if (parameter.in === 'query') sent.query[parameter.name] = value;
    else sent.headers[parameter.name] = String(value);
  }
  const bodySchema = operation.requestBody?.content['application/json'].schema;
  if (bodySchema)
    sent.body = await generated(
      bodySchema,
      seed * 37,
      operation.requestBody?.content['application/json'].example,
    );
  return sent;
}

/** The operation's documented example request. */
function exampleOf(operation: Operation): Sent {
  const sent: Sent = { path: {}, query: {}, headers: {}, body: undefined };
  for (const parameter of operation.parameters ?? []) {
    if (parameter.example === undefined) continue;
    const where = parameter.in === 'path' ? sent.path : parameter.in === 'query' ? sent.query : sent.headers;
    (where as Record<string, unknown>)[parameter.name] = parameter.example;
  }
  sent.body = operation.requestBody?.content['application/json'].example;
  return sent;
}

async function send(route: RouteDefinition, key: string, request: Sent) {
  let url = route.path;
  for (const [name, value] of Object.entries(request.path))
    url = url.replace(`{${name}}`, encodeURIComponent(value));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  if (query.size > 0) url += `?${query}`;
  const response = await call<{ error?: ApiErrorBody }>(url, {
    key,
    method: route.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { url, response };
}

const resolve = (schema: Schema | undefined): Schema | undefined => {
  const ref = schema?.$ref;
  return typeof ref === 'string'
    ? resolve(document.components.schemas[ref.split('/').pop() as string])
    : schema;
};

/** A string the pattern refuses. */
function breakingString(pattern: string): string | undefined {
  const regex = new RegExp(pattern, 'u');
  return ['!', 'a b', '', '0', 'é', '~'.repeat(300)].find((candidate) => !regex.test(candidate));
}

interface Breach {
  /** What the contract says, broken here. */
  rule: string;
  /** The param the service must name (or an object holding it). */
  param: string;
  request: Sent;
}

type Location = 'path' | 'query' | 'header' | 'body';

/**
 * Every way to break one stated constraint of `schema` at `value` (a valid value, from the
 * example), each as the whole request with only that part changed.
 */
function breaches(
  schema: Schema | undefined,
  value: unknown,
  param: string,
  replace: (value: unknown) => Sent,
  location: Location,
): Breach[] {
  const node = resolve(schema);
  if (!node || node.anyOf || node.oneOf || node.allOf) return [];
  const found: Breach[] = [];
  const add = (rule: string, broken: unknown, at = param) =>
    found.push({ rule, param: at, request: replace(broken) });
  const text = (n: number) => (location === 'body' ? n : String(n));
  if (typeof node.pattern === 'string' && typeof value === 'string') {
    const broken = breakingString(node.pattern);
    if (broken !== undefined && !(location !== 'query' && location !== 'body' && broken === ''))
      add(`pattern ${node.pattern}`, broken);
  }
  // An empty path segment is another URL (a 404), not this operation's parameter.
  if (
    typeof node.minLength === 'number' &&
    (node.minLength > 1 || (node.minLength > 0 && location !== 'path')) &&
    typeof value === 'string'
  )
    add(`minLength ${node.minLength}`, 'a'.repeat(node.minLength - 1));
  if (typeof node.maxLength === 'number' && typeof value === 'string')
    add(`maxLength ${node.maxLength}`, '1'.repeat(node.maxLength + 1));
  if (Array.isArray(node.enum) && node.enum.every((e) => typeof e === 'string')) add('enum', 'zz-not-listed');
  if (typeof node.minimum === 'number') add(`minimum ${node.minimum}`, text(node.minimum - 1));
  if (typeof node.maximum === 'number') add(`maximum ${node.maximum}`, text(node.maximum + 1));
  if (node.type === 'integer' && location === 'body') add('integer', 1.5);
  if (Array.isArray(value)) {
    const items = resolve(node.items as Schema | undefined);
    if (typeof node.minItems === 'number' && node.minItems > 0) add(`minItems ${node.minItems}`, []);
    if (typeof node.maxItems === 'number' && value.length > 0)
      add(`maxItems ${node.maxItems}`, Array(node.maxItems + 1).fill(value[0]));
    if (node.uniqueItems === true && value.length > 0) add('uniqueItems', [value[0], ...value]);
    value.forEach((item, i) => {
      found.push(
        ...breaches(
          items,
          item,
          `${param.replace(/\[\]$/, '')}[${i}]`,
          (broken) => replace(value.map((v, j) => (j === i ? broken : v))),
          location,
        ),
      );
    });
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && node.properties) {
    const object = value as Record<string, unknown>;
    const properties = node.properties as Record<string, Schema>;
    const at = (name: string) => (param ? `${param}.${name}` : name);
    for (const name of (node.required as string[] | undefined) ?? []) {
      if (!(name in object)) continue;
      const { [name]: _, ...rest } = object;
      add(`required ${name}`, rest, at(name));
    }
    for (const [name, property] of Object.entries(properties)) {
      if (object[name] === undefined) continue;
      found.push(
        ...breaches(
          property,
          object[name],
          at(name),
          (broken) => replace({ ...object, [name]: broken }),
          location,
        ),
      );
    }
  }
  return found;
}

/** One top-level part of the example request: a parameter or the body, and how to change it. */
interface Part {
  schema: Schema;
  value: unknown;
  name: string;
  location: Location;
  required: boolean;
  replace: (value: unknown) => Sent;
  /** The example without this part. */
  without: () => Sent;
}

/** The parameters the example gives, and its body. */
function partsOf(operation: Operation): Part[] {
  const example = exampleOf(operation);
  const parts: Part[] = [];
  for (const parameter of operation.parameters ?? []) {
    const where = parameter.in === 'path' ? 'path' : parameter.in === 'query' ? 'query' : 'headers';
    const given = example[where] as Record<string, unknown>;
    if (given[parameter.name] === undefined) continue;
    parts.push({
      schema: parameter.schema,
      value: given[parameter.name],
      name: parameter.name,
      location: parameter.in,
      required: parameter.required === true,
      replace: (value) => ({ ...example, [where]: { ...given, [parameter.name]: value } }),
      without: () => {
        const { [parameter.name]: _, ...rest } = given;
        return { ...example, [where]: rest };
      },
    });
  }
  const body = operation.requestBody?.content['application/json'];
  if (body && example.body !== undefined)
    parts.push({
      schema: body.schema,
      value: example.body,
      name: '',
      location: 'body',
      required: operation.requestBody?.required === true,
      replace: (value) => ({ ...example, body: value }),
      without: () => ({ ...example, body: undefined }),
    });
  return parts;
}

/** Every constraint of the operation's parameters and body, broken one at a time from its example. */
function breachesOf(operation: Operation): Breach[] {
  return partsOf(operation).flatMap((part) => [
    ...(part.required && part.location !== 'path' && part.location !== 'body'
      ? [{ rule: `required ${part.name}`, param: part.name, request: part.without() }]
      : []),
    ...breaches(part.schema, part.value, part.name, part.replace, part.location),
  ]);
}

/** Schema-valid strings at the edges of what a string schema allows, for `edges`. */
function edgeStrings(node: Schema, location: Location): string[] {
  const min = typeof node.minLength === 'number' ? node.minLength : 0;
  const max = typeof node.maxLength === 'number' ? node.maxLength : Number.POSITIVE_INFINITY;
  let candidates: string[];
  if (typeof node.pattern === 'string') {
    const regex = new RegExp(node.pattern, 'u');
    candidates = ['0', '00', 'a', 'A', 'a b', 'a!', ' '].filter((c) => regex.test(c)).slice(0, 2);
  } else if (node.format === 'uri') candidates = ['http://example.com/hook', 'ftp://example.com/'];
  else if (node.format !== undefined) candidates = [];
  else candidates = ['', 'a', 'a b!'];
  return candidates.filter(
    (c) =>
      c.length >= min && c.length <= max && !(c === '' && (location === 'path' || location === 'header')),
  );
}

/**
 * Schema-valid requests at the edges of each field, one field changed from the valid example at a
 * time: the shortest strings the schema allows, the smallest and largest numbers, repeated items
 * where `uniqueItems` is not said, no items where `minItems` is not, and each optional property
 * left out. A generator may never draw these; an integrator's code will send them.
 */
function edges(
  schema: Schema | undefined,
  value: unknown,
  replace: (value: unknown) => Sent,
  location: Location,
): Sent[] {
  const node = resolve(schema);
  if (!node || node.anyOf || node.oneOf || node.allOf || Array.isArray(node.enum) || 'const' in node)
    return [];
  const found: Sent[] = [];
  if (typeof value === 'string' && (node.type === 'string' || node.type === undefined))
    for (const edge of edgeStrings(node, location)) found.push(replace(edge));
  if (typeof value === 'number' || node.type === 'integer') {
    const low = typeof node.minimum === 'number' ? node.minimum : -1;
    const edgeNumbers = [low, ...(typeof node.minimum === 'number' ? [] : [0])];
    if (typeof node.maximum === 'number') edgeNumbers.push(node.maximum);
    for (const n of edgeNumbers) found.push(replace(location === 'body' ? n : String(n)));
  }
  if (Array.isArray(value)) {
    if (node.uniqueItems !== true && value.length > 0 && ((node.maxItems as number | undefined) ?? 2) >= 2)
      found.push(replace([value[0], value[0]]));
    if (!(typeof node.minItems === 'number' && node.minItems > 0) && location === 'body')
      found.push(replace([]));
    value.forEach((item, i) => {
      found.push(
        ...edges(
          node.items as Schema,
          item,
          (edge) => replace(value.map((v, j) => (j === i ? edge : v))),
          location,
        ),
      );
    });
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && node.properties) {
    const object = value as Record<string, unknown>;
    const required = new Set((node.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries(node.properties as Record<string, Schema>)) {
      if (object[name] === undefined) continue;
      if (!required.has(name)) {
        const { [name]: _, ...rest } = object;
        found.push(replace(rest));
      }
      found.push(...edges(property, object[name], (edge) => replace({ ...object, [name]: edge }), location));
    }
  }
  return found;
}

/** The edge requests of every parameter and of the body (see `edges`). */
function edgesOf(operation: Operation): Sent[] {
  return partsOf(operation).flatMap((part) => edges(part.schema, part.value, part.replace, part.location));
}

/** `param` names the field broken, or an object or array holding it (never nothing). */
function namesField(param: string | null, broken: string): boolean {
  if (param === null || param === '') return false;
  const expected = broken.replace(/\[\]$/, '');
  return (
    param === broken ||
    param === expected ||
    expected.startsWith(`${param}.`) ||
    expected.startsWith(`${param}[`) ||
    param.startsWith(`${expected}[`)
  );
}

/** Requests in flight at once, well under a key's 20 (spec 7.8). */
const IN_FLIGHT = 8;

async function inParallel<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return results;
}

/** Each request once. */
const distinct = (requests: readonly Sent[]) => [
  ...new Map(requests.map((request) => [JSON.stringify(request), request])).values(),
];

const operations = routeList
  .filter((route) => !route.internal)
  .map((route) => ({
    route,
    operation: document.paths[route.path]?.[route.method.toLowerCase()] as Operation,
  }));

describe('the contract is exact for requests', () => {
  it.each(operations.map((o) => [o.route.name, o] as const))(
    '%s: schema-valid requests are never refused for their form; schema-invalid ones are, with the documented code and param',
    async (_, { route, operation }) => {
      const key = (await createKey('test')).secret;
      const documented = errorCodesByStatus(route);
      const valid = distinct([
        ...(await Promise.all(Array.from({ length: SAMPLES }, (_, n) => sample(operation, SEED + n)))),
        ...edgesOf(operation),
      ]);
      const invalid = breachesOf(operation);
      const answers = await inParallel([...valid, ...invalid.map((breach) => breach.request)], (request) =>
        send(route, key, request),
      );
      const validAnswers = answers.slice(0, valid.length);
      const invalidAnswers = answers.slice(valid.length);

      const refused = validAnswers.flatMap(({ url, response }, n) => {
        const error = response.body?.error;
        if (!error || !refusedForForm(response)) return [];
        if (SEMANTIC.some((semantic) => semantic.allows(route.name, error, valid[n] as Sent))) return [];
        return [{ url, body: valid[n]?.body, headers: valid[n]?.headers, status: response.status, error }];
      });
      const accepted = invalidAnswers.flatMap(({ response }, n) => {
        const breach = invalid[n] as Breach;
        const error = response.body?.error;
        const codes = documented.get(response.status) ?? [];
        const right =
          response.status >= 400 &&
          response.status < 500 &&
          error !== undefined &&
          (codes as string[]).includes(error.code) &&
          namesField(error.param, breach.param);
        return right ? [] : [{ rule: breach.rule, param: breach.param, status: response.status, error }];
      });
      expect({ refused, accepted }).toEqual({ refused: [], accepted: [] });
    },
    60_000,
  );

  it.each(operations.filter((o) => o.operation.requestBody).map((o) => [o.route.name, o] as const))(
    '%s: the request without a body is refused exactly when the body is required',
    async (_, { route, operation }) => {
      const key = (await createKey('test')).secret;
      const { response } = await send(route, key, { ...exampleOf(operation), body: undefined });
      expect({
        required: operation.requestBody?.required === true,
        refused: refusedForForm(response),
      }).toEqual({
        required: operation.requestBody?.required === true,
        refused: operation.requestBody?.required === true,
      });
    },
  );
});
