/**
 * The dispatcher (spec 6.2–6.4): one delivery per (event, enabled endpoint of the event's
 * account and environment subscribed to its type), each attempt signed and sent, recorded with
 * its outcome, and retried on the spec's schedule by the retry function, which puts the due
 * attempts back on the dispatcher's queue. Deliveries are keyed by event and endpoint, so a
 * redelivered message creates no second delivery. Each attempt takes its number before it is
 * sent (a redelivered scheduled message takes none and sends nothing), so attempts made side by
 * side (resends, recoveries) are numbered once each and every one is recorded.
 */
import { createHash } from 'node:crypto';
import { toTimestamp } from '../kernel/clock.ts';
import { putMetric } from '../kernel/metric-line.ts';
import { type EventLog, type EventRecord, eventBody } from './event-port.ts';
import { WEBHOOK_METRICS } from './metrics.ts';
import { nextAttemptAfter } from './schedule.ts';
import { SIGNATURE_HEADER, signatureHeader } from './sign.ts';
import type {
  DeliveryAttempt,
  DeliveryRecord,
  DeliveryStore,
  SecretSealer,
  WebhookEndpointRecord,
  WebhookEndpointStore,
  WebhookMessage,
  WebhookQueue,
  WebhookSender,
} from './store-port.ts';

export const USER_AGENT = 'svc-webhooks/1';
/** Claimed deliveries are not claimed again for this long (their attempt message is in flight). */
export const CLAIM_LEASE_MS = 5 * 60_000;

export const deliveryIdFor = (eventId: string, endpointId: string) =>
  `whd_${createHash('sha256').update(`${eventId}#${endpointId}`).digest('hex').slice(0, 24)}`;

export const subscribes = (endpoint: WebhookEndpointRecord, type: string) =>
  endpoint.status === 'enabled' &&
  (endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type));

export function newDelivery(event: EventRecord, endpointId: string, now: Date): DeliveryRecord {
  const at = toTimestamp(now);
  return {
    id: deliveryIdFor(event.id, endpointId),
    eventId: event.id,
    eventType: event.type,
    eventCreatedAt: event.createdAt,
    endpointId,
    accountId: event.accountId,
    environment: event.environment,
    status: 'pending',
    attemptCount: 0,
    // Picked up by the retry function if the first attempt is never made (a crash).
    nextAttemptAt: toTimestamp(new Date(now.getTime() + CLAIM_LEASE_MS)),
    attempts: [],
    createdAt: at,
    updatedAt: at,
  };
}

export interface DispatchPorts {
  eventLog: Pick<EventLog, 'get'>;
  endpoints: Pick<WebhookEndpointStore, 'get' | 'all' | 'recordOutcome'>;
  deliveries: Pick<DeliveryStore, 'ensure' | 'get' | 'reserveAttempt' | 'recordAttempt'>;
  sealer: Pick<SecretSealer, 'open'>;
  sender: WebhookSender;
  now(): Date;
}

/** The secrets that sign now: the current one, then the previous one until it expires. */
export async function signingSecrets(
  endpoint: WebhookEndpointRecord,
  sealer: Pick<SecretSealer, 'open'>,
  now: Date,
): Promise<string[]> {
  const live = endpoint.secrets.filter(
    (secret) => secret.expiresAt === null || Date.parse(secret.expiresAt) > now.getTime(),
  );
  const binding = { accountId: endpoint.accountId, endpointId: endpoint.id };
  return Promise.all(live.map((secret) => sealer.open(secret.sealed, binding)));
}

/** The request of one attempt (spec 6.2): same body every time, a fresh timestamp. */
export function attemptRequest(
  event: EventRecord,
  url: string,
  secrets: readonly string[],
  attempt: number,
  now: Date,
) {
  const body = JSON.stringify(eventBody(event));
  return {
    url,
    body,
    headers: {
      [SIGNATURE_HEADER]: signatureHeader(secrets, Math.floor(now.getTime() / 1000), body),
      'svc-event-id': event.id,
      'svc-delivery-attempt': String(attempt),
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': USER_AGENT,
    },
  };
}

export type AttemptOutcome = 'succeeded' | 'failed' | 'skipped';

/**
 * One attempt of a delivery. A scheduled attempt of a delivery no longer pending is skipped (a
 * redelivered message); a manual one (resend) is always made, after the window too.
 */
