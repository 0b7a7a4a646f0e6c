/** People searches, batch person extract purchases and free role reads. */

import './errors.ts';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import {
  peopleSearchBody,
  peopleSearchSchema,
  personExtractListSchema,
  personPath,
  personResponseSchema,
  purchasePeopleBody,
  roleListSchema,
  rolesQuery,
} from './schemas.ts';

export const searchPeople = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'SearchPeople',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/people/searches',
    handler: 'people/search',
    summary: 'Search people by name and birth-date range (free); the ids found can be bought for 30 days',
    request: { path: noPath, query: noQuery, body: peopleSearchBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : peopleSearchSchema,
    status: 201,
    billable: false,
    product: null,
    ports: ['peopleSearches', 'registryFor'],
    errors: [
      'name_required',
      'name_invalid_characters',
      'birth_date_range_invalid',
      'no_matches',
      'too_many_matches',
    ],
  }),
);

export const getPerson = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetPerson',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/people/{personId}',
    handler: 'people/get',
    summary: 'A person found by a search, by id (free)',
    request: { path: personPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : personResponseSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['peopleSearches'],
    readOnly: true,
    errors: ['person_not_found', 'search_expired', 'search_owner_mismatch'],
  }),
);

export const purchasePersonExtracts = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'PurchasePersonExtracts',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/people/extracts',
    handler: 'people/purchase-extracts',
    summary: 'Buy person extracts for 1 to 100 people of one search, all or nothing',
    request: { path: noPath, query: noQuery, body: purchasePeopleBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : personExtractListSchema,
    status: 201,
    billable: true,
    product: 'person_extract',
    idempotent: true,
    ports: [
      'heldExtracts',
      'extractPurchases',
      'purchaseRecords',
      'idempotency',
      'peopleSearches',
      'registryFor',
      'spendGuard',
    ],
    errors: [
      'search_expired',
      'search_owner_mismatch',
      'person_not_found',
      'person_too_many_roles',
      'extract_type_invalid',
    ],
  }),
);

export const listPersonRoles = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListPersonRoles',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/people/{personId}/roles',
    handler: 'people/roles',
    summary: "A person's company roles from a held person extract, in the registry's order (free)",
    request: { path: personPath, query: rolesQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : roleListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['heldExtracts', 'peopleSearches'],
    readOnly: true,
    errors: [
      'person_not_found',
      'search_expired',
      'search_owner_mismatch',
      'extract_required',
      'extract_not_found',
      'extract_expired',
      'extract_owner_mismatch',
      'extract_type_invalid',
    ],
  }),
);

/** The area's routes, by name. */
export const peopleRoutes = {
  searchPeople,
  getPerson,
  purchasePersonExtracts,
  listPersonRoles,
} as const;
