/** What causes each of the orders' codes and how a client fixes it: the offline searches' and the simulation's are the service's own. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { orderErrors } from './errors.ts';

export const orderErrorGuide = {
  order_not_found: {
    cause: 'No order has this id, or its continuation token expired.',
    fix: 'Check the id; GET /v1/orders lists your orders.',
  },
  order_owner_mismatch: {
    cause: 'The order belongs to another account or environment.',
    fix: 'Read it with a key of the account and environment that placed it.',
  },
  order_not_ready: {
    cause: 'The order is not ready for download yet.',
    fix: 'Wait for the order.ready event, or poll GET /v1/orders/{orderId} until status is ready.',
  },
  order_download_expired: {
    cause: 'The download link expired 7 days after the order became ready.',
    fix: 'Place the order again.',
  },
  offline_search_not_found: {
    cause: 'No offline search has this id.',
    fix: 'Check the id returned by POST /v1/companies/search/offline.',
    addedByService: true,
  },
  offline_search_limit_reached: {
    cause: 'The account has placed its 20 offline searches for today (UTC). Nothing was charged.',
    fix: 'Retry after the Retry-After delay (midnight UTC).',
    addedByService: true,
  },
  offline_search_not_ready: {
    cause: 'The offline search has not finished yet.',
    fix: 'Wait for the offline_search.ready event, or poll the search until status is ready.',
    addedByService: true,
  },
  sandbox_simulation_invalid: {
    cause: 'X-Sandbox-Simulate holds something other than order_failed, or was sent with a live key.',
    fix: 'Send X-Sandbox-Simulate: order_failed with a test key only.',
    addedByService: true,
  },
} as const satisfies Record<keyof typeof orderErrors, CapabilityErrorGuide>;
