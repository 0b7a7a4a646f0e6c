/**
 * Accepting an order: everything is checked (the request, then the registry's free lookups, then
 * the size against the delivery) before the order and its fee are written together. An order
 * named by an Idempotency-Key has an id derived from it, so a retry finds the order instead of
 * billing a second one.
 */

import { lookupCompany } from '../companies/extracts.ts';
import type { CompanyIdentifier } from '../companies/identifier.ts';
import { presentCompanySummary } from '../companies/present.ts';
import { chargesExtractProduct, documentImageProduct } from '../companies/products.ts';
import type { CompanyRegistry } from '../companies/registry-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { normalizeDocumentNumber } from '../kernel/document-numbers.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { logger } from '../kernel/observability.ts';
import type { FeeEntry } from '../kernel/ports/fee-ledger.ts';
import { recordedPrice } from '../kernel/prices.ts';
import { apiErrorFromRegistry, fromRegistry } from '../kernel/registry-errors.ts';
import { type RegistryCaller, RegistryRejection } from '../kernel/registry-port.ts';
import { checkDeliverySize } from './delivery.ts';
import { idFor } from './ids.ts';
import type { OrdersRegistry, RegistryImageableDocument } from './registry-port.ts';
import type { Delivery, FulfilmentQueue, OrderDocument, OrderRecord, OrderStore } from './store-port.ts';

/** Fewer than 10 pages is a small extract; 10 or more a large one. */
export const LARGE_EXTRACT_PAGES = 10;

const sizeOf = (pages: number): OrderRecord['extractSize'] =>
  pages < LARGE_EXTRACT_PAGES ? 'small' : 'large';

/** Pages compiled: those of the documents that have an image. */
const pagesOf = (documents: readonly OrderDocument[]) =>
  documents.reduce((sum, document) => sum + (document.imageAvailable ? document.pageCount : 0), 0);

export interface OrderRequest {
  owner: Owner;
  requestId: string;
  clientReference: string | null;
  recoveryKey: string | undefined;
  now: Date;
  delivery: Delivery;
  /** Sandbox: `X-Sandbox-Simulate: order_failed`. */
  simulateFailure: boolean;
  registry: CompanyRegistry & OrdersRegistry;
  store: OrderStore;
  queue: FulfilmentQueue;
}

const callerOf = (request: OrderRequest): RegistryCaller => ({
  accountId: request.owner.accountId,
  requestId: request.requestId,
  clientReference: request.clientReference,
});

/** One fee entry per fee code, with the number of items it pays for. */
function feesFor(
  request: OrderRequest,
  orderId: string,
  product: string,
  feeCodes: readonly string[],
): FeeEntry[] {
  const billable = request.owner.environment === 'live';
  const counts = new Map<string, number>();
  for (const code of feeCodes) counts.set(code, (counts.get(code) ?? 0) + 1);
  const at = toTimestamp(request.now);
  return [...counts].map(([feeCode, quantity]) => ({
    accountId: request.owner.accountId,
    environment: request.owner.environment,
    at,
    product,
    feeCode: billable ? feeCode : null,
    quantity,
    billable,
    clientReference: request.clientReference,
    requestId: request.requestId,
    resourceId: orderId,
    ...recordedPrice(product, feeCode, at),
  }));
}

const unavailableNotice = (document: RegistryImageableDocument) =>
  `No image is available for document ${document.documentNumber} (form ${document.formCode}, received ` +
  `${document.receivedAt}); documents lodged with a state office before 1991 were often never imaged. ` +
  'It is listed on the cover page and not included.';

function newOrder(
  request: OrderRequest,
  fields: Pick<OrderRecord, 'type' | 'company' | 'documents' | 'notices' | 'totalPages' | 'extractSize'>,
  fees: (orderId: string) => FeeEntry[],
): OrderRecord {
  const id = idFor('ord_', request.recoveryKey);
  const createdAt = toTimestamp(request.now);
  return {
    id,
    accountId: request.owner.accountId,
    environment: request.owner.environment,
    ...fields,
    status: 'pending',
    delivery: request.delivery,
    imageRequests: {},
    createdAt,
    updatedAt: createdAt,
    readyAt: null,
    failure: null,
    pdfKey: null,
    dispatchedAt: null,
    fees: fees(id),
    requestId: request.requestId,
    clientReference: request.clientReference,
    simulateFailure: request.simulateFailure,
  };
}

/**
 * Writes the order with its fees (once) and hands it to fulfilment. When the queue cannot be
 * reached the order is still accepted: it is paid for, and the sweeper restarts unfinished
 * orders that nothing has touched for an hour (`STALLED_AFTER_MS`).
 */
async function place(order: OrderRecord, request: OrderRequest): Promise<OrderRecord> {
  const created = await request.store.create(order);
  const placed = created ? order : await request.store.get(order.id);
  if (!placed) throw new Error(`order ${order.id} exists but cannot be read`);
  try {
    await request.queue.send({ kind: 'order', id: placed.id, attempt: 0 });
  } catch (error) {
    logger.error('fulfilment queue unreachable; the sweeper will start the order', {
      orderId: placed.id,
      error: error as Error,
    });
  }
  return placed;
}

