/** Company lookups, company extract purchases, free section reads of held extracts, and charges. */
import './errors.ts';
import type * as z from 'zod/mini';
import type { ErrorCode } from '../kernel/errors/catalogue.ts';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import {
  addressesQuery,
  addressListSchema,
  chargeListSchema,
  chargePath,
  chargeResponseSchema,
  chargesQuery,
  companyExtractSchema,
  companyMatchListSchema,
  companyPath,
  companyResponseSchema,
  companySearchQuery,
  documentListSchema,
  documentsQuery,
  externalAdministrationSchema,
  extractOnlyQuery,
  officeholderListSchema,
  officeholdersQuery,
  purchaseExtractBody,
  relationshipListSchema,
  sectionQuery,
  shareStructureSchema,
} from './schemas.ts';

/** What any read of a held company extract's section can answer (besides the errors every route shares). */
const SECTION_ERRORS: readonly ErrorCode[] = [
  'acn_invalid',
  'abn_invalid',
  'abn_not_acn_based',
  'abn_not_found',
  'company_not_found',
  'extract_required',
  'extract_not_found',
  'extract_expired',
  'extract_owner_mismatch',
  'extract_type_invalid',
  'extract_unavailable_for_type',
];

/** A free read of a held company extract's section: never billed, never calls the registry when one is held. */
const sectionRoute = <Q extends z.core.$ZodType, R extends z.core.$ZodType>(
  name: string,
  section: string,
  handler: string,
  summary: string,
  query: Q,
  response: R,
  errors: readonly ErrorCode[] = [],
) =>
  defineRoute({
    name,
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: `/v1/companies/{id}/${section}`,
    handler,
    summary,
    request: { path: companyPath, query },
    response,
    status: 200,
    billable: false,
    product: null,
    ports: ['heldExtracts', 'registryFor'],
    errors: [...SECTION_ERRORS, ...errors],
  });

export const searchCompanies = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'SearchCompanies',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/companies/search',
    handler: 'companies/search',
    summary: 'Search companies by name, ACN or ABN (free)',
    request: { path: noPath, query: companySearchQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : companyMatchListSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: [
      'abn_and_acn_supplied',
      'identifier_conflict',
      'search_scope_invalid',
      'acn_invalid',
      'abn_invalid',
      'abn_not_acn_based',
      'abn_not_found',
      'company_not_found',
      'no_matches',
      'too_many_matches',
    ],
  }),
);

export const getCompany = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetCompany',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/companies/{id}',
    handler: 'companies/get',
    summary: 'Look up a company (free)',
    request: { path: companyPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : companyResponseSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: ['acn_invalid', 'abn_invalid', 'abn_not_acn_based', 'abn_not_found', 'company_not_found'],
  }),
);

export const purchaseCompanyExtract = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'PurchaseCompanyExtract',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/companies/{id}/extracts',
    handler: 'companies/purchase-extract',
    summary: 'Buy a current, historical or relational company extract',
    request: { path: companyPath, query: noQuery, body: purchaseExtractBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : companyExtractSchema,
    status: 201,
    billable: true,
    product: 'company_extract_current',
    idempotent: true,
    ports: [
      'heldExtracts',
      'extractPurchases',
      'purchaseRecords',
      'idempotency',
      'registryFor',
      'spendGuard',
    ],
    errors: [
      'extract_type_invalid',
      'acn_invalid',
      'abn_invalid',
      'abn_not_acn_based',
      'abn_not_found',
      'company_not_found',
      'extract_unavailable_for_type',
      'no_relational_data',
    ],
  }),
);

export const listOfficeholders = /* @__PURE__ */ shakable(() =>
  sectionRoute(
    'ListOfficeholders',
    'officeholders',
    'companies/officeholders',
    "Officeholders from a held extract, in the registry's role order",
    officeholdersQuery,
    process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : officeholderListSchema,
  ),
);

export const listAddresses = /* @__PURE__ */ shakable(() =>
  sectionRoute(
    'ListCompanyAddresses',
    'addresses',
    'companies/addresses',
    'Addresses from a held extract, with the contact address',
    addressesQuery,
    process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : addressListSchema,
  ),
);

export const getShareStructure = /* @__PURE__ */ shakable(() =>
  sectionRoute(
    'GetShareStructure',
    'share-structure',
    'companies/share-structure',
    'Share classes and members from a held extract',
    sectionQuery,
    process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : shareStructureSchema,
  ),
);

export const listCompanyDocuments = /* @__PURE__ */ shakable(() =>
  sectionRoute(
    'ListCompanyDocuments',
    'documents',
    'companies/documents',
    'Documents from a held extract, newest first, by years or a date range',
    documentsQuery,
    process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : documentListSchema,
    ['document_period_conflict', 'document_date_range_invalid', 'document_list_unavailable'],
  ),
);

export const getExternalAdministration = /* @__PURE__ */ shakable(() =>
  sectionRoute(
    'GetExternalAdministration',
    'external-administration',
    'companies/external-administration',
    'External administration from a held extract',
    extractOnlyQuery,
    process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : externalAdministrationSchema,
  ),
);

export const listRelationships = /* @__PURE__ */ shakable(() =>
  sectionRoute(
    'ListCompanyRelationships',
    'relationships',
    'companies/relationships',
    'Roles the company holds in other organisations, from a held relational extract',
    sectionQuery,
    process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : relationshipListSchema,
  ),
);

export const listCharges = /* @__PURE__ */ shakable(() =>
  sectionRoute(
    'ListCompanyCharges',
    'charges',
    'companies/charges',
    "A company's satisfied charges, from a held historical extract",
    chargesQuery,
    process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : chargeListSchema,
  ),
);

export const getCharge = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetCharge',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/charges/{chargeNumber}',
    handler: 'companies/get-charge',
    summary: 'Look up one charge by number (free)',
    request: { path: chargePath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : chargeResponseSchema,
    status: 200,
    billable: false,
    product: null,
    ports: ['registryFor'],
    errors: ['charge_not_found'],
  }),
);

/** The area's routes, by name. */
export const companyRoutes = {
  searchCompanies,
  getCompany,
  purchaseCompanyExtract,
  listOfficeholders,
  listAddresses,
  getShareStructure,
  listCompanyDocuments,
  getExternalAdministration,
  listRelationships,
  listCharges,
  getCharge,
} as const;
