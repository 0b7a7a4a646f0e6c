/** Free reference endpoints: identifier validation, code tables and the form schedule. */
import { noPath, noQuery } from '../../schemas/common.ts';
import {
  identifierSchema,
  validateIdentifierPath,
  validateIdentifierQuery,
} from '../../schemas/identifiers.ts';
import {
  codeTableListSchema,
  codeTablePath,
  codeTableSchema,
  formListQuery,
  formListSchema,
} from '../../schemas/reference.ts';
import { defineRoute } from '../route.ts';

export const referenceRoutes = {
  validateIdentifier: defineRoute({
    name: 'ValidateIdentifier',
    method: 'GET',
    path: '/v1/identifiers/{value}',
    handler: 'identifiers/validate',
    summary: 'Validate an ACN, ARBN, ARSN or ABN',
    request: { path: validateIdentifierPath, query: validateIdentifierQuery },
    response: identifierSchema,
    status: 200,
    billable: false,
    product: null,
    tables: {},
    errors: [],
  }),
  listCodeTables: defineRoute({
    name: 'ListCodeTables',
    method: 'GET',
    path: '/v1/reference/code-tables',
    handler: 'reference/list-code-tables',
    summary: 'List the code tables',
    request: { path: noPath, query: noQuery },
    response: codeTableListSchema,
    status: 200,
    billable: false,
    product: null,
    tables: { main: 'getItem' },
    errors: [],
  }),
  getCodeTable: defineRoute({
    name: 'GetCodeTable',
    method: 'GET',
    path: '/v1/reference/code-tables/{table}',
    handler: 'reference/get-code-table',
    summary: 'Read one code table',
    request: { path: codeTablePath, query: noQuery },
    response: codeTableSchema,
    status: 200,
    billable: false,
    product: null,
    tables: { main: 'getItem' },
    errors: ['code_table_not_found'],
  }),
  listForms: defineRoute({
    name: 'ListForms',
    method: 'GET',
    path: '/v1/reference/forms',
    handler: 'reference/list-forms',
    summary: 'List the form schedule',
    request: { path: noPath, query: formListQuery },
    response: formListSchema,
    status: 200,
    billable: false,
    product: null,
    tables: { main: 'getItem' },
    errors: [],
  }),
} as const;
