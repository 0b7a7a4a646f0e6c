/**
 * Monthly spend caps on the account and on each key (docs/usage.md, "Spend caps"). Every console
 * member may read them; setting or removing one is for admins (no `consoleRoles`: admins only), and
 * raising or removing one for admin members alone (caps.ts, `mayRaiseCaps`): a key may only lower.
 */
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { EVERY_ROLE } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import { accountCapBody, keyCapBody, keyCapPath, spendCapListSchema, spendCapResponse } from './schemas.ts';

const free = { status: 200, billable: false, product: null } as const;

export const listSpendCaps = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListSpendCaps',
    consoleRoles: EVERY_ROLE,
    method: 'GET',
    path: '/v1/spend-caps',
    handler: 'spend-caps/list',
    summary: "The account's spend cap and every key's, each with what it spent this month",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : spendCapListSchema,
    ...free,
    ports: ['spendCaps'],
    readOnly: true,
    errors: [],
  }),
);

export const getAccountSpendCap = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetAccountSpendCap',
    consoleRoles: EVERY_ROLE,
    method: 'GET',
    path: '/v1/spend-caps/account',
    handler: 'spend-caps/get-account',
    summary: "The account's monthly spend cap (`amountCents` null: none) and this month's spend",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : spendCapResponse,
    ...free,
    ports: ['spendCaps'],
    readOnly: true,
    errors: [],
  }),
);

export const setAccountSpendCap = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'SetAccountSpendCap',
    method: 'PUT',
    path: '/v1/spend-caps/account',
    handler: 'spend-caps/set-account',
    summary: "Set the account's monthly spend cap and who is mailed its alerts",
    request: { path: noPath, query: noQuery, body: accountCapBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : spendCapResponse,
    ...free,
    ports: ['spendCaps'],
    // An agent must not raise or remove the cap that holds it (docs/mcp.md, "Safety model").
    notForAgents: true,
    errors: ['spend_cap_raise_forbidden'],
  }),
);

export const deleteAccountSpendCap = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'DeleteAccountSpendCap',
    method: 'DELETE',
    path: '/v1/spend-caps/account',
    handler: 'spend-caps/delete-account',
    summary: "Remove the account's spend cap (its spend stays counted)",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : spendCapResponse,
    ...free,
    ports: ['spendCaps'],
    // An agent must not raise or remove the cap that holds it (docs/mcp.md, "Safety model").
    notForAgents: true,
    errors: ['spend_cap_raise_forbidden'],
  }),
);

export const getKeySpendCap = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetKeySpendCap',
    consoleRoles: EVERY_ROLE,
    method: 'GET',
    path: '/v1/spend-caps/keys/{keyId}',
    handler: 'spend-caps/get-key',
    summary: "A key's monthly spend cap (`amountCents` null: none) and this month's spend",
    request: { path: keyCapPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : spendCapResponse,
    ...free,
    ports: ['spendCaps'],
    readOnly: true,
    errors: ['api_key_not_found'],
  }),
);

export const setKeySpendCap = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'SetKeySpendCap',
    method: 'PUT',
    path: '/v1/spend-caps/keys/{keyId}',
    handler: 'spend-caps/set-key',
    summary: "Set a key's monthly spend cap",
    request: { path: keyCapPath, query: noQuery, body: keyCapBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : spendCapResponse,
    ...free,
    ports: ['spendCaps'],
    // An agent must not raise or remove the cap that holds it (docs/mcp.md, "Safety model").
    notForAgents: true,
    errors: ['api_key_not_found', 'spend_cap_raise_forbidden'],
  }),
);

export const deleteKeySpendCap = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'DeleteKeySpendCap',
    method: 'DELETE',
    path: '/v1/spend-caps/keys/{keyId}',
    handler: 'spend-caps/delete-key',
    summary: "Remove a key's spend cap (its spend stays counted)",
    request: { path: keyCapPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : spendCapResponse,
    ...free,
    ports: ['spendCaps'],
    // An agent must not raise or remove the cap that holds it (docs/mcp.md, "Safety model").
    notForAgents: true,
    errors: ['api_key_not_found', 'spend_cap_raise_forbidden'],
  }),
);

/** The area's routes, by name. */
export const spendCapRoutes = {
  listSpendCaps,
  getAccountSpendCap,
  setAccountSpendCap,
  deleteAccountSpendCap,
  getKeySpendCap,
  setKeySpendCap,
  deleteKeySpendCap,
} as const;
