/** The registers: the served registers (static), browse by name key, one entry, and its extract. */
import './errors.ts';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import {
  browseQuery,
  purchaseRegisterExtractBody,
  registerEntryListSchema,
  registerEntryPath,
  registerEntryResponseSchema,
  registerExtractSchema,
  registerListSchema,
  registerPath,
} from './schemas.ts';

export const listRegisters = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListRegisters',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/registers',
    handler: 'registers/list',
    summary:
      'List the served registers with their family, identifier field and extract fee code (free, static)',
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : registerListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: [],
    errors: [],
  }),
);

export const browseRegister = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'BrowseRegister',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/registers/{register}/entries',
    handler: 'registers/browse',
    summary: 'Browse a register by the start of a name, in the register’s alphabetical order (free)',
    request: { path: registerPath, query: browseQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : registerEntryListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: ['register_invalid', 'browse_key_too_short', 'no_matches'],
  }),
);

export const getRegisterEntry = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetRegisterEntry',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/registers/{register}/entries/{number}',
    handler: 'registers/entry',
    summary: 'Read one register entry by its number (free)',
    request: { path: registerEntryPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : registerEntryResponseSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: ['register_invalid', 'no_matches'],
  }),
);

export const purchaseRegisterExtract = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'PurchaseRegisterExtract',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/registers/{register}/entries/{number}/extracts',
    handler: 'registers/purchase-extract',
    summary: 'Buy the extract of one register entry (current, or historical with history true; same fee)',
    request: { path: registerEntryPath, query: noQuery, body: purchaseRegisterExtractBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : registerExtractSchema,
    status: 201,
    billable: true,
    product: 'register_extract',
    idempotent: true,
    ports: [
      'heldExtracts',
      'extractPurchases',
      'purchaseRecords',
      'idempotency',
      'registryFor',
      'spendGuard',
    ],
    errors: ['register_invalid', 'no_matches', 'extract_type_invalid'],
  }),
);

/** The area's routes, by name. */
export const registerRoutes = {
  listRegisters,
  browseRegister,
  getRegisterEntry,
  purchaseRegisterExtract,
};
