/** Held extracts of any kind, and the fee ledger. */
import { noPath, noQuery } from '../../schemas/common.ts';
import { extractListQuery, extractPath, usageQuery, usageSchema } from '../../schemas/companies.ts';
import { anyExtractSchema, extractListSchema } from '../../schemas/people.ts';
import { defineRoute } from '../route.ts';

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
    tables: { main: 'read' },
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
    tables: { main: 'read' },
    errors: [],
  }),
  getUsage: defineRoute({
    name: 'GetUsage',
    method: 'GET',
    path: '/v1/usage',
    handler: 'usage/get',
    summary: 'Fees by product and fee code for a date range, with the entries',
    request: { path: noPath, query: usageQuery },
    response: usageSchema,
    status: 200,
    billable: false,
    product: null,
    tables: { main: 'read' },
    errors: [],
  }),
} as const;
