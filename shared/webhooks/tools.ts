/**
 * Subscriber tools: resend an event (after the retry window too), recover an endpoint (send
 * again every failed delivery since a time), and the test event (`webhook_endpoint.test`, to one
 * endpoint only, so it is recorded but never put on the bus).
 */
import { randomBytes } from 'node:crypto';
import { toTimestamp } from '../domain/clock.ts';
import { ApiError } from '../errors/api-error.ts';
import type { EventLog, EventRecord } from '../events/types.ts';
import type { Owner } from '../extracts/lifecycle.ts';
import { CLAIM_LEASE_MS, newDelivery, subscribes } from './dispatch.ts';
import { assertEndpointReadable, findEndpoint, presentEndpoint } from './endpoints.ts';
import type {
  DeliveryRecord,
  DeliveryStore,
  WebhookEndpointRecord,
  WebhookEndpointStore,
  WebhookQueue,
} from './types.ts';

export interface ToolPorts {
  webhookEndpoints: Pick<WebhookEndpointStore, 'get' | 'all'>;
  webhookDeliveries: Pick<DeliveryStore, 'ensure' | 'forEndpoint' | 'reopenFailed'>;
  webhookQueue: WebhookQueue;
}

/** Resend `event` to `endpointId` (an enabled endpoint of the owner) or to every subscribed endpoint. */
export async function resendEvent(
  ports: ToolPorts,
  event: EventRecord,
  owner: Owner,
  endpointId: string | undefined,
  now: Date,
): Promise<DeliveryRecord[]> {
  let endpoints: WebhookEndpointRecord[];
  if (endpointId !== undefined) {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, endpointId),
      owner,
      'endpointId',
    );
    if (endpoint.status !== 'enabled') {
      throw new ApiError('validation_error', {
        param: 'endpointId',
        message: 'The endpoint is disabled; enable it (PATCH status enabled) before resending to it.',
      });
    }
    endpoints = [endpoint];
  } else {
    endpoints = (await ports.webhookEndpoints.all(event.accountId, event.environment)).filter((endpoint) =>
      subscribes(endpoint, event.type),
    );
  }
  const deliveries = await Promise.all(
    endpoints.map((endpoint) => ports.webhookDeliveries.ensure(newDelivery(event, endpoint.id, now))),
  );
  await ports.webhookQueue.send(
    endpoints.map((endpoint) => ({
      kind: 'attempt',
      eventId: event.id,
      endpointId: endpoint.id,
      manual: true,
    })),
  );
  return deliveries;
}

/**
 * Every delivery to the endpoint that failed for good since `since`, sent again (manual
 * attempts). Each is put back in flight first, and only the call that did so sends it: recovers
 * at the same time send a delivery once, and one in flight is not "failed" to the next recover.
 */
export async function recoverEndpoint(
  ports: ToolPorts,
  endpoint: WebhookEndpointRecord,
  since: string,
  now: Date,
) {
  const failed: DeliveryRecord[] = [];
  let after: string | undefined;
  do {
    const page = await ports.webhookDeliveries.forEndpoint(endpoint.id, {
      limit: 100,
      since,
      ...(after ? { after } : {}),
    });
    failed.push(...page.items.filter((delivery) => delivery.status === 'failed'));
    after = page.next;
  } while (after);
  const leaseUntil = toTimestamp(new Date(now.getTime() + CLAIM_LEASE_MS));
  const reopened = (
    await Promise.all(
      failed.map(async (delivery) =>
        (await ports.webhookDeliveries.reopenFailed(delivery.eventId, endpoint.id, leaseUntil))
          ? [delivery]
          : [],
      ),
    )
  ).flat();
  await ports.webhookQueue.send(
    reopened.map((delivery) => ({
      kind: 'attempt',
      eventId: delivery.eventId,
      endpointId: endpoint.id,
      manual: true,
    })),
  );
  return reopened.length;
}

export interface TestEventPorts extends ToolPorts {
  eventLog: Pick<EventLog, 'record'>;
}

/** Records a `webhook_endpoint.test` event and queues its delivery to this endpoint only. */
export async function sendTestEvent(ports: TestEventPorts, endpoint: WebhookEndpointRecord, now: Date) {
  const at = toTimestamp(now);
  const event: EventRecord = {
    id: `evt_${randomBytes(12).toString('hex')}`,
    type: 'webhook_endpoint.test',
    createdAt: at,
    livemode: endpoint.environment === 'live',
    accountId: endpoint.accountId,
    environment: endpoint.environment,
    data: presentEndpoint(endpoint),
    // Never on the bus: the bus would deliver it to every endpoint subscribed to `*`.
    publishedAt: at,
  };
  await ports.eventLog.record(event);
  await ports.webhookDeliveries.ensure(newDelivery(event, endpoint.id, now));
  await ports.webhookQueue.send([{ kind: 'attempt', eventId: event.id, endpointId: endpoint.id }]);
  return event;
}
