import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoEventLog } from '../../../shared/adapters/dynamodb/events.ts';
import { allTables, tableDefinitions } from '../../../shared/kernel/infra/tables.ts';
import { setMetricSink } from '../../../shared/kernel/metric-line.ts';
import { AesGcmSealer } from '../../../shared/webhooks/adapters/aes-sealer.ts';
import {
  DynamoDeliveryStore,
  DynamoWebhookEndpointStore,
} from '../../../shared/webhooks/adapters/dynamodb.ts';
import { dispatch, newDelivery, sendDueRetries } from '../../../shared/webhooks/dispatch.ts';
import type { EventRecord, EventType } from '../../../shared/webhooks/event-port.ts';
import { publishMissed, publishRecorded } from '../../../shared/webhooks/publish.ts';
import type {
  WebhookEndpointRecord,
  WebhookMessage,
  WebhookRequest,
  WebhookResponse,
} from '../../../shared/webhooks/store-port.ts';
import { fileTables, SHARED_DYNAMO_WAIT_MS } from '../../support/dynamo.ts';

/** The webhook stores and the dispatcher against DynamoDB Local, with a scripted sender. */

const tables = fileTables(allTables);
const table = tables.name(tableDefinitions.main);
const endpoints = new DynamoWebhookEndpointStore(table);
const deliveries = new DynamoDeliveryStore(table);
const eventLog = new DynamoEventLog<EventType>(table);
const sealer = new AesGcmSealer(Buffer.alloc(32, 1));

beforeAll(() => tables.create(), SHARED_DYNAMO_WAIT_MS);

afterAll(async () => {
  await tables.remove();
});

afterEach(() => {
  setMetricSink(undefined);
});

const account = () => `acct_${randomUUID().slice(0, 8)}`;
const T0 = new Date('2026-03-01T00:00:00Z');

const endpointId = () => `we_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

async function endpointFor(accountId: string, overrides: Partial<WebhookEndpointRecord> = {}) {
  const id = overrides.id ?? endpointId();
  const endpoint: WebhookEndpointRecord = {
    id,
    accountId,
    environment: 'test',
    url: 'https://hooks.example.com/x',
    enabledEvents: ['*'],
    description: null,
    status: 'enabled',
    disabledReason: null,
    secrets: [
      {
        sealed: await sealer.seal('whsec_one', { accountId, endpointId: id }),
        createdAt: '2026-03-01T00:00:00Z',
        expiresAt: null,
      },
    ],
    stats: {
      succeeded: 0,
      failed: 0,
      lastSucceededAt: null,
      lastFailedAt: null,
      consecutiveFailures: 0,
      failingSince: null,
    },
    createdAt: '2026-03-01T00:00:00Z',
    updatedAt: '2026-03-01T00:00:00Z',
    ...overrides,
  };
  expect(await endpoints.create(endpoint)).toBe(true);
  return endpoint;
}

async function eventFor(accountId: string, type: EventRecord['type'] = 'order.ready'): Promise<EventRecord> {
  const event: EventRecord = {
    id: `evt_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    type,
    createdAt: '2026-03-01T00:00:00Z',
    livemode: false,
    accountId,
    environment: 'test',
    data: { object: 'order', id: 'ord_1' },
    publishedAt: '2026-03-01T00:00:00Z',
  };
  await eventLog.record(event);
  return event;
}

function portsWith(answer: (request: WebhookRequest) => WebhookResponse, clock: { now: Date }) {
  const sent: WebhookRequest[] = [];
  return {
    sent,
    ports: {
      eventLog,
      endpoints,
      deliveries,
      sealer,
      sender: {
        send: async (request: WebhookRequest) => {
          sent.push(request);
          return answer(request);
        },
      },
      now: () => clock.now,
    },
  };
}

const ok = (): WebhookResponse => ({ statusCode: 200, latencyMs: 3, body: 'ok', error: null });
const refused = (): WebhookResponse => ({
  statusCode: null,
  latencyMs: 1,
  body: null,
  error: 'ECONNREFUSED',
});

