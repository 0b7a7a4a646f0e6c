import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../shared/webhooks/verify.ts';
import { call, clock, createKey, expectError, type TestKey, validationError } from '../support/api.ts';
import { type OrderBody, waitForExecution } from '../support/orders.ts';
import { type Receiver, runRetries, startReceiver, webhooksIdle } from '../support/webhooks.ts';

/**
 * Webhooks end to end against the local stack: endpoints through the API, real HTTPS receivers
 * on loopback (the stack trusts their self-signed certificate and allows loopback only by its
 * configuration), signatures checked by the `stripe` package and by our verifyWebhook, retries
 * on the local clock, rotation, resend, and the event log's reads.
 */

interface EndpointBody {
  object: 'webhookEndpoint';
  id: string;
  url: string;
  enabledEvents: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  livemode: boolean;
  secret?: string;
  stats: {
    succeeded: number;
    failed: number;
    lastSucceededAt: string | null;
    lastFailedAt: string | null;
    consecutiveFailures: number;
  };
}

interface DeliveryBody {
  id: string;
  eventId: string;
  endpointId: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: {
    attempt: number;
    statusCode: number | null;
    latencyMs: number;
    responseBody: string | null;
    error: string | null;
    manual: boolean;
  }[];
}

const stripe = new Stripe('sk_test_unused');
const receivers: Receiver[] = [];

async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

