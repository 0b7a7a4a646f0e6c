import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { eventLog } from '../../../shared/composition/aws/event-log.ts';
import { awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { instrumented } from '../../../shared/orders/instrumented.ts';
import { sealer } from '../../../shared/webhooks/composition/sealer.ts';
import { webhookSender } from '../../../shared/webhooks/composition/webhook-sender.ts';
import { webhookDeliveries, webhookEndpoints } from '../../../shared/webhooks/composition.ts';
import { type DispatchPorts, dispatch, parseWebhookMessage } from '../../../shared/webhooks/dispatch.ts';
import { WEBHOOK_DISPATCHER } from '../../../shared/webhooks/infra.ts';

/**
 * The dispatcher: events the bus rule forwards (one delivery per subscribed endpoint, first
 * attempts at once) and attempts (retries, resends, tests). Records are processed side by side;
 * a record that fails unexpectedly is retried by SQS (then the DLQ), a failed delivery is not a
 * failed record (it is recorded and scheduled).
 */
export function createHandler(ports: DispatchPorts) {
  const processor = new BatchProcessor(EventType.SQS);
  const handle = async (record: SQSRecord) => {
    await dispatch(ports, parseWebhookMessage(record.body));
  };
  return instrumented(
    WEBHOOK_DISPATCHER.name,
    (event: SQSEvent, context) =>
      processPartialResponse(event, handle, processor, { context, processInParallel: true }),
    {
      keysOf: (event) => ({ messages: String(event.Records.length) }),
      summary: (result) => ({
        failedMessages: (result as { batchItemFailures: unknown[] }).batchItemFailures.length,
      }),
    },
  );
}

export const handler = createHandler(
  awsPorts({
    eventLog,
    endpoints: webhookEndpoints,
    deliveries: webhookDeliveries,
    sealer,
    sender: webhookSender,
    now,
  }),
);
