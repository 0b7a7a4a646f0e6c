import * as z from 'zod/mini';
import {
  companyMatchListSchema,
  companySummarySchema,
  searchScopeParam,
  timestamp,
} from '../companies/shared-schemas.ts';
import { documentNumberSchema } from '../kernel/document-numbers.ts';
import {
  coded,
  cursorParam,
  limitParam,
  listEnvelope,
  metaSchema,
  named,
  withMeta,
} from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { offlineSearchDeliverySchema, orderDeliverySchema } from './delivery.ts';
import { deliveryMethods, offlineSearchStatuses, orderStatuses, orderTypes } from './store-port.ts';

/** Image orders take at most this many documents (five registry image requests). */
export const MAX_DOCUMENTS_PER_IMAGE_ORDER = 50;

// ---- requests -------------------------------------------------------------------------------

export const chargesExtractOrderBody = /* @__PURE__ */ shakable(() =>
  named('OrderChargesExtractRequest', z.strictObject({ delivery: orderDeliverySchema })),
);

/**
 * A page number: whole (else 422 `validation_error`), given and from 1 (else 400
 * `page_range_invalid`, as a reversed range is).
 */
const pageNumber = /* @__PURE__ */ shakable(() =>
  coded(
    'validation_error',
    z.int({ error: 'must be a whole page number' }).check(
      z.refine((page: number) => page >= 1, {
        error: 'pages are numbered from 1',
        params: { code: 'page_range_invalid' },
      }),
    ),
    { missing: 'page_range_invalid' },
  ).register(z.globalRegistry, { minimum: 1 }),
);

const pageRange = /* @__PURE__ */ shakable(() =>
  named(
    'RequestedPageRange',
    z.strictObject({ from: pageNumber, to: pageNumber }),
    'Pages `from` to `to`, both given, numbered from 1; `to` must not be below `from` nor past the document’s last page (400 `page_range_invalid`). Leave it out for the whole document.',
  ),
);

export const documentImageOrderBody = /* @__PURE__ */ shakable(() =>
  named(
    'OrderDocumentImagesRequest',
    z.strictObject({
      documents: z
        .array(
          named(
            'DocumentImageOrderItem',
            z.strictObject({
              documentNumber: documentNumberSchema,
              pages: z.optional(pageRange),
            }),
          ),
          { error: 'documents must be an array of {documentNumber, pages}' },
        )
        .register(z.globalRegistry, {
          description:
            'The documents to image, each once (compared upper-cased and trimmed: 400 `duplicate_document_number`).',
        })
        .check(
          z.minLength(1, 'documents must name at least one document'),
          z.maxLength(
            MAX_DOCUMENTS_PER_IMAGE_ORDER,
            `documents can name at most ${MAX_DOCUMENTS_PER_IMAGE_ORDER} documents per order`,
          ),
        ),
      delivery: orderDeliverySchema,
    }),
  ),
);

export const offlineSearchBody = /* @__PURE__ */ shakable(() =>
  named(
    'CreateOfflineSearchRequest',
    z.strictObject({
      q: z
        .string({ error: (issue) => (issue.input === undefined ? 'q is required' : 'q must be a string') })
        .check(z.minLength(2, 'q must be at least 2 characters'), z.maxLength(200)),
      scope: z.optional(searchScopeParam),
      delivery: offlineSearchDeliverySchema,
    }),
  ),
);

/** Any string: an id that is not an order's is simply not found (404), as for any unknown id. */
export const orderPath = /* @__PURE__ */ shakable(() => z.strictObject({ orderId: z.string() }));
export const offlineSearchPath = /* @__PURE__ */ shakable(() => z.strictObject({ searchId: z.string() }));

export const orderListQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    status: z.optional(z.enum(orderStatuses, { error: `status must be one of ${orderStatuses.join(', ')}` })),
    type: z.optional(z.enum(orderTypes, { error: `type must be one of ${orderTypes.join(', ')}` })),
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const pageQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({ limit: limitParam, cursor: cursorParam }),
);

// ---- responses ------------------------------------------------------------------------------

const failureSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Failure',
    z.object({ code: z.string(), registryCode: z.nullable(z.string()), message: z.string() }),
    'Why an order or offline search failed.',
  ),
);
const nullableString = /* @__PURE__ */ shakable(() => z.nullable(z.string()));

export const orderSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Order',
    z.object({
      object: z.literal('order'),
      id: z.string().check(z.regex(/^ord_[0-9a-f]{24}$/)),
      type: z.enum(orderTypes),
      status: z.enum(orderStatuses),
      company: z.nullable(companySummarySchema),
      documents: z.array(
        named(
          'OrderDocument',
          z.object({
            documentNumber: z.string(),
            formCode: z.string(),
            pageCount: z.int(),
            pages: z.optional(z.nullable(named('PageRange', z.object({ from: z.int(), to: z.int() })))),
          }),
        ),
      ),
      delivery: named(
        'OrderDeliveryDetails',
        z.object({
          method: z.enum(deliveryMethods),
          email: nullableString,
          contactName: nullableString,
          contactPhone: nullableString,
          recipient: nullableString,
          address: nullableString,
          postcode: nullableString,
        }),
        'How the order is delivered: the method and the details the request gave for it.',
      ),
      downloadUrl: nullableString,
      downloadExpiresAt: z.nullable(timestamp),
      registryRequestIds: z.array(z.string()),
      notices: z.array(z.string()),
      extractSize: z.enum(['small', 'large']),
      pageCount: z.int(),
      clientReference: nullableString,
      createdAt: timestamp,
      readyAt: z.nullable(timestamp),
      failure: z.optional(failureSchema),
    }),
  ),
);

export const orderResponseSchema = /* @__PURE__ */ shakable(() =>
  named('OrderResponse', withMeta(orderSchema)),
);
export const orderListSchema = /* @__PURE__ */ shakable(() => listEnvelope('OrderList', orderSchema));

export const offlineSearchSchema = /* @__PURE__ */ shakable(() =>
  named(
    'OfflineSearch',
    z.object({
      object: z.literal('offlineSearch'),
      id: z.string().check(z.regex(/^ofs_[0-9a-f]{24}$/)),
      status: z.enum(offlineSearchStatuses),
      q: z.string(),
      scope: z.string(),
      deliveredTo: z.string(),
      resultCount: z.nullable(z.int()),
      resultsUrl: nullableString,
      clientReference: nullableString,
      createdAt: timestamp,
      readyAt: z.nullable(timestamp),
      failure: z.optional(failureSchema),
      meta: metaSchema,
    }),
  ),
);

export const offlineSearchListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope(
    'OfflineSearchList',
    named(
      'ListedOfflineSearch',
      z.omit(offlineSearchSchema, { meta: true }),
      'An offline search as lists show it.',
    ),
  ),
);

export const offlineSearchResultsSchema = companyMatchListSchema;

/** The download route answers with the PDF itself; errors use the JSON envelope. */
export const pdfResponse = /* @__PURE__ */ shakable(() =>
  z
    .custom<Uint8Array>()
    .register(z.globalRegistry, { contentMediaType: 'application/pdf', description: 'The PDF.' }),
);
