import { awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { instrumented } from '../../../shared/orders/instrumented.ts';
import { webhookQueue } from '../../../shared/webhooks/composition/webhook-queue.ts';
import { webhookDeliveries } from '../../../shared/webhooks/composition.ts';
import { sendDueRetries } from '../../../shared/webhooks/dispatch.ts';
import { WEBHOOK_RETRY } from '../../../shared/webhooks/infra.ts';
import type { DeliveryStore, WebhookQueue } from '../../../shared/webhooks/store-port.ts';

export interface RetryPorts {
  deliveries: Pick<DeliveryStore, 'claimDue'>;
  queue: WebhookQueue;
  now(): Date;
}

/** Every minute: the deliveries whose next attempt is due, as attempt messages to the dispatcher. */
export const createHandler = (ports: RetryPorts) =>
  instrumented(WEBHOOK_RETRY.name, async () => sendDueRetries(ports), {
    summary: (result) => result as Record<string, unknown>,
  });

export const handler = createHandler(awsPorts({ deliveries: webhookDeliveries, queue: webhookQueue, now }));