export async function attemptDelivery(
  ports: DispatchPorts,
  message: { eventId: string; endpointId: string; manual?: boolean; attempt?: number },
): Promise<AttemptOutcome> {
  const manual = message.manual === true;
  const { eventId, endpointId } = message;
  const read = await ports.deliveries.get(eventId, endpointId);
  if (!read || (!manual && read.status !== 'pending')) return 'skipped';
  const delivery = await ports.deliveries.reserveAttempt(
    eventId,
    endpointId,
    manual ? undefined : { attemptCount: (message.attempt ?? read.attemptCount + 1) - 1 },
  );
  if (!delivery) return 'skipped';
  const attemptNumber = delivery.attemptCount;
  const started = ports.now();
  const at = toTimestamp(started);
  const endpoint = await ports.endpoints.get(endpointId);
  const event = await ports.eventLog.get(eventId);
  if (endpoint?.status !== 'enabled' || !event) {
    const why = !event
      ? 'the event is no longer kept'
      : !endpoint
        ? 'the endpoint was deleted'
        : 'the endpoint is disabled';
    const attempt: DeliveryAttempt = {
      attempt: attemptNumber,
      at,
      statusCode: null,
      latencyMs: 0,
      responseBody: null,
      error: `not sent: ${why}`,
      manual,
    };
    await ports.deliveries.recordAttempt(eventId, endpointId, attempt, {
      status: 'failed',
      nextAttemptAt: null,
    });
    return 'failed';
  }
  const secrets = await signingSecrets(endpoint, ports.sealer, started);
  const response = await ports.sender.send(
    attemptRequest(event, endpoint.url, secrets, attemptNumber, started),
  );
  const ok = response.statusCode !== null && response.statusCode >= 200 && response.statusCode < 300;
  putMetric(WEBHOOK_METRICS.webhookAttempts, { outcome: ok ? 'succeeded' : 'failed' });
  const next = ok ? null : nextAttemptAfter(attemptNumber, started, event.createdAt);
  const recorded = await ports.deliveries.recordAttempt(
    eventId,
    endpointId,
    {
      attempt: attemptNumber,
      at,
      statusCode: response.statusCode,
      latencyMs: response.latencyMs,
      responseBody: response.body,
      error: response.error,
      manual,
    },
    {
      status: ok ? 'succeeded' : next ? 'pending' : 'failed',
      nextAttemptAt: next ? toTimestamp(next) : null,
    },
  );
  if (recorded) await ports.endpoints.recordOutcome(endpoint.id, { ok, at });
  return ok ? 'succeeded' : 'failed';
}

/**
 * An event from the bus: a delivery for every subscribed endpoint, and its first attempt at
 * once. The attempts run side by side, so a slow endpoint delays no other.
 */
export async function fanOut(ports: DispatchPorts, eventId: string) {
  const event = await ports.eventLog.get(eventId);
  if (!event) return { deliveries: 0 };
  const endpoints = (await ports.endpoints.all(event.accountId, event.environment)).filter((endpoint) =>
    subscribes(endpoint, event.type),
  );
  const results = await Promise.allSettled(
    endpoints.map(async (endpoint) => {
      const delivery = await ports.deliveries.ensure(newDelivery(event, endpoint.id, ports.now()));
      if (delivery.status === 'pending' && delivery.attemptCount === 0) {
        await attemptDelivery(ports, { eventId: event.id, endpointId: endpoint.id, attempt: 1 });
      }
    }),
  );
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
  return { deliveries: endpoints.length };
}

/** A dispatcher queue message (ours, or an EventBridge event the rule forwards). */
export function parseWebhookMessage(body: string): WebhookMessage {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const detail = parsed.detail as Record<string, unknown> | undefined;
  if (detail && typeof detail.id === 'string') return { kind: 'event', id: detail.id };
  if (parsed.kind === 'event' && typeof parsed.id === 'string') return { kind: 'event', id: parsed.id };
  if (
    parsed.kind === 'attempt' &&
    typeof parsed.eventId === 'string' &&
    typeof parsed.endpointId === 'string'
  ) {
    return {
      kind: 'attempt',
      eventId: parsed.eventId,
      endpointId: parsed.endpointId,
      ...(parsed.manual === true ? { manual: true } : {}),
      ...(typeof parsed.attempt === 'number' ? { attempt: parsed.attempt } : {}),
    };
  }
  throw new Error(`not a webhook message: ${body.slice(0, 200)}`);
}

export const dispatch = (ports: DispatchPorts, message: WebhookMessage) =>
  message.kind === 'event' ? fanOut(ports, message.id) : attemptDelivery(ports, message);

/** The retry function (every minute): due attempts back on the dispatcher queue. */
export async function sendDueRetries(
  ports: { deliveries: Pick<DeliveryStore, 'claimDue'>; queue: WebhookQueue; now(): Date },
  limit = 500,
) {
  const now = ports.now();
  const due = await ports.deliveries.claimDue(
    toTimestamp(now),
    toTimestamp(new Date(now.getTime() + CLAIM_LEASE_MS)),
    limit,
  );
  await ports.queue.send(due.map((d) => ({ kind: 'attempt' as const, ...d })));
  return { queued: due.length };
}
