/** Free reference endpoints: identifier validation, code tables and the form schedule. */

import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import { identifierSchema, validateIdentifierPath, validateIdentifierQuery } from './identifier-schemas.ts';
import {
  codeTableListSchema,
  codeTablePath,
  codeTableSchema,
  formListQuery,
  formListSchema,
} from './schemas.ts';

export const validateIdentifier = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ValidateIdentifier',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/identifiers/{value}',
    handler: 'reference/validate-identifier',
    summary: 'Validate an ACN, ARBN, ARSN or ABN',
    request: { path: validateIdentifierPath, query: validateIdentifierQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : identifierSchema,
    status: 200,
    billable: false,
    product: null,
    ports: [],
    errors: [],
  }),
);

export const listCodeTables = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListCodeTables',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/reference/code-tables',
    handler: 'reference/list-code-tables',
    summary: 'List the code tables',
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : codeTableListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['codeTableSet'],
    errors: [],
  }),
);

export const getCodeTable = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetCodeTable',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/reference/code-tables/{table}',
    handler: 'reference/get-code-table',
    summary: 'Read one code table',
    request: { path: codeTablePath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : codeTableSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['codeTableSet'],
    errors: ['code_table_not_found'],
  }),
);

export const listForms = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListForms',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/reference/forms',
    handler: 'reference/list-forms',
    summary: 'List the form schedule',
    request: { path: noPath, query: formListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : formListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['formSchedule'],
    errors: [],
  }),
);

/** The area's routes, by name. */
export const referenceRoutes = {
  validateIdentifier,
  listCodeTables,
  getCodeTable,
  listForms,
} as const;
