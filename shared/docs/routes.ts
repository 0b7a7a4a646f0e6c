/**
 * The published contract and its documentation, served without an API key (`public`): the OpenAPI
 * document, the reference page that renders it, the page's script and the error reference. Only
 * the document is an operation of the contract; the pages are `internal`.
 */
import * as z from 'zod/mini';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';

/** The document `npm run openapi` writes, served as it is. */
export const OPENAPI_DOCUMENT = 'docs/openapi.json';

/** Path of Scalar's standalone bundle, copied next to the deployed function (`assets`). */
export const SCALAR_BUNDLE = 'node_modules/@scalar/api-reference/dist/browser/standalone.js';

/** The OpenAPI document: its top-level fields (the document itself is checked by its own tests). */
export const openApiDocumentSchema = /* @__PURE__ */ shakable(() =>
  z
    .looseObject({
      openapi: z.literal('3.1.0'),
      info: z.looseObject({ title: z.string(), version: z.string() }),
      paths: z.record(z.string(), z.unknown()),
    })
    .register(z.globalRegistry, { description: 'This OpenAPI 3.1 document.' }),
);

/** An HTML page or a script: not JSON, so the pipeline sends it as a file. */
const text = (mediaType: string) =>
  z.string().register(z.globalRegistry, { contentMediaType: mediaType, description: mediaType });

const page = { status: 200, billable: false, product: null, public: true, ports: [], errors: [] } as const;

export const getOpenApiDocument = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetOpenApiDocument',
    method: 'GET',
    path: '/v1/openapi.json',
    handler: 'docs/openapi',
    summary: 'This API contract as an OpenAPI 3.1 document (no API key; cacheable, with an ETag)',
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : openApiDocumentSchema,
    ...page,
    assets: [OPENAPI_DOCUMENT],
  }),
);

export const getApiReference = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetApiReference',
    method: 'GET',
    path: '/docs',
    handler: 'docs/reference',
    summary: 'The API reference page, rendered from /v1/openapi.json',
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/html'),
    ...page,
    internal: true,
    assets: [OPENAPI_DOCUMENT],
  }),
);

export const getApiReferenceScript = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetApiReferenceScript',
    method: 'GET',
    path: '/docs/scalar.js',
    handler: 'docs/scalar',
    summary: "The reference page's script: Scalar's standalone bundle, served by the service itself",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/javascript'),
    ...page,
    internal: true,
    assets: [SCALAR_BUNDLE],
  }),
);

export const getErrorReference = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetErrorReference',
    method: 'GET',
    path: '/docs/errors',
    handler: 'docs/errors',
    summary: 'The error reference: one entry per error code, with its cause and fix',
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/html'),
    ...page,
    internal: true,
  }),
);

/** The area's routes, by name. */
export const docsRoutes = {
  getOpenApiDocument,
  getApiReference,
  getApiReferenceScript,
  getErrorReference,
} as const;
