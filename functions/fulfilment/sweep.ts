import { extracts } from '../../shared/composition/aws/extracts.ts';
import { orders } from '../../shared/composition/aws/orders.ts';
import { queue } from '../../shared/composition/aws/queue.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { awsPorts, now } from '../../shared/composition/aws/root.ts';
import { type ReconcileDeps, reconcilePurchases } from '../../shared/extracts/reconcile.ts';
import { FULFILMENT_SWEEPER } from '../../shared/infra/workflow.ts';
import { instrumented } from '../../shared/orders/instrumented.ts';
import { sweepStalled } from '../../shared/orders/sweep.ts';
import type { FulfilmentQueue, OrderStore } from '../../shared/ports/orders.ts';

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
      const at = ports.now();
      const [stalled, purchases] = await Promise.all([
        sweepStalled(ports.orders, ports.queue, at),
        reconcilePurchases({ store: ports.extracts, registryFor: ports.registryFor, now: at }),
      ]);
      return { ...stalled, purchases };
    },
    { summary: (result) => result as Record<string, unknown> },
  );

export const handler = createHandler(awsPorts({ orders, queue, extracts, registryFor, now }));
