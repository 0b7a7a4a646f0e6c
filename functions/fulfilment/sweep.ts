import { reconcilePurchases } from '../../shared/extracts/reconcile.ts';
import { fulfilmentQueue } from '../../shared/orders/services/queue.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import { sweepStalled } from '../../shared/orders/sweep.ts';
import { registryFor } from '../../shared/registry/registries.ts';
import { getServices } from '../../shared/runtime.ts';
import { extractStore } from '../../shared/stores.ts';

/** Every five minutes: restarts stalled orders, and finishes purchases their request left unfinished. */
export const handler = async () => {
  const services = getServices();
  const now = services.clock.now();
  const [orders, purchases] = await Promise.all([
    sweepStalled(orderStore(), fulfilmentQueue(), now),
    reconcilePurchases({
      store: extractStore(),
      registryFor: (environment) => registryFor(environment, services),
      now,
    }),
  ]);
  return { ...orders, purchases };
};