async function createEndpoint(key: TestKey, body: Record<string, unknown>) {
  const response = await call<EndpointBody>('/v1/webhook-endpoints', {
    key: key.secret,
    method: 'POST',
    body,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function orderCharges(key: TestKey, headers: Record<string, string> = {}) {
  const response = await call<OrderBody>('/v1/companies/990000158/charges/extract-orders', {
    key: key.secret,
    method: 'POST',
    body: { delivery: { method: 'email', email: 'webhooks@example.com' } },
    headers,
  });
  expect(response.status, response.text).toBe(202);
  return response.body;
}

const deliveriesOf = async (key: TestKey, endpointId: string) =>
  (
    await call<{ data: DeliveryBody[] }>(`/v1/webhook-endpoints/${endpointId}/deliveries`, {
      key: key.secret,
    })
  ).body.data;

const sendTest = async (key: TestKey, endpointId: string) => {
  const response = await call<{ id: string; type: string }>(`/v1/webhook-endpoints/${endpointId}/test`, {
    key: key.secret,
    method: 'POST',
  });
  expect(response.status, response.text).toBe(202);
  return response.body;
};

const nowOf = async () => new Date((await call<{ now: string }>('/__local/clock')).body.now);

afterEach(async () => {
  await clock.reset();
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

describe('order events delivered to a subscriber', () => {
  let key: TestKey;
  let hook: Receiver;
  let endpoint: EndpointBody;

  beforeAll(async () => {
    key = await createKey('test');
    hook = await receiver();
    endpoint = await createEndpoint(key, { url: hook.url, enabledEvents: ['order.ready', 'order.failed'] });
  });

  it('delivers order.ready, signed as spec 6.3 says (stripe verifies it), with the webhook view of the order', async () => {
    // Act
    const order = await orderCharges(key);
    await waitForExecution(order.id, 25_000);
    const [delivery] = await hook.waitFor(1);

    // Assess
    const event = stripe.webhooks.constructEvent(
      delivery?.rawBody as string,
      delivery?.headers['svc-signature'] as string,
      endpoint.secret as string,
    ) as unknown as { id: string; type: string; data: Record<string, unknown> };
    expect(event.type).toBe('order.ready');
    expect(delivery?.headers).toMatchObject({
      'svc-event-id': event.id,
      'svc-delivery-attempt': '1',
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'svc-webhooks/1',
    });
    expect(Object.keys(delivery?.body ?? {})).toStrictEqual(['id', 'type', 'createdAt', 'livemode', 'data']);
    expect(delivery?.body.livemode).toBe(false);
    expect(delivery?.body.data).toMatchObject({
      object: 'order',
      id: order.id,
      status: 'delivered',
      delivery: { method: 'email', email: 'webhooks@example.com' },
    });
    expect(Object.keys(delivery?.body.data ?? {})).toStrictEqual([
      'object',
      'id',
      'type',
      'status',
      'documents',
      'delivery',
      'downloadUrl',
      'registryRequestIds',
      'createdAt',
      'readyAt',
    ]);
    expect(Object.keys(delivery?.body.data.delivery as object)).toStrictEqual(['method', 'email']);
    // The event log shows the same event.
    const read = await call<Record<string, unknown>>(`/v1/events/${event.id}`, { key: key.secret });
    expect(read.status).toBe(200);
    const { meta: _meta, ...shown } = read.body;
    expect(shown).toStrictEqual({ object: 'event', ...delivery?.body });
    const listed = await call<{ data: { id: string }[] }>('/v1/events?type=order.ready', { key: key.secret });
    expect(listed.body.data.map((e) => e.id)).toStrictEqual([event.id]);
  });

  it('delivers order.failed for X-Sandbox-Simulate: order_failed, with the failure', async () => {
    // Act
    const order = await orderCharges(key, { 'X-Sandbox-Simulate': 'order_failed' });
    await waitForExecution(order.id, 25_000);
    const all = await hook.waitFor(2);
    const delivery = all.find((d) => d.body.data.id === order.id);

    // Assess
    expect(delivery?.body.type).toBe('order.failed');
    expect(delivery?.body.data).toMatchObject({ status: 'failed', failure: { code: expect.any(String) } });
    expect(
      verifyWebhook(delivery?.rawBody as string, delivery?.headers['svc-signature'] as string, [
        endpoint.secret as string,
      ]).id,
    ).toBe(delivery?.body.id);
    await webhooksIdle();
    const endpointNow = await call<EndpointBody>(`/v1/webhook-endpoints/${endpoint.id}`, { key: key.secret });
    expect(endpointNow.body.stats).toMatchObject({ succeeded: 2, failed: 0, consecutiveFailures: 0 });
    expect(endpointNow.body.secret).toBeUndefined();
  });

  it('resends an event with the same id, after the retry window too', async () => {
    // Prepare
    const first = hook.received[0];
    const eventId = first?.body.id as string;
    await clock.advance(25 * 3600_000);
    await webhooksIdle();
    // Counted before the resend: it may arrive before the resend's own answer.
    const received = hook.received.length;

    // Act
    const response = await call<{ data: DeliveryBody[] }>(`/v1/events/${eventId}/resend`, {
      key: key.secret,
      method: 'POST',
      body: { endpointId: endpoint.id },
    });
    const again = (await hook.waitFor(received + 1)).at(-1);

    // Assess
    expect(response.status, response.text).toBe(202);
    expect(again?.body.id).toBe(eventId);
    expect(again?.rawBody).toBe(first?.rawBody);
    expect(again?.headers['svc-delivery-attempt']).toBe('2');
    await webhooksIdle();
    expect(hook.received.length).toBe(received + 1);
  });
});

describe('retries', () => {
  it('retries a failing receiver on the schedule of the local clock, same event id, attempts counting up', async () => {
    // Prepare: fails twice, then answers 204
    const key = await createKey('test');
    const hook = await receiver((n) => (n <= 2 ? 500 : 204));
    const endpoint = await createEndpoint(key, { url: hook.url, enabledEvents: ['*'] });

    // Act
    const event = await sendTest(key, endpoint.id);
    await hook.waitFor(1);
    await runRetries();
    const early = hook.received.length;
    await clock.advance(61_000);
    await runRetries();
    await hook.waitFor(2);
    await clock.advance(4 * 60_000);
    await runRetries();
    const beforeFive = hook.received.length;
    await clock.advance(61_000);
    await runRetries();
    await hook.waitFor(3);
    await webhooksIdle();

    // Assess
    expect(early).toBe(1);
    expect(beforeFive).toBe(2);
    expect(hook.received.map((r) => [r.body.id, r.headers['svc-delivery-attempt']])).toStrictEqual([
      [event.id, '1'],
      [event.id, '2'],
      [event.id, '3'],
    ]);
    const [delivery] = await deliveriesOf(key, endpoint.id);
    expect(delivery).toMatchObject({
      eventId: event.id,
      status: 'succeeded',
      attemptCount: 3,
      nextAttemptAt: null,
    });
    expect(delivery?.attempts.map((a) => a.statusCode)).toStrictEqual([500, 500, 204]);
    expect(delivery?.attempts[0]?.responseBody).toBe('failing on purpose (500)');
    const shown = await call<EndpointBody>(`/v1/webhook-endpoints/${endpoint.id}`, { key: key.secret });
    expect(shown.body.stats).toMatchObject({ succeeded: 1, failed: 2, consecutiveFailures: 0 });
  });

  it('gives up 24 hours after the event, and recover sends the failed delivery again', async () => {
    // Prepare
    const key = await createKey('test');
    let failing = true;
    const hook = await receiver(() => (failing ? 503 : 200));
    const endpoint = await createEndpoint(key, { url: hook.url, enabledEvents: ['*'] });
    const since = (await nowOf()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await sendTest(key, endpoint.id);
    await hook.waitFor(1);
    // The first attempt's outcome (and so its retry time) is recorded before the clock moves.
    await webhooksIdle();

    // Act: 1 min, 5 min, 30 min, 2 h, 6 h, then 6-hourly until 24 h
    for (const ms of [
      61_000,
      5 * 60_000,
      30 * 60_000,
      2 * 3600_000,
      6 * 3600_000,
      6 * 3600_000,
      6 * 3600_000,
      6 * 3600_000,
    ]) {
      await clock.advance(ms);
      await runRetries();
    }
    await webhooksIdle();
    const [delivery] = await deliveriesOf(key, endpoint.id);
    // Counted before the recover: its resend may arrive before the recover's own answer.
    const attemptsReceived = hook.received.length;
    failing = false;
    const recovered = await call<{ resent: number }>(`/v1/webhook-endpoints/${endpoint.id}/recover`, {
      key: key.secret,
      method: 'POST',
      body: { since },
    });
    await hook.waitFor(attemptsReceived + 1);
    await webhooksIdle();

    // Assess
    // At 0, 1 min, 6 min, 36 min, 2 h 36, 8 h 36, 14 h 36 and 20 h 36; the next (26 h 36) is past the window.
    expect(delivery?.status).toBe('failed');
    expect(delivery?.attempts.length).toBe(8);
    expect([attemptsReceived, hook.received.length]).toStrictEqual([8, 9]);
    expect(delivery?.nextAttemptAt).toBeNull();
    expect(recovered.status, recovered.text).toBe(202);
    expect(recovered.body.resent).toBe(1);
    expect((await deliveriesOf(key, endpoint.id))[0]?.status).toBe('succeeded');
  });

  it('a receiver that never answers does not delay another endpoint', async () => {
    // Prepare
    const key = await createKey('test');
    const dead = await receiver(() => 'hang');
    const live = await receiver();
    await createEndpoint(key, { url: dead.url, enabledEvents: ['order.ready'] });
    await createEndpoint(key, { url: live.url, enabledEvents: ['order.ready'] });

    // Act
    const order = await orderCharges(key);
    await waitForExecution(order.id, 25_000);
    const started = Date.now();
    await live.waitFor(1, 5_000);

    // Assess: well under the 10 s the dead one is given
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(dead.received.length).toBeLessThanOrEqual(1);

    // Cleanup: the dead receiver's connection closed, its attempt ends now rather than after its
    // 10 s, which the next tests' waits for an idle dispatcher would otherwise sit out.
    await dead.close();
    await webhooksIdle();
  });
});

describe('resends and recoveries at the same time', () => {
  it('concurrent resends: every attempt recorded, numbered once each, and counted in the stats', async () => {
    // Prepare
    const key = await createKey('test');
    const hook = await receiver(() => 200);
    const endpoint = await createEndpoint(key, { url: hook.url, enabledEvents: ['*'] });
    const event = await sendTest(key, endpoint.id);
    await hook.waitFor(1);
    await webhooksIdle();

    // Act
    const responses = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(`/v1/events/${event.id}/resend`, {
          key: key.secret,
          method: 'POST',
          body: { endpointId: endpoint.id },
        }),
      ),
    );
    const accepted = responses.filter((response) => response.status === 202).length;
    await hook.waitFor(1 + accepted);
    await webhooksIdle();

    // Assess
    expect(responses.map((response) => response.status).filter((status) => status !== 202)).toStrictEqual([]);
    expect(hook.received).toHaveLength(13);
    const sentNumbers = hook.received.map((r) => Number(r.headers['svc-delivery-attempt']));
    const all = Array.from({ length: 13 }, (_, i) => i + 1);
    expect([...sentNumbers].sort((a, b) => a - b)).toStrictEqual(all);
    const [delivery] = await deliveriesOf(key, endpoint.id);
    expect(delivery?.attemptCount).toBe(13);
    expect(delivery?.attempts.map((a) => a.attempt)).toStrictEqual(all);
    expect(delivery?.attempts.filter((a) => a.manual)).toHaveLength(12);
    expect(delivery?.status).toBe('succeeded');
    const shown = await call<EndpointBody>(`/v1/webhook-endpoints/${endpoint.id}`, { key: key.secret });
    expect(shown.body.stats).toMatchObject({ succeeded: 13, failed: 0 });
  });

  it('concurrent recovers send a failed delivery again once: one that is back in flight is not failed for good', async () => {
    // Prepare: the first attempt fails, the second (past the 24-hour window) fails for good
    const key = await createKey('test');
    let failing = true;
    const hook = await receiver(() => (failing ? 503 : 200));
    const endpoint = await createEndpoint(key, { url: hook.url, enabledEvents: ['*'] });
    const since = (await nowOf()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await sendTest(key, endpoint.id);
    await hook.waitFor(1);
    await webhooksIdle();
    await clock.advance(25 * 3600_000);
    await runRetries();
    await hook.waitFor(2);
    await webhooksIdle();
    const [failed] = await deliveriesOf(key, endpoint.id);
    failing = false;

    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        call<{ resent: number }>(`/v1/webhook-endpoints/${endpoint.id}/recover`, {
          key: key.secret,
          method: 'POST',
          body: { since },
        }),
      ),
    );
    await hook.waitFor(3);
    await webhooksIdle();
    await new Promise((done) => setTimeout(done, 500));
    await webhooksIdle();

    // Assess
    expect(failed?.status).toBe('failed');
    expect(responses.map((response) => response.status)).toStrictEqual(Array(10).fill(202));
    expect(responses.reduce((sum, response) => sum + response.body.resent, 0)).toBe(1);
    expect(hook.received).toHaveLength(3);
    const [recovered] = await deliveriesOf(key, endpoint.id);
    expect(recovered?.status).toBe('succeeded');
    expect(recovered?.attempts.map((a) => [a.attempt, a.statusCode, a.manual])).toStrictEqual([
      [1, 503, false],
      [2, 503, false],
      [3, 200, true],
    ]);
  });
});

describe('secret rotation', () => {
  it('signs with the new and the old secret for 24 hours, then with the new one only', async () => {
    // Prepare
    const key = await createKey('test');
    const hook = await receiver();
    const endpoint = await createEndpoint(key, { url: hook.url, enabledEvents: ['*'] });
    const old = endpoint.secret as string;

    // Act
    const rotated = await call<EndpointBody>(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      key: key.secret,
      method: 'POST',
    });
    await sendTest(key, endpoint.id);
    const [during] = await hook.waitFor(1);
    await clock.advance(24 * 3600_000 + 60_000);
    await sendTest(key, endpoint.id);
    const after = (await hook.waitFor(2))[1];

    // Assess
    const fresh = rotated.body.secret as string;
    expect(rotated.status).toBe(200);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    const header = during?.headers['svc-signature'] as string;
    expect(header.split(',').filter((p) => p.startsWith('v1='))).toHaveLength(2);
    expect(stripe.webhooks.constructEvent(during?.rawBody as string, header, fresh)).toBeTruthy();
    expect(stripe.webhooks.constructEvent(during?.rawBody as string, header, old)).toBeTruthy();
    const now = await nowOf();
    const later = after?.headers['svc-signature'] as string;
    expect(later.split(',').filter((p) => p.startsWith('v1='))).toHaveLength(1);
    expect(verifyWebhook(after?.rawBody as string, later, [fresh], { now }).type).toBe(
      'webhook_endpoint.test',
    );
    expect(() => verifyWebhook(after?.rawBody as string, later, [old], { now })).toThrow(
      /no v1 signature matches/,
    );
  });
});

describe('endpoint management', () => {
  let key: TestKey;
  let other: TestKey;
  let live: TestKey;

  beforeAll(async () => {
    key = await createKey('test');
    other = await createKey('test');
    live = await createKey('live', { accountId: key.accountId });
  });

  it('creates, lists, reads, changes and deletes; the secret is shown once', async () => {
    // Act
    const created = await createEndpoint(key, {
      url: 'https://hooks.example.com/crds',
      enabledEvents: ['order.ready'],
      description: 'orders',
    });
    const read = await call<EndpointBody>(`/v1/webhook-endpoints/${created.id}`, { key: key.secret });
    const patched = await call<EndpointBody>(`/v1/webhook-endpoints/${created.id}`, {
      key: key.secret,
      method: 'PATCH',
      body: { enabledEvents: ['*'], status: 'disabled', description: null },
    });
    const listed = await call<{ data: EndpointBody[] }>('/v1/webhook-endpoints', { key: key.secret });
    const deleted = await call(`/v1/webhook-endpoints/${created.id}`, { key: key.secret, method: 'DELETE' });
    const gone = await call(`/v1/webhook-endpoints/${created.id}`, { key: key.secret });

    // Assess
    expect(created).toMatchObject({
      object: 'webhookEndpoint',
      url: 'https://hooks.example.com/crds',
      enabledEvents: ['order.ready'],
      description: 'orders',
      status: 'enabled',
      livemode: false,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    expect(read.body.secret).toBeUndefined();
    expect(patched.body).toMatchObject({ enabledEvents: ['*'], status: 'disabled', description: null });
    expect(patched.body.disabledReason).toEqual(expect.any(String));
    expect(listed.body.data.map((e) => e.id)).toStrictEqual([created.id]);
    expect(deleted.status).toBe(200);
    expectError(gone, 404, {
      type: 'not_found_error',
      code: 'webhook_endpoint_not_found',
      param: 'endpointId',
    });
  });

  it('a change or a rotation racing the deletion of the endpoint answers it or 404, never 500', async () => {
    // Prepare: its own key, so the rounds do not compete with other tests for the in-flight limit
    const racer = await createKey('test');
    const answers: { status: number; code?: string; param?: string | null }[] = [];

    // Act: each round deletes an endpoint while changes and rotations of it are in flight
    for (let round = 0; round < 6; round++) {
      const { id } = await createEndpoint(racer, {
        url: 'https://hooks.example.com/race',
        enabledEvents: ['*'],
      });
      const path = `/v1/webhook-endpoints/${id}`;
      const change = (n: number) =>
        n % 2 === 0
          ? call(path, { key: racer.secret, method: 'PATCH', body: { description: `round ${round}.${n}` } })
          : call(`${path}/rotate-secret`, { key: racer.secret, method: 'POST' });
      const responses = await Promise.all([
        ...[0, 1, 2, 3, 4, 5].map(change),
        call(path, { key: racer.secret, method: 'DELETE' }),
        ...[6, 7, 8, 9, 10, 11].map(change),
      ]);
      for (const response of responses) {
        const error = (response.body as { error?: { code: string; param: string | null } }).error;
        answers.push({ status: response.status, ...(error ? { code: error.code, param: error.param } : {}) });
      }
    }

    // Assess
    for (const answer of answers) {
      if (answer.status !== 200) {
        expect(answer).toStrictEqual({
          status: 404,
          code: 'webhook_endpoint_not_found',
          param: 'endpointId',
        });
      }
    }
    expect(answers.filter((a) => a.status === 404).length).toBeGreaterThan(0);
  });

  it('refuses another account or environment (403) and unknown ids (404)', async () => {
    // Prepare
    const created = await createEndpoint(key, { url: 'https://hooks.example.com/a', enabledEvents: ['*'] });

    // Act / Assess
    for (const reader of [other, live]) {
      expectError(await call(`/v1/webhook-endpoints/${created.id}`, { key: reader.secret }), 403, {
        type: 'permission_error',
        code: 'webhook_endpoint_owner_mismatch',
        param: 'endpointId',
      });
    }
    expectError(await call('/v1/webhook-endpoints/we_000000000000000000000000', { key: key.secret }), 404, {
      type: 'not_found_error',
      code: 'webhook_endpoint_not_found',
      param: 'endpointId',
    });
    expectError(await call('/v1/events/evt_doesnotexist', { key: key.secret }), 404, {
      type: 'not_found_error',
      code: 'event_not_found',
      param: 'eventId',
    });
  });

  it.each([
    ['http://hooks.example.com/x', 'http'],
    ['https://169.254.169.254/latest/meta-data', 'cloud metadata'],
    ['https://10.0.0.1/x', 'private'],
    ['https://0x0a000001/x', 'hex private'],
    ['https://167772161/x', 'decimal private'],
    ['https://[fd00::1]/x', 'unique-local IPv6'],
    ['https://[::ffff:10.0.0.1]/x', 'IPv4-mapped'],
    ['not a url', 'not a URL'],
  ])('refuses url %s (%s) with 400 on url', async (url) => {
    expectError(
      await call('/v1/webhook-endpoints', {
        key: key.secret,
        method: 'POST',
        body: { url, enabledEvents: ['*'] },
      }),
      400,
      { type: 'invalid_request_error', code: 'webhook_url_not_allowed', param: 'url' },
    );
  });

  it.each([
    [{ url: 'https://h.example.com', enabledEvents: [] }, 'enabledEvents'],
    [{ url: 'https://h.example.com', enabledEvents: ['order.ready', 'order.shipped'] }, 'enabledEvents[1]'],
    [{ url: 'https://h.example.com', enabledEvents: ['*'], description: 'x'.repeat(201) }, 'description'],
    [{ url: 'https://h.example.com', enabledEvents: ['*'], secret: 'mine' }, 'secret'],
    [{ enabledEvents: ['*'] }, 'url'],
    [{ url: 'https://h.example.com' }, 'enabledEvents'],
  ])('refuses body %j with 422 on %s', async (body, param) => {
    expectError(
      await call('/v1/webhook-endpoints', { key: key.secret, method: 'POST', body }),
      422,
      validationError(param),
    );
  });

  it('refuses bad changes, resends and recoveries with the parameter named', async () => {
    const created = await createEndpoint(key, { url: 'https://hooks.example.com/b', enabledEvents: ['*'] });
    const path = `/v1/webhook-endpoints/${created.id}`;
    expectError(
      await call(path, { key: key.secret, method: 'PATCH', body: { status: 'paused' } }),
      422,
      validationError('status'),
    );
    expectError(
      await call(path, {
        key: key.secret,
        method: 'PATCH',
        body: { url: 'https://127.0.0.1.nip.io.0x7f000001/' },
      }),
      400,
      {
        type: 'invalid_request_error',
        code: 'webhook_url_not_allowed',
        param: 'url',
      },
    );
    expectError(
      await call(`${path}/recover`, { key: key.secret, method: 'POST', body: { since: 'yesterday' } }),
      422,
      validationError('since'),
    );
    for (const since of [
      '2026-02-31T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
      '2025-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
    ]) {
      expectError(
        await call(`${path}/recover`, { key: key.secret, method: 'POST', body: { since } }),
        422,
        validationError('since'),
      );
    }
    expectError(
      await call(`${path}/rotate-secret`, { key: key.secret, method: 'POST', body: { secret: 'x' } }),
      422,
      validationError('secret'),
    );
    expectError(
      await call('/v1/events?type=order.shipped', { key: key.secret }),
      422,
      validationError('type'),
    );
  });

  it('refuses bad resends, tests and delivery pages with the exact code, param and status', async () => {
    // Prepare: an event of this account, an endpoint of another
    const hook = await receiver();
    const mine = await createEndpoint(key, { url: hook.url, enabledEvents: ['*'] });
    const event = await sendTest(key, mine.id);
    const theirs = await createEndpoint(other, {
      url: 'https://hooks.example.com/other',
      enabledEvents: ['*'],
    });
    const resend = (body: unknown, id = event.id) =>
      call(`/v1/events/${id}/resend`, { key: key.secret, method: 'POST', body });

    // Act / Assess
    expectError(await resend({ endpoint: mine.id }), 422, validationError('endpoint'));
    expectError(await resend({ endpointId: 7 }), 422, validationError('endpointId'));
    expectError(await resend({ endpointId: theirs.id }), 403, {
      type: 'permission_error',
      code: 'webhook_endpoint_owner_mismatch',
      param: 'endpointId',
    });
    expectError(await resend({ endpointId: 'we_unknown' }), 404, {
      type: 'not_found_error',
      code: 'webhook_endpoint_not_found',
      param: 'endpointId',
    });
    expectError(await resend({}, 'evt_unknown'), 404, {
      type: 'not_found_error',
      code: 'event_not_found',
      param: 'eventId',
    });
    expectError(
      await call(`/v1/events/${event.id}/resend`, { key: other.secret, method: 'POST', body: {} }),
      403,
      {
        type: 'permission_error',
        code: 'event_owner_mismatch',
        param: 'eventId',
      },
    );
    expectError(
      await call(`/v1/webhook-endpoints/${mine.id}/test`, {
        key: key.secret,
        method: 'POST',
        body: { type: 'x' },
      }),
      422,
      validationError('type'),
    );
    expectError(
      await call(`/v1/webhook-endpoints/${theirs.id}/test`, { key: key.secret, method: 'POST' }),
      403,
      {
        type: 'permission_error',
        code: 'webhook_endpoint_owner_mismatch',
        param: 'endpointId',
      },
    );
    expectError(
      await call(`/v1/webhook-endpoints/${mine.id}/deliveries?limit=0`, { key: key.secret }),
      422,
      validationError('limit'),
    );
    expectError(
      await call(`/v1/events/${event.id}/deliveries?limit=101`, { key: key.secret }),
      422,
      validationError('limit'),
    );
    expectError(
      await call(`/v1/webhook-endpoints/${theirs.id}/recover`, {
        key: key.secret,
        method: 'POST',
        body: { since: '2026-01-01T00:00:00Z' },
      }),
      403,
      { type: 'permission_error', code: 'webhook_endpoint_owner_mismatch', param: 'endpointId' },
    );
    expectError(
      await call(`/v1/webhook-endpoints/${theirs.id}`, { key: key.secret, method: 'DELETE' }),
      403,
      {
        type: 'permission_error',
        code: 'webhook_endpoint_owner_mismatch',
        param: 'endpointId',
      },
    );
  });

  it('allows 16 endpoints per account and environment, then 400 webhook_endpoint_limit_reached', async () => {
    // Prepare
    const owner = await createKey('test');
    for (let i = 0; i < 16; i++)
      await createEndpoint(owner, { url: `https://hooks.example.com/${i}`, enabledEvents: ['*'] });

    // Act
    const refused = await call('/v1/webhook-endpoints', {
      key: owner.secret,
      method: 'POST',
      body: { url: 'https://hooks.example.com/17', enabledEvents: ['*'] },
    });
    const otherEnvironment = await call('/v1/webhook-endpoints', {
      key: (await createKey('live', { accountId: owner.accountId })).secret,
      method: 'POST',
      body: { url: 'https://hooks.example.com/17', enabledEvents: ['*'] },
    });

    // Assess
    expectError(refused, 400, {
      type: 'invalid_request_error',
      code: 'webhook_endpoint_limit_reached',
      param: null,
      details: { limit: 16 },
    });
    expect(otherEnvironment.status).toBe(201);
  });
});

describe('event log', () => {
  it('lists the last 30 days newest first, by type, in pages; reads one; refuses other owners', async () => {
    // Prepare: three test events and one order.ready for one account
    const key = await createKey('test');
    const other = await createKey('test');
    const live = await createKey('live', { accountId: key.accountId });
    const hook = await receiver();
    const endpoint = await createEndpoint(key, { url: hook.url, enabledEvents: ['webhook_endpoint.test'] });
    const tests = [];
    for (let i = 0; i < 3; i++) tests.push(await sendTest(key, endpoint.id));
    const order = await orderCharges(key);
    await waitForExecution(order.id, 25_000);

    // Act
    const first = await call<{
      data: { id: string; type: string }[];
      hasMore: boolean;
      nextCursor: string | null;
    }>('/v1/events?limit=2', { key: key.secret });
    const second = await call<{ data: { id: string }[]; hasMore: boolean }>(
      `/v1/events?limit=2&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`,
      { key: key.secret },
    );
    const onlyTests = await call<{ data: { id: string }[] }>('/v1/events?type=webhook_endpoint.test', {
      key: key.secret,
    });
    const changedFilter = await call(
      `/v1/events?limit=2&type=order.ready&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`,
      { key: key.secret },
    );

    // Assess
    expect(first.body.data.map((e) => e.type)).toStrictEqual(['order.ready', 'webhook_endpoint.test']);
    expect(first.body.hasMore).toBe(true);
    expect([...first.body.data, ...second.body.data].slice(1).map((e) => e.id)).toStrictEqual(
      tests.map((t) => t.id).reverse(),
    );
    expect(second.body.hasMore).toBe(false);
    expect(onlyTests.body.data.map((e) => e.id)).toStrictEqual(tests.map((t) => t.id).reverse());
    expectError(changedFilter, 400, validationError('cursor'));
    const id = tests[0]?.id as string;
    for (const reader of [other, live]) {
      expectError(await call(`/v1/events/${id}`, { key: reader.secret }), 403, {
        type: 'permission_error',
        code: 'event_owner_mismatch',
        param: 'eventId',
      });
      expect((await call<{ data: unknown[] }>('/v1/events', { key: reader.secret })).body.data).toStrictEqual(
        [],
      );
    }
    expectError(await call(`/v1/events/${id}/deliveries`, { key: other.secret }), 403, {
      type: 'permission_error',
      code: 'event_owner_mismatch',
      param: 'eventId',
    });
  });

  it('keeps events 30 days: older ones are neither listed nor read', async () => {
    // Prepare
    const key = await createKey('test');
    const hook = await receiver();
    const endpoint = await createEndpoint(key, { url: hook.url, enabledEvents: ['*'] });
    const event = await sendTest(key, endpoint.id);
    await hook.waitFor(1);

    // Act
    await clock.advance(29 * 24 * 3600_000);
    const within = await call(`/v1/events/${event.id}`, { key: key.secret });
    await clock.advance(2 * 24 * 3600_000);
    const after = await call(`/v1/events/${event.id}`, { key: key.secret });
    const listed = await call<{ data: unknown[] }>('/v1/events', { key: key.secret });

    // Assess
    expect(within.status).toBe(200);
    expectError(after, 404, { type: 'not_found_error', code: 'event_not_found', param: 'eventId' });
    expect(listed.body.data).toStrictEqual([]);
  });

  it('records offline_search.ready with the offline search as data', async () => {
    // Prepare
    const key = await createKey('test');
    const placed = await call<{ id: string }>('/v1/companies/search/offline', {
      key: key.secret,
      method: 'POST',
      body: { q: 'southern cross', delivery: { method: 'webhook' } },
    });
    expect(placed.status, placed.text).toBe(202);
    await waitForExecution(placed.body.id, 25_000);

    // Act
    const listed = await call<{
      data: { type: string; data: { object: string; id: string; status: string } }[];
    }>('/v1/events?type=offline_search.ready', { key: key.secret });

    // Assess
    expect(listed.body.data.map((e) => [e.type, e.data.object, e.data.id, e.data.status])).toStrictEqual([
      ['offline_search.ready', 'offlineSearch', placed.body.id, 'ready'],
    ]);
  });
});
