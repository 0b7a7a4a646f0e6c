/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas with `zod-openapi`
 * (zod 4's own JSON Schema output: request parameters and bodies in their input type, responses
 * in their output type). `npm run openapi` writes it to docs/openapi.json, which the service
 * serves at `GET /v1/openapi.json`; test/unit/openapi.test.ts fails when the two differ.
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import * as docsRoutes from '../../docs/routes.ts';
import {
  DEFAULT_RETRY_AFTER_SECONDS,
  type ErrorCode,
  type ErrorType,
} from '../../kernel/errors/catalogue.ts';
import { IDEMPOTENCY_KEY } from '../../kernel/http/idempotency-key.ts';
import type { RequestExample } from '../../kernel/http/request-example.ts';
import type { HttpMethod, RouteDefinition } from '../../kernel/http/route.ts';
import { named } from '../../kernel/http/schemas.ts';
import * as referenceRoutes from '../../reference/routes.ts';

import { spendCapAlertEventSchema } from '../../spend-caps/schemas.ts';
import { type ApiArea, apiAreas, routesOf } from '../areas.ts';
import { serviceErrors } from '../errors.ts';
import { ERRORS_OF_EVERY_ROUTE, errorCodesByStatus, REGISTRY_ERRORS, statusesOf } from './errors.ts';
import { requestExamples } from './examples.ts';

/** One success response per operation, recorded from the sandbox by `npm run openapi:examples`. */
export const responseExamples = JSON.parse(
  readFileSync(fileURLToPath(new URL('./response-examples.json', import.meta.url)), 'utf8'),
) as Readonly<Record<string, unknown>>;

/** One tag per area (shared/app/areas.ts), in the reference's order. */
export const TAGS: readonly { name: string; description: string; routes: readonly RouteDefinition[] }[] = (
  apiAreas as readonly ApiArea[]
).map((area) => ({ name: area.tag, description: area.description, routes: routesOf(area) }));

const tagOf = (route: RouteDefinition): string => {
  const tag = TAGS.find((t) => t.routes.some((r) => r.name === route.name));
  if (!tag) throw new Error(`route ${route.name} is in no tag of shared/app/openapi/document.ts`);
  return tag.name;
};

