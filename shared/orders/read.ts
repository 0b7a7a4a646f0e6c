/** Reading orders and offline searches: who may, and when a PDF may be downloaded. */

import { isSameOwner, type Owner } from '../kernel/api-keys.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import './errors.ts';
import { OFFLINE_SEARCH_ID_PATTERN, ORDER_ID_PATTERN } from './ids.ts';
import { DOWNLOAD_LIFETIME_MS } from './present.ts';
import type { OfflineSearchRecord, OfflineSearchStore, OrderRecord, OrderStore } from './store-port.ts';

const otherOwner = (record: Owner, owner: Owner, what: string) =>
  record.accountId !== owner.accountId
    ? `This ${what} belongs to another account.`
    : `This ${what} was placed with a ${record.environment} key; use a ${record.environment} key to read it.`;

/** An id that is not an order's (or an offline search's) is as unknown as one never issued: no read. */
export const findOrder = (store: OrderStore, id: string) =>
  ORDER_ID_PATTERN.test(id) ? store.get(id) : Promise.resolve(undefined);
export const findOfflineSearch = (store: OfflineSearchStore, id: string) =>
  OFFLINE_SEARCH_ID_PATTERN.test(id) ? store.get(id) : Promise.resolve(undefined);

/** 404 for an unknown id (or one that is not an order id), 403 for another account's or environment's. */
export function assertOrderReadable(
  order: OrderRecord | undefined,
  owner: Owner,
  param = 'orderId',
): OrderRecord {
  if (!order) throw new ApiError('order_not_found', { param, message: 'No order has this id.' });
  if (!isSameOwner(order, owner)) {
    throw new ApiError('order_owner_mismatch', { param, message: otherOwner(order, owner, 'order') });
  }
  return order;
}

/**
 * A PDF can be downloaded once the order is ready (web) or delivered (a copy of what was emailed
 * or posted), for 7 days from `readyAt`.
 */
export function assertDownloadable(order: OrderRecord, now: Date): string {
  if ((order.status !== 'ready' && order.status !== 'delivered') || !order.pdfKey || !order.readyAt) {
    const why =
      order.status === 'failed'
        ? 'The order failed, so there is no PDF; see failure.'
        : `The order is ${order.status}; download it once it is ready (poll the order or wait for order.ready).`;
    throw new ApiError('order_not_ready', { param: 'orderId', message: why });
  }
  if (now.getTime() > Date.parse(order.readyAt) + DOWNLOAD_LIFETIME_MS) {
    throw new ApiError('order_download_expired', {
      param: 'orderId',
      message: `The download expired 7 days after the order became ready (${order.readyAt}). Place a new order for another copy.`,
    });
  }
  return order.pdfKey;
}

export function assertSearchReadable(
  search: OfflineSearchRecord | undefined,
  owner: Owner,
  param = 'searchId',
): OfflineSearchRecord {
  if (!search) {
    throw new ApiError('offline_search_not_found', { param, message: 'No offline search has this id.' });
  }
  if (!isSameOwner(search, owner)) {
    throw new ApiError('search_owner_mismatch', {
      param,
      message: otherOwner(search, owner, 'offline search'),
    });
  }
  return search;
}
