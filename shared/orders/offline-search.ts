/**
 * Offline name searches: accepted and billed at once (fee 934), run by the fulfilment workflow
 * without the online search's 100-name cap, delivered by email or announced by webhook. An
 * account may place 20 a day (UTC).
 */

import { offlineSearchProduct } from '../companies/products.ts';
import { type CompanySearchScope, companySearchScopes } from '../companies/registry-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import './errors.ts';
import { logger } from '../kernel/observability.ts';
import { recordedPrice } from '../kernel/prices.ts';
import type { OfflineSearchDelivery } from './delivery.ts';
import { idFor } from './ids.ts';
import type { FulfilmentQueue, OfflineSearchRecord, OfflineSearchStore } from './store-port.ts';

export const OFFLINE_SEARCHES_PER_DAY = 20;

export interface OfflineSearchRequest {
  owner: Owner;
  requestId: string;
  clientReference: string | null;
  recoveryKey: string | undefined;
  now: Date;
  q: string;
  scope: string | undefined;
  delivery: OfflineSearchDelivery;
  simulateFailure: boolean;
  store: OfflineSearchStore;
  queue: FulfilmentQueue;
}

const secondsToNextUtcDay = (now: Date) => {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((next - now.getTime()) / 1000);
};

export function checkScope(scope: string | undefined): CompanySearchScope {
  const chosen = scope ?? 'current';
  if (!(companySearchScopes as readonly string[]).includes(chosen)) {
    throw new ApiError('search_scope_invalid', {
      param: 'scope',
      message: `scope must be one of ${companySearchScopes.join(', ')}.`,
    });
  }
  return chosen as CompanySearchScope;
}

export async function acceptOfflineSearch(request: OfflineSearchRequest): Promise<OfflineSearchRecord> {
  const scope = checkScope(request.scope);
  const id = idFor('ofs_', request.recoveryKey);
  const at = toTimestamp(request.now);
  const billable = request.owner.environment === 'live';
  const search: OfflineSearchRecord = {
    id,
    accountId: request.owner.accountId,
    environment: request.owner.environment,
    status: 'pending',
    q: request.q.trim().toUpperCase(),
    scope,
    delivery: request.delivery,
    createdAt: at,
    updatedAt: at,
    readyAt: null,
    resultCount: null,
    resultsKey: null,
    failure: null,
    fees: [
      {
        accountId: request.owner.accountId,
        environment: request.owner.environment,
        at,
        product: offlineSearchProduct.product,
        feeCode: billable ? offlineSearchProduct.feeCode : null,
        quantity: 1,
        billable,
        clientReference: request.clientReference,
        requestId: request.requestId,
        resourceId: id,
        ...recordedPrice(offlineSearchProduct.product, offlineSearchProduct.feeCode, at),
      },
    ],
    requestId: request.requestId,
    clientReference: request.clientReference,
    simulateFailure: request.simulateFailure,
  };
  const outcome = await request.store.create(search, at.slice(0, 10), OFFLINE_SEARCHES_PER_DAY);
  if (outcome === 'limit') {
    const retryAfter = secondsToNextUtcDay(request.now);
    throw new ApiError('offline_search_limit_reached', {
      message: `This account has placed its ${OFFLINE_SEARCHES_PER_DAY} offline searches for ${at.slice(0, 10)} (UTC). Nothing was charged; retry after midnight UTC.`,
      headers: { 'Retry-After': String(retryAfter) },
      details: {
        limit: OFFLINE_SEARCHES_PER_DAY,
        resetsAt: toTimestamp(new Date(request.now.getTime() + retryAfter * 1000)),
      },
    });
  }
  const placed = outcome === 'created' ? search : await request.store.get(id);
  if (!placed) throw new Error(`offline search ${id} exists but cannot be read`);
  try {
    await request.queue.send({ kind: 'offline_search', id, attempt: 0 });
  } catch (error) {
    logger.error('fulfilment queue unreachable; the sweeper will start the search', {
      id,
      error: error as Error,
    });
  }
  return placed;
}
