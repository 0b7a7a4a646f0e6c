/** Free reference endpoints: identifier validation, code tables and the form schedule. */

import { defineRoute } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { identifierSchema, validateIdentifierPath, validateIdentifierQuery } from './identifier-schemas.ts';
import {
  codeTableListSchema,
  codeTablePath,
  codeTableSchema,
  formListQuery,
  formListSchema,
} from './schemas.ts';

export const referenceRoutes = {
  validateIdentifier: defineRoute({
    name: 'ValidateIdentifier',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/identifiers/{value}',
    handler: 'reference/validate-identifier',
    summary: 'Validate an ACN, ARBN, ARSN or ABN',
    request: { path: validateIdentifierPath, query: validateIdentifierQuery },
    response: identifierSchema,
    status: 200,
    billable: false,
    product: null,
    ports: [],
    errors: [],
  }),
  listCodeTables: defineRoute({
    name: 'ListCodeTables',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/reference/code-tables',
    handler: 'reference/list-code-tables',
    summary: 'List the code tables',
    request: { path: noPath, query: noQuery },
    response: codeTableListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['codeTableSet'],
    errors: [],
  }),
  getCodeTable: defineRoute({
    name: 'GetCodeTable',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/reference/code-tables/{table}',
    handler: 'reference/get-code-table',
    summary: 'Read one code table',
    request: { path: codeTablePath, query: noQuery },
    response: codeTableSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['codeTableSet'],
    errors: ['code_table_not_found'],
  }),
  listForms: defineRoute({
    name: 'ListForms',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/reference/forms',
    handler: 'reference/list-forms',
    summary: 'List the form schedule',
    request: { path: noPath, query: formListQuery },
    response: formListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['formSchedule'],
    errors: [],
  }),
} as const;
