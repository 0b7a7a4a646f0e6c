/** Orders and offline searches as the API, and the events about them, show them. */

import { chargesExtractProduct, documentImageProduct } from '../companies/products.ts';
import { toTimestamp } from '../kernel/clock.ts';
import type { HandlerResult } from '../kernel/http/pipeline.ts';
import type { Delivery, OfflineSearchRecord, OrderRecord, OrderType } from './store-port.ts';

/** The API's own base URL, for `downloadUrl` and `resultsUrl`. */

export const productOf = (type: OrderType) =>
  type === 'charges_extract' ? chargesExtractProduct.product : documentImageProduct.product;

/** A web download stays available this long after `readyAt`. */
export const DOWNLOAD_LIFETIME_MS = 7 * 24 * 3600_000;

export const downloadPath = (orderId: string) => `/v1/orders/${orderId}/download`;

export const downloadExpiry = (readyAt: string) =>
  toTimestamp(new Date(Date.parse(readyAt) + DOWNLOAD_LIFETIME_MS));

/** Image request ids in batch order (batch 0 covers documents 1–10, and so on). */
export const registryRequestIdsOf = (order: Pick<OrderRecord, 'imageRequests'>) =>
  Object.entries(order.imageRequests)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, id]) => id);

const presentDelivery = (delivery: Delivery) => ({
  method: delivery.method,
  email: delivery.email,
  contactName: delivery.contactName,
  contactPhone: delivery.contactPhone,
  recipient: delivery.recipient,
  address: delivery.address,
  postcode: delivery.postcode,
});

export function presentOrder(order: OrderRecord, apiBaseUrl: string) {
  const downloadable = order.delivery.method === 'web' && order.status === 'ready' && order.readyAt !== null;
  return {
    object: 'order' as const,
    id: order.id,
    type: order.type,
    status: order.status,
    company: order.company,
    documents: order.documents.map((document) => ({
      documentNumber: document.documentNumber,
      formCode: document.formCode,
      pageCount: document.pageCount,
      ...(order.type === 'document_image' ? { pages: document.pages } : {}),
    })),
    delivery: presentDelivery(order.delivery),
    downloadUrl: downloadable ? `${apiBaseUrl}${downloadPath(order.id)}` : null,
    downloadExpiresAt: downloadable ? downloadExpiry(order.readyAt as string) : null,
    registryRequestIds: registryRequestIdsOf(order),
    notices: order.notices,
    extractSize: order.extractSize,
    pageCount: order.totalPages,
    clientReference: order.clientReference,
    createdAt: order.createdAt,
    readyAt: order.readyAt,
    ...(order.status === 'failed' && order.failure ? { failure: order.failure } : {}),
  };
}

/**
 * An order in an event (spec 6.2): the fields 6.2 lists, as the GET shows them, with the delivery
 * reduced to its method and email (no postal details), and the failure of a failed order (6.1).
 */
export function presentOrderForEvent(order: OrderRecord, apiBaseUrl: string) {
  const presented = presentOrder(order, apiBaseUrl);
  return {
    object: presented.object,
    id: presented.id,
    type: presented.type,
    status: presented.status,
    documents: presented.documents,
    delivery: { method: order.delivery.method, email: order.delivery.email },
    downloadUrl: presented.downloadUrl,
    registryRequestIds: presented.registryRequestIds,
    createdAt: presented.createdAt,
    readyAt: presented.readyAt,
    ...(presented.failure ? { failure: presented.failure } : {}),
  };
}

export function presentOfflineSearch(search: OfflineSearchRecord, apiBaseUrl: string) {
  return {
    object: 'offlineSearch' as const,
    id: search.id,
    status: search.status,
    q: search.q,
    scope: search.scope,
    deliveredTo: search.delivery.method === 'email' ? search.delivery.email : 'webhook',
    resultCount: search.resultCount,
    resultsUrl:
      search.status === 'ready' ? `${apiBaseUrl}/v1/companies/search/offline/${search.id}/results` : null,
    clientReference: search.clientReference,
    createdAt: search.createdAt,
    readyAt: search.readyAt,
    ...(search.status === 'failed' && search.failure ? { failure: search.failure } : {}),
  };
}

/** An order as a handler answers it: billable only when its acceptance incurred a fee. */
export const orderResult = (order: OrderRecord, apiBaseUrl: string): HandlerResult => ({
  body: presentOrder(order, apiBaseUrl),
  billable: order.fees.some((fee) => fee.billable),
  product: productOf(order.type),
});
