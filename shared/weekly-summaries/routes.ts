/** Weekly summaries: bought, read a page at a time, listed. */
import './errors.ts';
import { extractPath } from '../companies/shared-schemas.ts';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import {
  purchaseWeeklySummaryBody,
  weeklySummaryListQuery,
  weeklySummaryListSchema,
  weeklySummaryReadQuery,
  weeklySummarySchema,
} from './schemas.ts';

export const purchaseWeeklySummary = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'PurchaseWeeklySummary',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/weekly-summaries',
    handler: 'weekly-summaries/purchase',
    summary:
      'Buy the weekly summary of one type and week (a held one is returned without a fee unless refresh)',
    request: { path: noPath, query: noQuery, body: purchaseWeeklySummaryBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : weeklySummarySchema,
    status: 201,
    billable: true,
    product: 'weekly_summary',
    idempotent: true,
    ports: [
      'heldExtracts',
      'extractPurchases',
      'purchaseRecords',
      'idempotency',
      'registryFor',
      'spendGuard',
    ],
    errors: ['summary_type_invalid', 'week_start_invalid', 'summary_unavailable'],
  }),
);

export const getWeeklySummary = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetWeeklySummary',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/weekly-summaries/{id}',
    handler: 'weekly-summaries/get',
    summary: 'Read a held weekly summary, a page of items at a time, optionally for one postcode (free)',
    request: { path: extractPath, query: weeklySummaryReadQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : weeklySummarySchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['heldExtracts'],
    errors: ['extract_not_found', 'extract_expired', 'extract_owner_mismatch'],
  }),
);

export const listWeeklySummaries = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListWeeklySummaries',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/weekly-summaries',
    handler: 'weekly-summaries/list',
    summary: 'List held weekly summaries, newest first, by type and week',
    request: { path: noPath, query: weeklySummaryListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : weeklySummaryListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['heldExtracts'],
    errors: ['summary_type_invalid'],
  }),
);

/** The area's routes, by name. */
export const weeklySummaryRoutes = {
  purchaseWeeklySummary,
  getWeeklySummary,
  listWeeklySummaries,
} as const;
