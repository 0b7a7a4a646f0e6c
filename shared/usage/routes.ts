/** The fee ledger. */
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath } from '../kernel/http/schemas.ts';
import { EVERY_ROLE } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import { usageQuery, usageSchema } from './schemas.ts';

export const getUsage = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetUsage',
    consoleRoles: EVERY_ROLE,
    method: 'GET',
    path: '/v1/usage',
    handler: 'usage/get',
    summary: 'Fees by product and fee code for a date range, with the entries',
    request: { path: noPath, query: usageQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : usageSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['ledger'],
    errors: [],
  }),
);

/** The area's routes, by name. */
export const usageRoutes = {
  getUsage,
} as const;
