/** Asynchronous orders (charges extracts, document images), their reads and download, and offline searches. */

import { companyPath } from '../companies/shared-schemas.ts';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import {
  chargesExtractOrderBody,
  documentImageOrderBody,
  offlineSearchBody,
  offlineSearchListSchema,
  offlineSearchPath,
  offlineSearchResultsSchema,
  offlineSearchSchema,
  orderListQuery,
  orderListSchema,
  orderPath,
  orderResponseSchema,
  pageQuery,
  pdfResponse,
} from './schemas.ts';

const free = { status: 200, billable: false, product: null } as const;

export const orderChargesExtract = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'OrderChargesExtract',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/companies/{id}/charges/extract-orders',
    handler: 'orders/charges-extract',
    summary: 'Order an image-based charges extract (PDF by web, email or post); billed at acceptance',
    request: { path: companyPath, query: noQuery, body: chargesExtractOrderBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : orderResponseSchema,
    status: 202,
    billable: true,
    product: 'charges_extract',
    idempotent: true,
    ports: ['orders', 'registryFor', 'queue', 'idempotency', 'spendGuard'],
    sandboxSimulate: true,
    errors: [
      'acn_invalid',
      'abn_invalid',
      'abn_not_acn_based',
      'abn_not_found',
      'company_not_found',
      'extract_unavailable_for_type',
      'no_charges',
      'delivery_invalid',
      'document_too_large_for_delivery',
      'sandbox_simulation_invalid',
    ],
  }),
);

export const orderDocumentImages = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'OrderDocumentImages',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/documents/image-orders',
    handler: 'orders/document-images',
    summary: 'Order images of documents, whole or a page range; billed at acceptance',
    request: { path: noPath, query: noQuery, body: documentImageOrderBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : orderResponseSchema,
    status: 202,
    billable: true,
    product: 'document_image',
    idempotent: true,
    ports: ['orders', 'registryFor', 'queue', 'idempotency', 'spendGuard'],
    sandboxSimulate: true,
    errors: [
      'document_number_invalid',
      'duplicate_document_number',
      'document_not_found',
      'document_not_imaged',
      'page_range_invalid',
      'delivery_invalid',
      'document_too_large_for_delivery',
      'sandbox_simulation_invalid',
    ],
  }),
);

export const getOrder = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetOrder',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/orders/{orderId}',
    handler: 'orders/get',
    summary: 'Read an order (free; polling counts against the rate limit)',
    request: { path: orderPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : orderResponseSchema,
    ...free,
    ports: ['orders'],
    readOnly: true,
    errors: ['order_not_found', 'order_owner_mismatch'],
  }),
);

export const listOrders = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListOrders',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/orders',
    handler: 'orders/list',
    summary: 'List orders newest first, by status and type',
    request: { path: noPath, query: orderListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : orderListSchema,
    ...free,
    ports: ['orders'],
    readOnly: true,
    errors: [],
  }),
);

export const downloadOrder = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'DownloadOrder',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/orders/{orderId}/download',
    handler: 'orders/download',
    summary: 'Download the PDF of a ready order (access checked on every download)',
    request: { path: orderPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : pdfResponse,
    ...free,
    ports: ['orders', 'blobs'],
    readOnly: true,
    errors: ['order_not_found', 'order_owner_mismatch', 'order_not_ready', 'order_download_expired'],
  }),
);

export const createOfflineSearch = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'CreateOfflineSearch',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/companies/search/offline',
    handler: 'orders/offline-search',
    summary: 'Run a name search offline: every match, no 100-name cap; billed at acceptance',
    request: { path: noPath, query: noQuery, body: offlineSearchBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : offlineSearchSchema,
    status: 202,
    billable: true,
    product: 'name_search',
    idempotent: true,
    ports: ['offlineSearches', 'queue', 'idempotency', 'spendGuard'],
    sandboxSimulate: true,
    errors: [
      'search_scope_invalid',
      'delivery_invalid',
      'offline_search_limit_reached',
      'sandbox_simulation_invalid',
    ],
  }),
);

export const listOfflineSearches = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListOfflineSearches',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/companies/search/offline',
    handler: 'orders/list-offline-searches',
    summary: "List the account's offline searches newest first (free)",
    request: { path: noPath, query: pageQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : offlineSearchListSchema,
    ...free,
    ports: ['offlineSearches'],
    readOnly: true,
    errors: [],
  }),
);

export const getOfflineSearch = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetOfflineSearch',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/companies/search/offline/{searchId}',
    handler: 'orders/get-offline-search',
    summary: 'Read an offline search (free)',
    request: { path: offlineSearchPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : offlineSearchSchema,
    ...free,
    ports: ['offlineSearches'],
    readOnly: true,
    errors: ['offline_search_not_found', 'search_owner_mismatch'],
  }),
);

export const listOfflineSearchResults = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListOfflineSearchResults',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/companies/search/offline/{searchId}/results',
    handler: 'orders/offline-search-results',
    summary: 'Page through every match of a ready offline search (free)',
    request: { path: offlineSearchPath, query: pageQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : offlineSearchResultsSchema,
    ...free,
    ports: ['offlineSearches', 'blobs'],
    readOnly: true,
    errors: ['offline_search_not_found', 'search_owner_mismatch', 'offline_search_not_ready'],
  }),
);

/** The area's routes, by name. */
export const orderRoutes = {
  orderChargesExtract,
  orderDocumentImages,
  getOrder,
  listOrders,
  downloadOrder,
  createOfflineSearch,
  listOfflineSearches,
  getOfflineSearch,
  listOfflineSearchResults,
};
