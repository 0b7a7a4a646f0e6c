/** Free record lookups: document details, business names and name reservations. */
import './errors.ts';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import {
  businessNameListSchema,
  businessNameResponseSchema,
  businessNamesQuery,
  documentListSchema,
  documentPath,
  documentResponseSchema,
  documentsQuery,
  nameReservationResponseSchema,
  recordPath,
} from './schemas.ts';

export const getDocument = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetDocument',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/documents/{number}',
    handler: 'records/get-document',
    summary:
      'Look up one document by number (free): form, sub-forms, dates, qualifier, pages, imaging, XBRL, and the organisation or person it was lodged against',
    request: { path: documentPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : documentResponseSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: ['document_number_invalid', 'document_not_found', 'document_not_imaged'],
  }),
);

export const listDocuments = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListDocuments',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/documents',
    handler: 'records/list-documents',
    summary:
      'Look up 1 to 10 documents in one call (free): `numbers[]=…&numbers[]=…`, answered in the order asked, all or nothing',
    request: { path: noPath, query: documentsQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : documentListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: [
      'document_number_invalid',
      'duplicate_document_number',
      'document_not_found',
      'document_not_imaged',
    ],
  }),
);

export const getBusinessName = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetBusinessName',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/business-names/{id}',
    handler: 'records/get-business-name',
    summary:
      'Look up a business name by its registry number (free): status, dates, holders and their ABNs, principal place of business',
    request: { path: recordPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : businessNameResponseSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: ['business_name_not_found'],
  }),
);

export const findBusinessNames = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'FindBusinessNames',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/business-names',
    handler: 'records/find-business-names',
    summary:
      'Find business names by a pre-2012 state registration number with its jurisdiction (`stateNumber` and `jurisdiction`), or by registry `number` (free)',
    request: { path: noPath, query: businessNamesQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : businessNameListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: ['business_name_not_found', 'identifier_conflict'],
  }),
);

export const getNameReservation = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetNameReservation',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/name-reservations/{id}',
    handler: 'records/get-name-reservation',
    summary:
      'Look up a name reservation (form 410, extended by 410F) by its number (free): the name, what it is reserved for, reservation and expiry dates',
    request: { path: recordPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : nameReservationResponseSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: ['company_not_found'],
  }),
);

/** The area's routes, by name. */
export const recordRoutes = {
  getDocument,
  listDocuments,
  getBusinessName,
  findBusinessNames,
  getNameReservation,
} as const;
