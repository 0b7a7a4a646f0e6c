/**
 * How an order reaches its buyer: checked before anything is asked of the registry
 * (`delivery_invalid`), and against the order's size once its pages are known
 * (`document_too_large_for_delivery`).
 */
import { ApiError } from '../kernel/errors/api-error.ts';
import { type Delivery, type DeliveryMethod, deliveryMethods } from './store-port.ts';

/** At most 50 pages by email, 500 on the web; post takes any size. */
export const DELIVERY_PAGE_LIMITS: Readonly<Record<DeliveryMethod, number>> = {
  email: 50,
  web: 500,
  post: Number.POSITIVE_INFINITY,
};

const POST_FIELDS = ['contactName', 'contactPhone', 'recipient', 'address', 'postcode'] as const;
const KNOWN_FIELDS = new Set(['method', 'email', ...POST_FIELDS]);
const MAX_FIELD_LENGTH = 200;
// Deliberately plain: one @, no spaces, a dot in the domain. Mail servers decide the rest.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
const PHONE = /^\+?[0-9 ()-]{8,20}$/;
const POSTCODE = /^\d{4}$/;

const invalid = (param: string, message: string) => new ApiError('delivery_invalid', { param, message });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(delivery: Record<string, unknown>, field: string, required: boolean): string | null {
  const value = delivery[field];
  if (value === undefined || value === null) {
    if (required)
      throw invalid(`delivery.${field}`, `delivery.${field} is required for this delivery method.`);
    return null;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(`delivery.${field}`, `delivery.${field} must be a non-empty string.`);
  }
  if (value.length > MAX_FIELD_LENGTH) {
    throw invalid(`delivery.${field}`, `delivery.${field} must be at most ${MAX_FIELD_LENGTH} characters.`);
  }
  return value.trim();
}

function checkEmail(delivery: Record<string, unknown>, required: boolean): string | null {
  const email = text(delivery, 'email', required);
  if (email !== null && (!EMAIL.test(email) || email.length > 254)) {
    throw invalid('delivery.email', `delivery.email is not a valid email address: '${email}'.`);
  }
  return email;
}

function checkMethod<M extends string>(
  delivery: unknown,
  allowed: readonly M[],
): [Record<string, unknown>, M] {
  if (delivery === undefined || delivery === null) {
    throw invalid('delivery', `delivery is required: an object whose method is ${allowed.join(', ')}.`);
  }
  if (!isRecord(delivery)) throw invalid('delivery', 'delivery must be an object.');
  const method = delivery.method;
  if (method === undefined)
    throw invalid('delivery.method', `delivery.method is required: ${allowed.join(', ')}.`);
  if (typeof method !== 'string' || !(allowed as readonly string[]).includes(method)) {
    const fax = method === 'fax' ? ' Fax is not offered.' : '';
    throw invalid('delivery.method', `delivery.method must be one of ${allowed.join(', ')}.${fax}`);
  }
  return [delivery, method as M];
}

/** An order's delivery: web, email (a valid address) or post (every postal field). */
export function parseOrderDelivery(raw: unknown): Delivery {
  const [delivery, method] = checkMethod(raw, deliveryMethods);
  const unknown = Object.keys(delivery).find((key) => !KNOWN_FIELDS.has(key));
  if (unknown) throw invalid(`delivery.${unknown}`, `Unknown delivery field delivery.${unknown}.`);
  const isPost = method === 'post';
  const parsed: Delivery = {
    method,
    email: checkEmail(delivery, method === 'email'),
    contactName: text(delivery, 'contactName', isPost),
    contactPhone: text(delivery, 'contactPhone', isPost),
    recipient: text(delivery, 'recipient', isPost),
    address: text(delivery, 'address', isPost),
    postcode: text(delivery, 'postcode', isPost),
  };
  if (isPost && !PHONE.test(parsed.contactPhone as string)) {
    throw invalid(
      'delivery.contactPhone',
      'delivery.contactPhone must be a phone number: digits, spaces, +, ( ) and -.',
    );
  }
  if (isPost && !POSTCODE.test(parsed.postcode as string)) {
    throw invalid('delivery.postcode', 'delivery.postcode must be a four-digit Australian postcode.');
  }
  // Fields of other methods are not kept: the order shows what its delivery uses.
  if (method !== 'email') parsed.email = null;
  if (!isPost) for (const field of POST_FIELDS) parsed[field] = null;
  return parsed;
}

export type OfflineSearchDelivery = { method: 'email'; email: string } | { method: 'webhook' };

/** An offline search's results go by email (a valid address) or to the account's webhooks. */
export function parseOfflineSearchDelivery(raw: unknown): OfflineSearchDelivery {
  const [delivery, method] = checkMethod(raw, ['email', 'webhook'] as const);
  const unknown = Object.keys(delivery).find((key) => key !== 'method' && key !== 'email');
  if (unknown) throw invalid(`delivery.${unknown}`, `Unknown delivery field delivery.${unknown}.`);
  if (method === 'webhook') {
    if (delivery.email !== undefined && delivery.email !== null) {
      throw invalid('delivery.email', 'delivery.email applies only to email delivery.');
    }
    return { method };
  }
  return { method, email: checkEmail(delivery, true) as string };
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
