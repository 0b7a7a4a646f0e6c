/** Held extracts of any kind: read one, list them (the schemas join every kind). */
import { extractListQuery, extractPath } from '../companies/schemas.ts';
import { defineRoute } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { anyExtractSchema, extractListSchema } from '../people/schemas.ts';

export const extractRoutes = {
  getExtract: defineRoute({
    name: 'GetExtract',
    method: 'GET',
    path: '/v1/extracts/{id}',
    handler: 'extracts/get',
    summary: 'Read a held extract of any kind (free)',
    request: { path: extractPath, query: noQuery },
    response: anyExtractSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['heldExtracts'],
    errors: ['extract_not_found', 'extract_expired', 'extract_owner_mismatch'],
  }),
  listExtracts: defineRoute({
    name: 'ListExtracts',
    method: 'GET',
    path: '/v1/extracts',
    handler: 'extracts/list',
    summary: 'List held extracts, newest first',
    request: { path: noPath, query: extractListQuery },
    response: extractListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['heldExtracts'],
    errors: [],
  }),
} as const;
