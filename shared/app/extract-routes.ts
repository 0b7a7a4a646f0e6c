/** Held extracts of any kind: read one, list them (the schemas join every kind). */
import * as z from 'zod/mini';
import {
  companyExtractSchema,
  companyExtractSummarySchema,
  extractListQuery,
  extractPath,
} from '../companies/schemas.ts';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { listEnvelope, named, noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import { personExtractSchema, personExtractSummarySchema } from '../people/schemas.ts';
import { registerExtractSchema, registerExtractSummarySchema } from '../registers/schemas.ts';
import { weeklySummarySchema, weeklySummarySummarySchema } from '../weekly-summaries/schemas.ts';

/** GET /v1/extracts/{id}: an extract of any kind. */
const anyExtractSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Extract',
    z.discriminatedUnion('kind', [
      companyExtractSchema,
      personExtractSchema,
      weeklySummarySchema,
      registerExtractSchema,
    ]),
    'A held extract of any kind, told apart by `kind`.',
  ),
);
const extractListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope(
    'ExtractList',
    named(
      'ExtractSummary',
      z.discriminatedUnion('kind', [
        companyExtractSummarySchema,
        personExtractSummarySchema,
        weeklySummarySummarySchema,
        registerExtractSummarySchema,
      ]),
      'A held extract as lists show it (without its sections), told apart by `kind`.',
    ),
  ),
);

export const getExtract = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetExtract',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/extracts/{id}',
    handler: 'extracts/get',
    summary: 'Read a held extract of any kind (free)',
    request: { path: extractPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : anyExtractSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['heldExtracts'],
    errors: ['extract_not_found', 'extract_expired', 'extract_owner_mismatch'],
  }),
);

export const listExtracts = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListExtracts',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/extracts',
    handler: 'extracts/list',
    summary: 'List held extracts, newest first',
    request: { path: noPath, query: extractListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : extractListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['heldExtracts'],
    errors: [],
  }),
);

/** The area's routes, by name. */
export const extractRoutes = {
  getExtract,
  listExtracts,
} as const;
