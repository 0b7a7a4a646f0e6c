/**
 * How an order reaches its buyer: checked before anything is asked of the registry
 * (`delivery_invalid`), and against the order's size once its pages are known
 * (`document_too_large_for_delivery`).
 */
import * as z from 'zod/mini';
import { ApiError } from '../kernel/errors/api-error.ts';
import { check } from '../kernel/http/request.ts';
import { coded, named } from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { type Delivery, type DeliveryMethod, deliveryMethods } from './store-port.ts';

/** At most 50 pages by email, 500 on the web; post takes any size. */
export const DELIVERY_PAGE_LIMITS: Readonly<Record<DeliveryMethod, number>> = /* @__PURE__ */ shakable(
  () => ({
    email: 50,
    web: 500,
    post: Number.POSITIVE_INFINITY,
  }),
);

const MAX_FIELD_LENGTH = 200;
// Deliberately plain: one @, no spaces, a dot in the domain. Mail servers decide the rest.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
const PHONE = /^\+?[0-9 ()-]{8,20}$/;
const POSTCODE = /^\d{4}$/;
const NOT_BLANK = /\S/;

const email = /* @__PURE__ */ shakable(() =>
  z
    .string({ error: 'delivery.email must be a string' })
    .check(
      z.maxLength(MAX_FIELD_LENGTH, `delivery.email must be at most ${MAX_FIELD_LENGTH} characters`),
      z.regex(EMAIL, 'delivery.email must be one email address, such as ops@example.com'),
    ),
);

/** A postal field: a non-blank string of at most 200 characters (kept trimmed). */
const postalText = (field: string) =>
  z
    .string({ error: `delivery.${field} must be a string` })
    .check(
      z.maxLength(MAX_FIELD_LENGTH, `delivery.${field} must be at most ${MAX_FIELD_LENGTH} characters`),
      z.regex(NOT_BLANK, `delivery.${field} must not be blank`),
    );

const methodMessage = (allowed: readonly string[]) => (issue: { input?: unknown }) => {
  const method = (issue.input as { method?: unknown } | undefined)?.method;
  if (method === undefined) return `delivery.method is required: ${allowed.join(', ')}.`;
  const fax = method === 'fax' ? ' Fax is not offered.' : '';
  return `delivery.method must be one of ${allowed.join(', ')}.${fax}`;
};

const emailDelivery = /* @__PURE__ */ shakable(() =>
  named('EmailDelivery', z.strictObject({ method: z.literal('email'), email }), 'By email, to one address.'),
);

/**
 * An order's delivery (`delivery_invalid` for anything else): `web` (a download link), `email` (a
 * valid address) or `post` (every postal field). A field of another method is refused.
 */
export const orderDeliverySchema = /* @__PURE__ */ shakable(() =>
  coded(
    'delivery_invalid',
    named(
      'OrderDelivery',
      z.discriminatedUnion(
        'method',
        [
          named(
            'WebDelivery',
            z.strictObject({ method: z.literal('web') }),
            'A download link (`downloadUrl`).',
          ),
          emailDelivery,
          named(
            'PostDelivery',
            z.strictObject({
              method: z.literal('post'),
              contactName: postalText('contactName'),
              contactPhone: z
                .string({ error: 'delivery.contactPhone must be a string' })
                .check(
                  z.regex(
                    PHONE,
                    'delivery.contactPhone must be a phone number: digits, spaces, +, ( ) and -',
                  ),
                ),
              recipient: postalText('recipient'),
              address: postalText('address'),
              postcode: z
                .string({ error: 'delivery.postcode must be a string' })
                .check(z.regex(POSTCODE, 'delivery.postcode must be a four-digit Australian postcode')),
            }),
            'By post: every postal field is required.',
          ),
        ],
        { error: methodMessage(deliveryMethods) },
      ),
      'How the PDF reaches the buyer, by `method`. Refused with 400 `delivery_invalid`.',
    ),
    { missing: true },
  ),
);

/** An offline search's results go by email (a valid address) or to the account's webhooks. */
export const offlineSearchDeliverySchema = /* @__PURE__ */ shakable(() =>
  coded(
    'delivery_invalid',
    named(
      'OfflineSearchDelivery',
      z.discriminatedUnion(
        'method',
        [
          emailDelivery,
          named(
            'WebhookResultsDelivery',
            z.strictObject({ method: z.literal('webhook') }),
            "To the account's webhook endpoints (`offline_search.ready`).",
          ),
        ],
        { error: methodMessage(['email', 'webhook']) },
      ),
      'Where the results go, by `method`. Refused with 400 `delivery_invalid`.',
    ),
    { missing: true },
  ),
);

/** The checks of a delivery schema on a delivery alone, as the pipeline makes them on a body. */
const orderDeliveryBody = /* @__PURE__ */ shakable(() => z.object({ delivery: orderDeliverySchema }));
const offlineSearchDeliveryBody = /* @__PURE__ */ shakable(() =>
  z.object({ delivery: offlineSearchDeliverySchema }),
);

/** An order's delivery as the order keeps it: the method's own fields, trimmed, and null for the rest. */
export function parseOrderDelivery(raw: unknown): Delivery {
  const { delivery } = check(orderDeliveryBody, { delivery: raw }, 'body');
  const parsed: Delivery = {
    method: delivery.method,
    email: null,
    contactName: null,
    contactPhone: null,
    recipient: null,
    address: null,
    postcode: null,
  };
  if (delivery.method === 'email') parsed.email = delivery.email;
  if (delivery.method === 'post') {
    parsed.contactName = delivery.contactName.trim();
    parsed.contactPhone = delivery.contactPhone.trim();
    parsed.recipient = delivery.recipient.trim();
    parsed.address = delivery.address.trim();
    parsed.postcode = delivery.postcode;
  }
  return parsed;
}

export type OfflineSearchDelivery = { method: 'email'; email: string } | { method: 'webhook' };

/** An offline search's delivery: email with its address, or webhook. */
export function parseOfflineSearchDelivery(raw: unknown): OfflineSearchDelivery {
  return check(offlineSearchDeliveryBody, { delivery: raw }, 'body').delivery;
}

/** Over 50 pages cannot be emailed and over 500 cannot be downloaded: they must be posted. */
export function checkDeliverySize(method: DeliveryMethod, pages: number, what: string): void {
  const limit = DELIVERY_PAGE_LIMITS[method];
  if (pages <= limit) return;
  const advice = pages > DELIVERY_PAGE_LIMITS.web ? 'use post' : 'use web or post';
  throw new ApiError('document_too_large_for_delivery', {
    param: 'delivery.method',
    message: `${what} has ${pages} pages: ${method} delivery takes at most ${limit}; ${advice}.`,
    details: { pageCount: pages, method, limit },
  });
}
