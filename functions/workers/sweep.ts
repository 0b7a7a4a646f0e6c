import { type ReconcileDeps, reconcilePurchases } from '../../shared/app/reconcile-purchases.ts';
import { eventLog } from '../../shared/composition/aws/event-log.ts';
import { events } from '../../shared/composition/aws/events.ts';
import { mailer } from '../../shared/composition/aws/mailer.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { awsPorts, now } from '../../shared/composition/aws/root.ts';
import { extractPurchases, purchaseRecords } from '../../shared/extracts/composition.ts';
import { putMetric, SERVICE_METRICS } from '../../shared/kernel/metric-line.ts';
import type { Mailer } from '../../shared/kernel/ports/mailer.ts';
import { queue } from '../../shared/orders/composition/queue.ts';
import { orders } from '../../shared/orders/composition.ts';
import { FULFILMENT_SWEEPER } from '../../shared/orders/infra.ts';
import { instrumented } from '../../shared/orders/instrumented.ts';
import type { FulfilmentQueue, OrderStore } from '../../shared/orders/store-port.ts';
import { sweepStalled } from '../../shared/orders/sweep.ts';
import { mailSpendAlert } from '../../shared/spend-caps/alerts.ts';
import { billingRecipients, spendCaps } from '../../shared/spend-caps/composition.ts';
import type { BillingRecipients, SpendHoldStore } from '../../shared/spend-caps/store-port.ts';
import { settleStaleHolds } from '../../shared/spend-caps/sweep.ts';
import type { EventLog, EventPublisher } from '../../shared/webhooks/event-port.ts';
import { publishMissed } from '../../shared/webhooks/publish.ts';

export interface SweepPorts {
  orders: OrderStore;
  queue: FulfilmentQueue;
  /** Purchases a request left unfinished, and the registry that knows what became of them. */
  purchaseRecords: ReconcileDeps['purchaseRecords'];
  extractPurchases: ReconcileDeps['extractPurchases'];
  registryFor: ReconcileDeps['registryFor'];
  /** Events recorded but never published (their run stopped in between). */
  eventLog: Pick<EventLog, 'unpublished' | 'markPublished'>;
  events: EventPublisher;
  /** The spend alerts' emails, sent before their events are published. */
  mailer: Mailer;
  billingRecipients: BillingRecipients;
  /** Spend holds a purchase left open, settled from the fee ledger. */
  spendCaps: SpendHoldStore;
  now(): Date;
}

/**
 * Every five minutes: restarts stalled orders, finishes purchases their request left unfinished,
 * settles the spend holds they left open, and publishes events recorded but not published (mailing
 * a spend alert's billing recipients first).
 */
export const createHandler = (ports: SweepPorts) =>
  instrumented(
    FULFILMENT_SWEEPER.name,
    async () => {
      const at = ports.now();
      const [stalled, purchases, holds, events] = await Promise.all([
        sweepStalled(ports.orders, ports.queue, at),
        reconcilePurchases({
          purchaseRecords: ports.purchaseRecords,
          extractPurchases: ports.extractPurchases,
          registryFor: ports.registryFor,
          now: at,
        }),
        settleStaleHolds({ spendCaps: ports.spendCaps, now: at }),
        publishMissed({
          ...ports,
          now: () => at,
          beforePublish: (event) => mailSpendAlert(ports, event),
        }),
      ]);
      putMetric(SERVICE_METRICS.unsettledPurchases, {}, purchases.atRisk, at);
      return { ...stalled, purchases, holds, events };
    },
    { summary: (result) => result as Record<string, unknown> },
  );

export const handler = createHandler(
  awsPorts({
    orders,
    queue,
    purchaseRecords,
    extractPurchases,
    registryFor,
    eventLog,
    events,
    mailer,
    billingRecipients,
    spendCaps,
    now,
  }),
);