/** Headers every response carries (spec 7.1 and 8). */
const RESPONSE_HEADERS = {
  'X-Request-Id': {
    required: true,
    description: 'The request id; equals `error.requestId` and `meta.requestId`.',
    schema: { type: 'string', pattern: '^req_.+' },
  },
  'RateLimit-Limit': {
    required: true,
    description: 'Requests allowed per sliding minute for the key (600).',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'RateLimit-Remaining': {
    required: true,
    description: 'Requests left in the current window.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'RateLimit-Reset': {
    required: true,
    description: 'Seconds until the window resets.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'Retry-After': {
    description:
      'Seconds to wait before retrying, on every answer spec 7.2 retries: 429 (the rate limits, and `idempotency_key_in_use` until the request in progress has finished or can be taken over), 503 (the registry’s own delay, 300 in a maintenance window, else a computed wait), and 500 and 502 (retried once).',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  ETag: {
    description: 'Version of the document; send it back in `If-None-Match`.',
    schema: { type: 'string' },
  },
  'Cache-Control': { description: 'How long the response may be cached.', schema: { type: 'string' } },
  'Last-Modified': {
    description:
      'When the registry copy served was read by the daily reference refresh (HTTP date). Absent while the bundled copy is served, before the first refresh.',
    schema: { type: 'string' },
  },
} as const;

type HeaderName = keyof typeof RESPONSE_HEADERS;
const headerRefs = (names: readonly HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const EVERY_RESPONSE: readonly HeaderName[] = [
  'X-Request-Id',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];

/** `error.details` (spec 7.1), and the fields the service adds for its own limits. */
const errorDetailsSchema = z
  .strictObject({
    counts: z.optional(named('MatchCounts', z.object({ returned: z.int(), found: z.int() }))),
    purchase: z.optional(
      named(
        'PurchaseSuggestion',
        z.object({
          method: z.literal('POST'),
          path: z.string(),
          body: named('PurchaseSuggestionBody', z.record(z.string(), z.unknown())),
          product: z.string(),
        }),
        'The purchase that would give the data: send `body` to `path` with `method`.',
      ),
    ),
    personId: z.optional(z.string()),
    // The number a document error is about (document lookups).
    documentNumber: z.optional(z.string()),
    pageCount: z.optional(z.int()),
    method: z.optional(z.string()),
    limit: z.optional(z.int()),
    resetsAt: z.optional(z.string()),
    // The monitor that already watches the company or person (monitor_already_exists).
    monitorId: z.optional(z.string()),
    // spend_cap_exceeded: the cap passed, the month's spend and the purchase's (highest) fee, in cents.
    cap: z.optional(
      named(
        'SpendCapPassed',
        z.object({
          scope: z.enum(['account', 'key']),
          keyId: z.nullable(z.string()),
          amountCents: z.int(),
        }),
        "The monthly spend cap a purchase would pass: the account's or a key's, in cents.",
      ),
    ),
    month: z.optional(z.string()),
    currency: z.optional(z.string()),
    spentCents: z.optional(z.int()),
    purchaseCents: z.optional(z.int()),
    maxPossible: z.optional(z.boolean()),
  })
  .register(z.globalRegistry, {
    id: 'ErrorDetails',
    description: 'Structured data of some errors (spec 7.1).',
  });

const errorTypes = [...new Set(Object.values(serviceErrors).map((entry) => entry.type))] as [
  ErrorType,
  ...ErrorType[],
];

/** The error envelope of spec 7.1, once: every error response refers to it. */
const errorSchema = named(
  'Error',
  z.object({
    error: named(
      'ErrorBody',
      z.object({
        type: z.enum(errorTypes),
        code: z.string(),
        message: z.string(),
        param: z.nullable(z.string()),
        registryCode: z.nullable(z.string()),
        requestId: z.string().check(z.startsWith('req_')),
        details: z.optional(errorDetailsSchema),
        docUrl: z.string().check(z.regex(/\/errors#[a-z_]+$/)),
      }),
    ),
  }),
  'Every failure: `error.code` says what went wrong (branch on it), `error.param` where; `docUrl` explains the code.',
);

/** The envelope for the given codes: `Error`, with `type` and `code` narrowed to exactly those. */
const errorEnvelopeSchema = (codes: readonly ErrorCode[]) => {
  const types = [...new Set(codes.map((code) => serviceErrors[code].type))] as [ErrorType, ...ErrorType[]];
  return z.intersection(
    errorSchema,
    z.looseObject({
      error: z.looseObject({ type: z.enum(types), code: z.enum(codes as [ErrorCode, ...ErrorCode[]]) }),
    }),
  );
};

/** Each code with its cause; the fix is in the error reference (`docUrl`, `/docs/errors#<code>`). */
const describeCodes = (codes: readonly ErrorCode[]) =>
  codes.map((code) => `- \`${code}\`: ${serviceErrors[code].cause}`).join('\n');

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  402: 'Extract required',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  422: 'Unprocessable',
  429: 'Too many requests',
  431: 'Request header fields too large',
  500: 'Internal error',
  502: 'Registry application error',
  503: 'Unavailable',
};

/** The statuses spec 7.2 retries, whose answers carry Retry-After (shared/kernel/errors/catalogue.ts). */
const RETRIED_STATUSES = new Set(Object.keys(DEFAULT_RETRY_AFTER_SECONDS).map(Number));

const errorResponse = (status: number, codes: readonly ErrorCode[]) => ({
  description: `${STATUS_TEXT[status] ?? 'Error'}:\n\n${describeCodes(codes)}`,
  headers: headerRefs([
    ...EVERY_RESPONSE,
    ...(RETRIED_STATUSES.has(status) ? (['Retry-After'] as const) : []),
  ]),
  content: { 'application/json': { schema: errorEnvelopeSchema(codes) } },
});

const pascal = (code: string) =>
  code
    .split('_')
    .map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}`)
    .join('');

/** A status's name, for the shared response of codes that every route answers with. */
const STATUS_NAME: Record<number, string> = { 400: 'BadRequest' };

/**
 * Name of the shared response for a status and its codes, derived from the codes alone so that it
 * is stable across regenerations and two operations with the same set share one response: a single
 * code in PascalCase (`Unauthorized`, `CompanyNotFound`; `ValidationError400` at a status other than
 * its own); else the status and the codes other than those every route answers with at that status
 * (`Status404CompanyNotFoundOrAbnNotFound`), the registry's universal errors in one word when all are
 * present (`Status403RegistryOrExtractOwnerMismatch`); `BadRequest` when no other code is left.
 */
function sharedResponseName(status: number, codes: readonly ErrorCode[]): string {
  const [only] = codes;
  if (codes.length === 1 && only)
    return `${pascal(only)}${serviceErrors[only].status === status ? '' : status}`;
  let rest = codes.filter((code) => !ERRORS_OF_EVERY_ROUTE.includes(code));
  const registry = REGISTRY_ERRORS.filter((code) => statusesOf(code).includes(status));
  const words: string[] = [];
  if (registry.length > 1 && registry.every((code) => rest.includes(code))) {
    words.push('Registry');
    rest = rest.filter((code) => !registry.includes(code));
  }
  const parts = [...words, ...rest.map(pascal)];
  if (parts.length === 0) return STATUS_NAME[status] ?? `Status${status}`;
  return `Status${status}${parts.join('Or')}`;
}

/**
 * The longest name a shared response keeps from its codes. A generator names the parts of the
 * response after it (orval: `…ResponseAllOfErrorType`, 22 more characters), so a longer one is
 * named after the first operation that answers with it and its status (`SearchCompaniesBadRequest`).
 */
const MAX_RESPONSE_NAME = 38;
const STATUS_WORD: Record<number, string> = {
  400: 'BadRequest',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  422: 'Unprocessable',
  429: 'TooManyRequests',
  502: 'RegistryError',
  503: 'Unavailable',
};

/** The shared error responses (`components.responses`), filled by `errorResponses`. */
type SharedResponses = Map<string, ReturnType<typeof errorResponse>>;

/**
 * A route's error responses, each a reference to the one shared response for its status and
 * codes: the codes, their causes and the narrowed envelope are written once in the document
 * however many operations answer with them.
 */
function errorResponses(route: RouteDefinition, shared: SharedResponses): ZodOpenApiResponsesObject {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of errorCodesByStatus(route)) {
    const response = errorResponse(status, codes);
    const text = JSON.stringify(response);
    const same = [...shared].find(([, other]) => JSON.stringify(other) === text)?.[0];
    const descriptive = sharedResponseName(status, codes);
    const name =
      same ??
      (descriptive.length <= MAX_RESPONSE_NAME
        ? descriptive
        : `${route.name}${STATUS_WORD[status] ?? status}`);
    const existing = shared.get(name);
    if (existing && JSON.stringify(existing) !== JSON.stringify(response))
      throw new Error(`two sets of error codes at ${status} would share the response name ${name}`);
    shared.set(name, response);
    responses[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return responses as ZodOpenApiResponsesObject;
}

/** Routes serving the reference data the daily refresh stores: they say how fresh it is. */
const REFRESHED_ROUTES: ReadonlySet<string> = new Set([
  referenceRoutes.listCodeTables.name,
  referenceRoutes.getCodeTable.name,
  referenceRoutes.listForms.name,
]);

/** `contentMediaType` registered on a response schema that is not JSON (the PDF download). */
const mediaTypeOf = (schema: z.core.$ZodType): string =>
  (z.globalRegistry.get(schema)?.contentMediaType as string | undefined) ?? 'application/json';

function successResponse(route: RouteDefinition, example: RequestExample): ZodOpenApiResponsesObject {
  const mediaType = mediaTypeOf(route.response);
  const schema =
    mediaType === 'application/json' ? route.response : { type: 'string', contentMediaType: mediaType };
  const contract = route.name === docsRoutes.getOpenApiDocument.name;
  const refreshed = REFRESHED_ROUTES.has(route.name);
  const description = [
    route.status === 202 ? 'Accepted: fulfilled asynchronously.' : route.status === 201 ? 'Created.' : 'OK.',
    route.billable
      ? 'With a live key, `meta.billable` is true when this call incurred a registry fee; test keys are never billed.'
      : '',
    `Sandbox example: ${example.summary}${responseExamples[route.name] ? ' (the answer recorded from the sandbox, long arrays abridged)' : ''}.`,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    [String(route.status)]: {
      description,
      headers: headerRefs([
        ...EVERY_RESPONSE,
        ...(contract ? (['ETag', 'Cache-Control'] as const) : []),
        ...(refreshed ? (['Last-Modified'] as const) : []),
      ]),
      content: {
        [mediaType]: {
          schema,
          ...(responseExamples[route.name] ? { example: responseExamples[route.name] } : {}),
        },
        ...(route.csv
          ? {
              'text/csv': {
                schema: { type: 'string' as const, description: route.csv },
              },
            }
          : {}),
      },
    },
    ...(route.accepted
      ? {
          '202': {
            description: route.accepted,
            headers: headerRefs([...EVERY_RESPONSE]),
            content: { 'application/json': { schema: route.response } },
          },
        }
      : {}),
    ...(contract
      ? {
          '304': {
            description: 'Not modified: the `If-None-Match` ETag is current.',
            headers: headerRefs([...EVERY_RESPONSE, 'ETag', 'Cache-Control']),
          },
        }
      : {}),
  };
}

/** The purchase and simulation request headers' schemas, named once and referred to by each operation. */
const idempotencyKeyHeader = named(
  'IdempotencyKey',
  z.string().check(z.regex(IDEMPOTENCY_KEY)),
  '1 to 255 printable ASCII characters without spaces (a UUID will do). Makes the purchase exactly once: a retry with the same key and body within 24 hours returns the first result and is never billed twice; the same key with another body is 409 `idempotency_conflict`; the same key and body while the first request is still running waits for it (up to 14 s) and answers its result, else 429 `idempotency_key_in_use` with `Retry-After` (retry then, with the same key). A network error or a 500, 502, 503 or 429 is retried with the same key.',
);
const clientReferenceHeader = named(
  'ClientReference',
  z.string().check(z.maxLength(30)),
  'Your reference (up to 30 characters), stored on the purchase and its fee entry.',
);
const sandboxSimulateHeader = named(
  'SandboxSimulation',
  z.enum(['order_failed']),
  'Test keys only: `order_failed` makes the order (or search) fail, as a registry failure would.',
);

/** The request headers a route honours, as a zod object (parameters in the document). */
function headerParams(route: RouteDefinition): z.core.$ZodType | undefined {
  const shape: Record<string, z.core.$ZodType> = {};
  if (route.idempotent) {
    shape['Idempotency-Key'] = z.optional(idempotencyKeyHeader);
    shape['X-Client-Reference'] = z.optional(clientReferenceHeader);
  }
  if (route.sandboxSimulate) shape['X-Sandbox-Simulate'] = z.optional(sandboxSimulateHeader);
  return Object.keys(shape).length > 0 ? z.object(shape) : undefined;
}

/** `curl` for the example, with a sandbox key (a live key for the products the sandbox does not serve). */
function curlSample(route: RouteDefinition, example: RequestExample): string {
  let path = route.path;
  for (const [name, value] of Object.entries(example.path ?? {})) path = path.replace(`{${name}}`, value);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(example.query ?? {})) {
    for (const item of typeof value === 'string' ? [value] : value) query.append(name, item);
  }
  const url = `https://api.example.com${path}${query.size > 0 ? `?${query}` : ''}`;
  const lines = [`curl${route.method === 'GET' ? '' : ` -X ${route.method}`} '${url}'`];
  if (!route.public) lines.push(`-H 'Authorization: Bearer ${example.live ? 'sk_live_…' : 'sk_test_…'}'`);
  for (const [name, value] of Object.entries(example.headers ?? {})) lines.push(`-H '${name}: ${value}'`);
  if (example.body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`, `-d '${JSON.stringify(example.body)}'`);
  }
  return lines.join(' \\\n  ');
}

type SchemaLike = { type?: unknown; $ref?: string };

/**
 * Gives each parameter of the document its example value, as its schema types it (the example's
 * `limit: '5'` is the integer 5 of the `Limit` schema).
 */
function addParameterExamples(
  operation: Record<string, unknown>,
  example: RequestExample,
  schemas: Record<string, unknown>,
) {
  const parameters = (operation.parameters ?? []) as {
    in: string;
    name: string;
    example?: unknown;
    schema?: SchemaLike;
  }[];
  for (const parameter of parameters) {
    const source =
      parameter.in === 'path' ? example.path : parameter.in === 'query' ? example.query : example.headers;
    const value = source?.[parameter.name];
    if (value === undefined) continue;
    const ref = parameter.schema?.$ref?.split('/').pop();
    const schema = (ref === undefined ? parameter.schema : schemas[ref]) as SchemaLike | undefined;
    parameter.example = schema?.type === 'integer' && typeof value === 'string' ? Number(value) : value;
  }
}

function operationOf(route: RouteDefinition, shared: SharedResponses): ZodOpenApiOperationObject {
  const example = requestExamples[route.name];
  if (!example)
    throw new Error(`route ${route.name} has no request example in shared/app/openapi/examples.ts`);
  const header = headerParams(route);
  const fee = route.billable
    ? `Billable: \`meta.product\` ${route.product === null ? 'depends on the request' : `\`${route.product}\``}; with a live key it incurs a registry fee.`
    : 'Free.';
  return {
    operationId: route.name,
    summary: route.summary,
    description: [fee, route.public ? 'No API key needed.' : ''].filter(Boolean).join(' '),
    tags: [tagOf(route)],
    ...(route.public ? { security: [] } : {}),
    requestParams: {
      path: route.request.path,
      query: route.request.query,
      ...(header ? { header } : {}),
    },
    ...(route.request.body
      ? {
          requestBody: {
            // The service reads a request without a body as `{}`: the body is required when that is refused.
            required: !z.safeParse(route.request.body, {}).success,
            content: {
              'application/json': {
                schema: route.request.body,
                ...(example.body !== undefined ? { example: example.body } : {}),
              },
            },
          },
        }
      : {}),
    responses: { ...successResponse(route, example), ...errorResponses(route, shared) },
    'x-codeSamples': [
      {
        lang: 'Shell',
        label: example.live ? 'curl (live key)' : 'curl (sandbox)',
        source: curlSample(route, example),
      },
    ],
  } as ZodOpenApiOperationObject;
}

export const OPENAPI_INFO = {
  title: 'Company Register Data Service',
  version: '1.0.0',
  description: [
    'A JSON API over the national company register: free lookups, purchased extracts (bought exactly once with `Idempotency-Key`, kept 12 months and read back for free) and asynchronous orders.',
    '',
    'Authenticate with `Authorization: Bearer <API_KEY>`. Test keys (`sk_test_…`) are served by the sandbox, whose companies and people are listed in docs/sandbox.md, and are never billed.',
    '',
    'Every response carries `X-Request-Id` and `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`. Each key may send 600 requests per sliding minute with 20 in flight: beyond them the answer is 429 `rate_limited` with `Retry-After`; honour it, back off exponentially (doubling up to 60 seconds, with jitter) and give up after a bounded number of attempts.',
    '',
    'Every failure is `{"error": {type, code, message, param, registryCode, requestId, details?, docUrl}}`; branch on `code`. Each operation lists the codes it can answer with, per status; the error reference (`/docs/errors`) explains every code with its cause and fix.',
  ].join('\n'),
  contact: { name: 'Company Register Data Service support', email: 'support@example.com' },
  // The API is a paid, proprietary service: no open licence, so an SPDX reference of its own.
  license: { name: 'Proprietary: use under the service agreement', identifier: 'LicenseRef-Proprietary' },
} as const;

/**
 * Where the API is. First a deployment, whose URL is the API stack's `ApiUrl` output (a template:
 * generated clients default to the first server, and this is the one a customer calls); then the
 * local stack (`npm start`), spelled `127.0.0.1` because lint refuses `localhost` as a server of a
 * published contract. The reference page at `/docs` replaces both with the URL it is served from.
 */
export const OPENAPI_SERVERS = [
  {
    url: 'https://{apiId}.execute-api.{region}.amazonaws.com/{stage}',
    description: "A deployment: the API stack's `ApiUrl` output",
    variables: {
      apiId: { default: 'your-api-id', description: 'The REST API id in `ApiUrl`' },
      region: { default: 'ap-southeast-2', description: 'The AWS region deployed to' },
      stage: { default: 'prod', description: 'The stage deployed (`-c stage=…`)' },
    },
  },
  { url: 'http://127.0.0.1:3000', description: 'The local stack (`npm start`)' },
];

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Says outright what a schema's branches already say, for readers stricter than JSON Schema:
 * Scalar (the `/docs` page) checks every schema against a model that wants a `type`, and logged a
 * "document validation error" for each component holding `{anyOf: [{$ref: Address}, {type:
 * null}]}` or `additionalProperties: {}`. A schema with `anyOf`, `oneOf` or `allOf` and no `type`
 * gets the types its branches have (the same values are valid), and `additionalProperties: {}`
 * becomes `true`, its equal.
 */
function statedTypes(document: JsonObject): void {
  const components = ((document.components as JsonObject | undefined)?.schemas ?? {}) as JsonObject;
  const typesOf = (schema: unknown, seen: Set<string>): string[] | undefined => {
    if (!isObject(schema)) return undefined;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop() as string;
      if (seen.has(name)) return undefined;
      return typesOf(components[name], new Set([...seen, name]));
    }
    if (typeof schema.type === 'string') return [schema.type];
    if (Array.isArray(schema.type)) return schema.type as string[];
    const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (branches) {
      const all = branches.map((branch) => typesOf(branch, seen));
      return all.every(Boolean) ? [...new Set(all.flat() as string[])] : undefined;
    }
    if (Array.isArray(schema.allOf)) return schema.allOf.map((part) => typesOf(part, seen)).find(Boolean);
    return undefined;
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    if (isObject(node.additionalProperties) && Object.keys(node.additionalProperties).length === 0)
      node.additionalProperties = true;
    if ((node.anyOf || node.oneOf || node.allOf) && node.type === undefined) {
      const types = typesOf(node, new Set());
      if (types && types.length > 0) node.type = types.length === 1 ? types[0] : types;
    }
    for (const [key, value] of Object.entries(node))
      if (key !== 'example' && key !== 'examples') visit(value);
  };
  visit(document);
}

/**
 * Lets the parts of an `allOf` be combined: zod writes `additionalProperties: false` on every
 * object of a response, and `allOf: [Company, WithMeta]` would then allow no object at all
 * (`meta` is not one of Company's properties, nor the company's fields one of WithMeta's). The
 * components an `allOf` refers to, and the variants of their unions, leave extra properties
 * unsaid instead (a generated type is the same: the listed properties, no index signature), and
 * the `allOf` itself says `unevaluatedProperties: false`: the answer is closed as a whole, as every
 * other response object is, so a field that is neither the resource's nor `meta` is a violation
 * (docs/decisions/0078-every-component-object-named.md).
 */
function openForComposition(document: JsonObject): void {
  const components = ((document.components as JsonObject | undefined)?.schemas ?? {}) as JsonObject;
  const open = (schema: unknown): void => {
    if (!isObject(schema)) return;
    if (typeof schema.$ref === 'string') {
      const target = components[schema.$ref.split('/').pop() as string];
      if (isObject(target) && target.additionalProperties === false) delete target.additionalProperties;
      open(target);
      return;
    }
    for (const branch of [...((schema.oneOf ?? []) as unknown[]), ...((schema.anyOf ?? []) as unknown[])])
      open(branch);
  };
  for (const schema of Object.values(components))
    if (isObject(schema) && Array.isArray(schema.allOf)) {
      for (const part of schema.allOf) open(part);
      schema.unevaluatedProperties = false;
    }
}

/** The document for the given routes (by default the whole route table, less `internal` routes). */
export function buildOpenApiDocument(routes: readonly RouteDefinition[]) {
  const paths: Record<string, Partial<Record<Lowercase<HttpMethod>, ZodOpenApiOperationObject>>> = {};
  const shared: SharedResponses = new Map();
  for (const route of routes) {
    if (route.internal) continue;
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, ZodOpenApiOperationObject>)[route.method.toLowerCase()] =
      operationOf(route, shared);
  }
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      servers: OPENAPI_SERVERS,
      tags: TAGS.filter((tag) => tag.routes.some((r) => !r.internal)).map(({ name, description }) => ({
        name,
        description,
      })),
      security: [{ bearerAuth: [] }],
      paths,
      // Event bodies the contract types beyond `Event`'s open `data` (OpenAPI 3.1 webhooks).
      webhooks: {
        'spend_cap.threshold_reached': {
          post: {
            operationId: 'SpendCapThresholdReached',
            summary: 'A monthly spend cap reached 50, 80 or 100 %',
            requestBody: { content: { 'application/json': { schema: spendCapAlertEventSchema } } },
            responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
          },
        },
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key: `sk_test_…` (sandbox, never billed) or `sk_live_…`.',
          },
        },
        headers: RESPONSE_HEADERS,
        responses: Object.fromEntries(shared),
      },
    },
    {
      // A schema used in several places becomes one component, referenced.
      reused: 'inline',
      override: ({ jsonSchema }) => {
        // zod marks `startsWith` checks with a format of its own; their `pattern` says the same.
        if (jsonSchema.format === 'starts_with') delete jsonSchema.format;
      },
    },
  );
  for (const route of routes) {
    if (route.internal) continue;
    const operation = (document.paths?.[route.path] as Record<string, Record<string, unknown>> | undefined)?.[
      route.method.toLowerCase()
    ];
    if (operation)
      addParameterExamples(
        operation,
        requestExamples[route.name] as RequestExample,
        (document.components?.schemas ?? {}) as Record<string, unknown>,
      );
  }
  statedTypes(document as unknown as JsonObject);
  openForComposition(document as unknown as JsonObject);
  return document;
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