describe('endpoints', () => {
  it('allows 16 per account and environment, counted in the create transaction, and frees one on delete', async () => {
    const accountId = account();
    const made: WebhookEndpointRecord[] = [];
    for (let i = 0; i < 16; i++) made.push(await endpointFor(accountId));
    const another = () => ({
      ...(made[0] as WebhookEndpointRecord),
      id: `we_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    });
    expect(await endpoints.create(another())).toBe(false);
    await endpoints.delete(made[0] as WebhookEndpointRecord);
    // A retried delete takes the count down once.
    await endpoints.delete(made[0] as WebhookEndpointRecord);
    expect(await endpoints.create(another())).toBe(true);
    expect(await endpoints.create(another())).toBe(false);
    expect(await endpoints.all(accountId, 'test')).toHaveLength(16);
    expect(await endpoints.all(accountId, 'live')).toHaveLength(0);
  });

  it('is disabled, with its reason, once every delivery has failed for 5 days', async () => {
    const endpoint = await endpointFor(account());
    await endpoints.recordOutcome(endpoint.id, { ok: false, at: '2026-03-01T00:00:00Z' });
    await endpoints.recordOutcome(endpoint.id, { ok: false, at: '2026-03-05T23:59:00Z' });
    const before = await endpoints.get(endpoint.id);
    await endpoints.recordOutcome(endpoint.id, { ok: false, at: '2026-03-06T00:00:00Z' });
    const after = await endpoints.get(endpoint.id);
    expect(before?.status).toBe('enabled');
    expect(before?.stats).toMatchObject({
      failed: 2,
      consecutiveFailures: 2,
      failingSince: '2026-03-01T00:00:00Z',
    });
    expect(after?.status).toBe('disabled');
    expect(after?.disabledReason).toContain('5 days');
  });

  it('a success ends the run of failures', async () => {
    const endpoint = await endpointFor(account());
    await endpoints.recordOutcome(endpoint.id, { ok: false, at: '2026-03-01T00:00:00Z' });
    await endpoints.recordOutcome(endpoint.id, { ok: true, at: '2026-03-04T00:00:00Z' });
    await endpoints.recordOutcome(endpoint.id, { ok: false, at: '2026-03-06T00:00:00Z' });
    expect((await endpoints.get(endpoint.id))?.stats).toStrictEqual({
      succeeded: 1,
      failed: 2,
      lastSucceededAt: '2026-03-04T00:00:00Z',
      lastFailedAt: '2026-03-06T00:00:00Z',
      consecutiveFailures: 1,
      failingSince: '2026-03-06T00:00:00Z',
    });
    expect((await endpoints.get(endpoint.id))?.status).toBe('enabled');
  });
});

describe('dispatcher', () => {
  it('makes one delivery per subscribed endpoint, and a redelivered event message makes no second', async () => {
    const accountId = account();
    const all = await endpointFor(accountId);
    const ready = await endpointFor(accountId, { enabledEvents: ['order.ready'] });
    await endpointFor(accountId, { enabledEvents: ['order.failed'] });
    await endpointFor(accountId, { status: 'disabled', disabledReason: 'x' });
    const event = await eventFor(accountId);
    const clock = { now: T0 };
    const { sent, ports } = portsWith(ok, clock);
    const message: WebhookMessage = { kind: 'event', id: event.id };

    const names = new Map([
      [all.id, 'all'],
      [ready.id, 'ready'],
    ]);
    const stored = async () =>
      (await deliveries.forEvent(event.id, { limit: 10 })).items
        .map((d) => `${names.get(d.endpointId) ?? d.endpointId} ${d.status} ${d.attemptCount}`)
        .sort();
    await dispatch(ports, message);
    const first = { sends: sent.length, deliveries: await stored() };
    await dispatch(ports, message);

    // Both dispatches' outcomes at once, so that a failure shows which of them sent what.
    expect({ first, second: { sends: sent.length - first.sends, deliveries: await stored() } }).toStrictEqual(
      {
        first: { sends: 2, deliveries: ['all succeeded 1', 'ready succeeded 1'] },
        second: { sends: 0, deliveries: ['all succeeded 1', 'ready succeeded 1'] },
      },
    );
    expect(sent.map((r) => r.headers['svc-delivery-attempt'])).toStrictEqual(['1', '1']);
    expect(new Set(sent.map((r) => r.url)).size).toBe(1);
  });

  it('counts each attempt it makes as a WebhookAttempts metric by outcome', async () => {
    const lines: Record<string, unknown>[] = [];
    // The WebhookAttempts lines (the dispatch's DynamoDB calls write DependencyLatency lines too).
    setMetricSink((line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if ('WebhookAttempts' in parsed) lines.push(parsed);
    });
    const accountId = account();
    await endpointFor(accountId);
    const clock = { now: T0 };
    await dispatch(portsWith(ok, clock).ports, { kind: 'event', id: (await eventFor(accountId)).id });
    await dispatch(portsWith(refused, clock).ports, { kind: 'event', id: (await eventFor(accountId)).id });
    expect(lines.map((line) => [line.outcome, line.WebhookAttempts])).toEqual([
      ['succeeded', 1],
      ['failed', 1],
    ]);
    expect(lines[0]?._aws).toMatchObject({
      CloudWatchMetrics: [
        { Dimensions: [['outcome']], Metrics: [{ Name: 'WebhookAttempts', Unit: 'Count' }] },
      ],
    });
  });

  it('schedules the retry, which the retry function claims once and sends to the queue', async () => {
    const accountId = account();
    const endpoint = await endpointFor(accountId);
    const event = await eventFor(accountId);
    const clock = { now: T0 };
    const { ports } = portsWith(refused, clock);
    await dispatch(ports, { kind: 'event', id: event.id });
    const queued: WebhookMessage[] = [];
    const queue = { send: async (messages: readonly WebhookMessage[]) => void queued.push(...messages) };

    const early = await sendDueRetries({ deliveries, queue, now: () => new Date(T0.getTime() + 59_000) });
    const due = await sendDueRetries({ deliveries, queue, now: () => new Date(T0.getTime() + 60_000) });
    const again = await sendDueRetries({ deliveries, queue, now: () => new Date(T0.getTime() + 61_000) });

    expect([early.queued, again.queued]).toStrictEqual([0, 0]);
    expect(due.queued).toBeGreaterThanOrEqual(1);
    expect(queued).toContainEqual({
      kind: 'attempt',
      eventId: event.id,
      endpointId: endpoint.id,
      attempt: 2,
    });
    const delivery = await deliveries.get(event.id, endpoint.id);
    expect(delivery?.attempts[0]).toMatchObject({
      attempt: 1,
      statusCode: null,
      error: 'ECONNREFUSED',
      manual: false,
    });
  });

  it('sends and records an attempt once when the same attempt message is handled twice', async () => {
    const accountId = account();
    const endpoint = await endpointFor(accountId);
    const event = await eventFor(accountId);
    await deliveries.ensure(newDelivery(event, endpoint.id, T0));
    const clock = { now: T0 };
    let release: () => void = () => undefined;
    const gate = new Promise<void>((done) => {
      release = done;
    });
    const { sent, ports } = portsWith(ok, clock);
    const slow = {
      ...ports,
      sender: {
        send: async (request: WebhookRequest) => {
          await gate;
          return ports.sender.send(request);
        },
      },
    };
    const message: WebhookMessage = {
      kind: 'attempt',
      eventId: event.id,
      endpointId: endpoint.id,
      attempt: 1,
    };

    const first = dispatch(slow, message);
    const second = dispatch(ports, message);
    await second;
    release();
    await first;

    // The copy took no attempt number, so it sent nothing; the attempt was recorded and counted once.
    expect(sent).toHaveLength(1);
    const delivery = await deliveries.get(event.id, endpoint.id);
    expect(delivery?.attemptCount).toBe(1);
    expect((await endpoints.get(endpoint.id))?.stats.succeeded).toBe(1);
  });

  it('signs with both secrets while the old one has not expired', async () => {
    const accountId = account();
    const id = endpointId();
    const binding = { accountId, endpointId: id };
    const endpoint = await endpointFor(accountId, {
      id,
      secrets: [
        {
          sealed: await sealer.seal('whsec_new', binding),
          createdAt: '2026-03-01T00:00:00Z',
          expiresAt: null,
        },
        {
          sealed: await sealer.seal('whsec_old', binding),
          createdAt: '2026-02-01T00:00:00Z',
          expiresAt: '2026-03-02T00:00:00Z',
        },
      ],
    });
    const event = await eventFor(accountId);
    const clock = { now: T0 };
    const { sent, ports } = portsWith(ok, clock);
    await dispatch(ports, { kind: 'event', id: event.id });
    clock.now = new Date('2026-03-02T00:00:01Z');
    await dispatch(ports, { kind: 'attempt', eventId: event.id, endpointId: endpoint.id, manual: true });

    expect(sent.map((r) => r.headers['svc-signature']?.split(',').length)).toStrictEqual([3, 2]);
    expect(sent[0]?.body).toBe(sent[1]?.body);
  });
});

describe('events recorded but not published', () => {
  it('are published by the sweeper once the run that recorded them has had a minute, then never again', async () => {
    const accountId = account();
    const event: EventRecord = {
      ...(await eventFor(accountId)),
      id: `evt_${randomUUID().slice(0, 8)}`,
      createdAt: '2000-01-01T00:00:00Z',
      publishedAt: null,
    };
    await eventLog.record(event);
    const published: string[] = [];
    const events = { publish: async (e: { id: string }) => void published.push(e.id) };
    const at = (iso: string) => ({ eventLog, events, now: () => new Date(iso) });

    await publishMissed(at('2000-01-01T00:00:30Z'));
    const early = [...published];
    await publishMissed(at('2000-01-01T00:01:01Z'));
    await publishMissed(at('2000-01-01T00:02:00Z'));
    const direct = await publishRecorded(at('2000-01-01T00:03:00Z'), event.id);

    expect(early).not.toContain(event.id);
    expect(published.filter((id) => id === event.id)).toStrictEqual([event.id]);
    expect(direct).toBe(true);
    expect((await eventLog.get(event.id))?.publishedAt).toBe('2000-01-01T00:01:01Z');
  });
});