/** A compiled PDF of the documents of every charge the company has (spec 4.2). */
export async function acceptChargesExtractOrder(company: CompanyIdentifier, request: OrderRequest) {
  const caller = callerOf(request);
  const number = company.abn
    ? (await lookupCompany(request.registry, company, caller)).number
    : company.number;
  const plan = await fromRegistry(request.registry.planChargesExtract(number, caller), 'id');
  const documents: OrderDocument[] = plan.documents.map((document) => ({
    documentNumber: document.documentNumber,
    formCode: document.formCode,
    pageCount: document.pageCount,
    pages: null,
    imageAvailable: document.imaged && document.imageAvailable,
  }));
  // What is compiled (and delivered) leaves out the documents without an image; the size, and so
  // the registry's fee tier, is the company record's.
  const totalPages = pagesOf(documents);
  checkDeliverySize(request.delivery.method, totalPages, `The charges extract of ${plan.company.name}`);
  const notices = plan.documents
    .filter((document) => !(document.imaged && document.imageAvailable))
    .map(unavailableNotice);
  const order = newOrder(
    request,
    {
      type: 'charges_extract',
      company: presentCompanySummary(plan.company),
      documents,
      notices,
      totalPages,
      extractSize: sizeOf(plan.company.chargesExtractPages),
    },
    (id) => feesFor(request, id, chargesExtractProduct.product, [chargesExtractProduct.feeCodes[plan.scope]]),
  );
  return place(order, request);
}

export interface ImageOrderItem {
  documentNumber: string;
  pages: { from: number; to: number } | null;
}

/**
 * Request-only checks of an image order the request's schema cannot make, before the registry is
 * asked anything: each document once (compared upper-cased and trimmed) and no reversed range.
 */
export function checkImageOrderItems(
  items: readonly { documentNumber: string; pages?: { from: number; to: number } | undefined }[],
): ImageOrderItem[] {
  const seen = new Map<string, number>();
  return items.map((item, index) => {
    const param = `documents[${index}]`;
    const documentNumber = normalizeDocumentNumber(item.documentNumber);
    const first = seen.get(documentNumber);
    if (first !== undefined) {
      throw new ApiError('duplicate_document_number', {
        param: `${param}.documentNumber`,
        message: `Document ${documentNumber} is already documents[${first}]; order each document once (a page range covers several pages).`,
      });
    }
    seen.set(documentNumber, index);
    if (item.pages === undefined) return { documentNumber, pages: null };
    const { from, to } = item.pages;
    if (to < from) {
      throw new ApiError('page_range_invalid', {
        param: `${param}.pages`,
        message: `pages.to (${to}) is below pages.from (${from}).`,
      });
    }
    return { documentNumber, pages: { from, to } };
  });
}

/** Finds which item a registry rejection of a batch lookup is about, to name it in `param`. */
function documentParam(error: unknown, items: readonly ImageOrderItem[]): string | null {
  const number = error instanceof RegistryRejection ? error.details?.documentNumber : undefined;
  const index = items.findIndex((item) => item.documentNumber === number);
  return index >= 0 ? `documents[${index}].documentNumber` : 'documents';
}

/** Images of documents, whole or a page range; the fee follows each document's record. */
export async function acceptDocumentImageOrder(items: readonly ImageOrderItem[], request: OrderRequest) {
  const caller = callerOf(request);
  let found: RegistryImageableDocument[];
  try {
    found = await request.registry.getDocuments(
      items.map((item) => item.documentNumber),
      caller,
    );
  } catch (error) {
    throw apiErrorFromRegistry(error, documentParam(error, items));
  }
  const documents = items.map((item, index): OrderDocument => {
    const document = found[index] as RegistryImageableDocument;
    if (!document.imaged) {
      throw new ApiError('document_not_imaged', {
        param: `documents[${index}].documentNumber`,
        message: `Document ${document.documentNumber} is not in the imaging system, so no image can be ordered.`,
      });
    }
    if (item.pages && item.pages.to > document.pageCount) {
      throw new ApiError('page_range_invalid', {
        param: `documents[${index}].pages`,
        message: `Document ${document.documentNumber} has ${document.pageCount} pages; pages ${item.pages.from}-${item.pages.to} are not all in it.`,
      });
    }
    return {
      documentNumber: document.documentNumber,
      formCode: document.formCode,
      pageCount: item.pages ? item.pages.to - item.pages.from + 1 : document.pageCount,
      pages: item.pages,
      imageAvailable: document.imageAvailable,
    };
  });
  if (!documents.some((document) => document.imageAvailable)) {
    throw new ApiError('document_not_imaged', {
      param: 'documents',
      message: 'The registry can produce an image of none of these documents; nothing was ordered.',
    });
  }
  const totalPages = pagesOf(documents);
  checkDeliverySize(request.delivery.method, totalPages, 'This image order');

  const chargeable = found.filter(
    (document) => document.imageAvailable && document.formCode !== documentImageProduct.freeFormCode,
  );
  const companies = new Map(
    found.flatMap((document) =>
      document.subject.type === 'organisation'
        ? [[document.subject.company.number, document.subject.company]]
        : [],
    ),
  );
  const [onlyCompany] =
    companies.size === 1 && found.every((d) => d.subject.type === 'organisation') ? companies.values() : [];
  const order = newOrder(
    request,
    {
      type: 'document_image',
      company: onlyCompany ? presentCompanySummary(onlyCompany) : null,
      documents,
      notices: found.filter((document) => !document.imageAvailable).map(unavailableNotice),
      totalPages,
      extractSize: sizeOf(totalPages),
    },
    (id) =>
      feesFor(
        request,
        id,
        documentImageProduct.product,
        chargeable.map((document) => documentImageProduct.feeCodes[document.subject.type]),
      ),
  );
  return place(order, request);
}
