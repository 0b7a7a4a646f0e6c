import { type ReconcileDeps, reconcilePurchases } from '../../shared/extracts/reconcile.ts';
import { FULFILMENT_SWEEPER } from '../../shared/infra/workflow.ts';
import { instrumented } from '../../shared/orders/services/instrumented.ts';
import { sqsFulfilmentQueue } from '../../shared/orders/services/queue.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import { sweepStalled } from '../../shared/orders/sweep.ts';
import type { FulfilmentQueue, OrderStore } from '../../shared/ports/orders.ts';
import { registryFor } from '../../shared/registry/registries.ts';
import { getServices } from '../../shared/runtime.ts';
import { extractStore } from '../../shared/stores.ts';

export interface SweepPorts {
  orders: OrderStore;
  queue: FulfilmentQueue;
  /** Purchases a request left unfinished, and the registry that knows what became of them. */
  extracts: ReconcileDeps['store'];
  registryFor: ReconcileDeps['registryFor'];
  now(): Date;
}

/** Every five minutes: restarts stalled orders, and finishes purchases their request left unfinished. */
export const createHandler = (ports: SweepPorts) =>
  instrumented(
    FULFILMENT_SWEEPER.name,
    async () => {
      const now = ports.now();
      const [orders, purchases] = await Promise.all([
        sweepStalled(ports.orders, ports.queue, now),
        reconcilePurchases({
          store: ports.extracts,
          registryFor: ports.registryFor,
          now,
        }),
      ]);
      return { ...orders, purchases };
    },
    { summary: (result) => result as Record<string, unknown> },
  );

export const handler = createHandler({
  orders: orderStore(),
  queue: sqsFulfilmentQueue(),
  extracts: extractStore(),
  registryFor: (environment) => registryFor(environment, getServices()),
  now: () => getServices().clock.now(),
});
