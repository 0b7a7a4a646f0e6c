import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callDynamo, type Item } from '../../shared/adapters/dynamodb/json-client.ts';
import { LIMITS } from '../../shared/kernel/rate-limit.ts';
import { call, clock, createKey, errorOf, type TestKey } from '../support/api.ts';
import { testPorts } from '../support/ports.ts';

const IDENTIFIER = '/v1/identifiers/004085616';

/** Runs `count` calls with at most `parallel` in flight. */
async function burst(count: number, parallel: number, send: () => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (started < count) {
        started++;
        statuses.push(await send());
      }
    }),
  );
  return statuses;
}

describe('rate limit headers', () => {
  it('are on every authenticated response, success or error', async () => {
    const key = await createKey('test');
    const ok = await call(IDENTIFIER, { key: key.secret });
    const bad = await call(`${IDENTIFIER}?hint=nope`, { key: key.secret });
    for (const response of [ok, bad]) {
      expect(response.headers.get('ratelimit-limit')).toBe('600');
      expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
    }
    expect(ok.headers.get('ratelimit-remaining')).toBe('599');
    expect(bad.headers.get('ratelimit-remaining')).toBe('598');
    expect(bad.status).toBe(422);
  });
});

describe('600 requests per minute per key', () => {
  beforeAll(async () => {
    // Start the burst one second into a minute so it cannot straddle two windows.
    const now = (await clock.advance(0)).body as { now: string };
    const nextMinute = Math.ceil(Date.parse(now.now) / 60_000) * 60_000;
    await clock.advance(nextMinute + 1000 - Date.parse(now.now));
  });
  afterAll(async () => {
    await clock.reset();
  });

  it('serves 600, refuses the 601st with Retry-After, and other keys are unaffected', async () => {
    const key = await createKey('live');
    const statuses = await burst(600, 10, async () => (await call(IDENTIFIER, { key: key.secret })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(600);

    const refused = await call(IDENTIFIER, { key: key.secret });
    expect(refused.status).toBe(429);
    expect(errorOf(refused)).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limited',
      param: null,
      requestId: refused.headers.get('x-request-id'),
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(61);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-limit')).toBe('600');

    // The refusal itself was not counted: the count stays at 600, so it is still refused.
    expect((await call(IDENTIFIER, { key: key.secret })).status).toBe(429);

    // Another key of the same account has its own budget.
    const sibling = await createKey('test', { accountId: key.accountId });
    expect((await call(IDENTIFIER, { key: sibling.secret })).status).toBe(200);

    // Two minutes later the window has slid past the burst.
    await clock.advance(120_000);
    const later = await call(IDENTIFIER, { key: key.secret });
    expect(later.status).toBe(200);
    expect(later.headers.get('ratelimit-remaining')).toBe('599');
  });
});

describe('20 concurrent requests per key', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await createKey('test');
  });

  it('refuses a request while 20 others of the key are in flight on other instances', async () => {
    const { limiter } = testPorts;
    const now = new Date(((await clock.advance(0)).body as { now: string }).now);
    const held = Array.from({ length: LIMITS.concurrentRequests }, (_, i) => `req_elsewhere_${i}`);
    for (const id of held) expect((await limiter.acquire(key.keyId, id, now)).ok).toBe(true);

    const refused = await call(IDENTIFIER, { key: key.secret });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(errorOf(refused)).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    expect(errorOf(refused).message).toContain('concurrent');

    await limiter.release(key.keyId, held[0] as string);
    expect((await call(IDENTIFIER, { key: key.secret })).status).toBe(200);
    for (const id of held.slice(1)) await limiter.release(key.keyId, id);
  });

  it('frees the lease of a request that died without releasing it', async () => {
    const { limiter } = testPorts;
    const now = new Date(((await clock.advance(0)).body as { now: string }).now);
    for (let i = 0; i < LIMITS.concurrentRequests; i++)
      await limiter.acquire(key.keyId, `req_crashed_${i}`, now);
    expect((await call(IDENTIFIER, { key: key.secret })).status).toBe(429);
    await clock.advance(LIMITS.leaseMs + 1000);
    expect((await call(IDENTIFIER, { key: key.secret })).status).toBe(200);
    await clock.reset();
  });

  it('grants exactly 20 of 30 simultaneous acquisitions (atomic across instances)', async () => {
    const { limiter } = testPorts;
    const fresh = await createKey('test');
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => limiter.acquire(fresh.keyId, `req_race_${i}`, now)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(LIMITS.concurrentRequests);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'concurrency')).toBe(true);
  });

  it('releases the lease after each request, so sequential requests never hit the limit', async () => {
    const fresh = await createKey('test');
    const statuses = await burst(60, 1, async () => (await call(IDENTIFIER, { key: fresh.secret })).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});

/** Sets the local clock to an exact instant (it then runs on with real time). */
const setClock = (atMs: number) =>
  call('/__local/clock', { method: 'POST', body: { now: new Date(atMs).toISOString() } });

/** The first minute boundary at least a minute ahead of the local clock. */
async function aMinuteAhead(): Promise<number> {
  const now = Date.parse(((await clock.advance(0)).body as { now: string }).now);
  return Math.ceil(now / 60_000) * 60_000 + 60_000;
}

/** The key's item in the limits table, as the adapter left it. */
async function limitItem(keyId: string) {
  const { Item } = await callDynamo<{ Item: Item }>('GetItem', {
    TableName: testPorts.config.limitsTable,
    Key: { pk: { S: `LIMIT#${keyId}` } },
  });
  return unmarshall(Item) as {
    counts: Record<string, number>;
    leases: Record<string, number>;
    expiresAtEpoch: number;
  };
}

const rateHeadersOf = (response: Awaited<ReturnType<typeof call>>) => ({
  limit: response.headers.get('ratelimit-limit'),
  remaining: response.headers.get('ratelimit-remaining'),
  reset: response.headers.get('ratelimit-reset'),
  retryAfter: response.headers.get('retry-after'),
});

describe('a burst across a minute boundary', () => {
  afterAll(async () => {
    await clock.reset();
  });

  it('admits nothing at second 20 after 600 at seconds 55–57, and at most 660 while the burst is in the window', async () => {
    const key = await createKey('live');
    const minute = await aMinuteAhead();
    const send = async () => (await call(IDENTIFIER, { key: key.secret })).status;

    // 600 requests at seconds 55–57: a hundred at a time, the clock set before each hundred so
    // that they stay within the 54–60 s sub-window however slow the machine is.
    for (let i = 0; i < 6; i++) {
      await setClock(minute + 55_000 + i * 400);
      expect(await burst(100, 10, send)).toEqual(Array(100).fill(200));
    }

    // Second 20 of the next minute: the two-bucket estimate admitted 200 more here.
    await setClock(minute + 60_000 + 20_000);
    const first = await call(IDENTIFIER, { key: key.secret });
    expect(first.status).toBe(429);
    // The burst's sub-window (54–60 s) leaves the window at 60 s of this minute; one more request
    // fits from 54 s, when the burst's sub-window is the oldest and starts to be weighted down.
    expect(rateHeadersOf(first)).toEqual({ limit: '600', remaining: '0', reset: '40', retryAfter: '34' });
    expect(new Set(await burst(49, 10, send))).toEqual(new Set([429]));

    // As Retry-After said.
    await setClock(minute + 60_000 + 54_000);
    expect(await send()).toBe(200);

    // At 58 s the weighted estimate has room for about 400 more, but the burst's sub-window still
    // touches the last 60 s: 600 + 1 + 59 = 660 is the hard bound.
    const late: number[] = [];
    for (let i = 0; i < 10; i++) {
      await setClock(minute + 60_000 + 58_000);
      late.push(...(await burst(10, 10, send)));
    }
    expect(late.filter((s) => s === 200)).toHaveLength(59);
    expect(late.filter((s) => s === 429)).toHaveLength(41);
    await setClock(minute + 60_000 + 58_000);
    const capped = await call(IDENTIFIER, { key: key.secret });
    expect(rateHeadersOf(capped)).toEqual({ limit: '600', remaining: '0', reset: '2', retryAfter: '2' });

    // Once the burst's sub-window has left (the next minute), requests are admitted again.
    await setClock(minute + 120_000 + 100);
    expect(await send()).toBe(200);
  });
});

describe('when the clock moves', () => {
  afterAll(async () => {
    await clock.reset();
  });

  it('a day ahead and back: the future requests are ignored and RateLimit-Reset stays within a minute', async () => {
    const key = await createKey('test');
    const day = 86_400_000;
    const minute = await aMinuteAhead();
    await setClock(minute + day + 30_000);
    for (let i = 0; i < 3; i++) expect(await (await call(IDENTIFIER, { key: key.secret })).status).toBe(200);
    await setClock(minute + day + 90_000);
    for (let i = 0; i < 3; i++) expect(await (await call(IDENTIFIER, { key: key.secret })).status).toBe(200);

    // Back to today: the day-ahead requests lie in the future and are not counted.
    await setClock(minute + 30_000);
    const back = await call(IDENTIFIER, { key: key.secret });
    expect(back.status).toBe(200);
    expect(rateHeadersOf(back)).toEqual({ limit: '600', remaining: '599', reset: '60', retryAfter: null });
    // The day-ahead slots are gone from the stored item, which keeps its TTL (three minutes on).
    const stored = await limitItem(key.keyId);
    expect(stored.counts).toEqual({ [String(Math.floor((minute + 30_000) / 6000))]: 1 });
    expect(stored.leases).toEqual({});
    expect(stored.expiresAtEpoch).toBeGreaterThanOrEqual((minute + 30_000 + 180_000) / 1000);
    expect(stored.expiresAtEpoch).toBeLessThan((minute + 30_000 + 180_000) / 1000 + 10);

    // And a day behind, where today's request is the future one.
    await setClock(minute - day + 30_000);
    const behind = await call(IDENTIFIER, { key: key.secret });
    expect(behind.status).toBe(200);
    expect(rateHeadersOf(behind)).toEqual({ limit: '600', remaining: '599', reset: '60', retryAfter: null });
  });

  it('a few seconds back across a minute boundary: every request is counted once', async () => {
    const key = await createKey('test');
    const minute = await aMinuteAhead();
    const remainingAfterCall = async () => {
      const response = await call(IDENTIFIER, { key: key.secret });
      expect(response.status).toBe(200);
      return rateHeadersOf(response);
    };
    await setClock(minute - 1000);
    for (let i = 0; i < 3; i++) await remainingAfterCall();
    await setClock(minute + 1000);
    for (let i = 0; i < 3; i++) await remainingAfterCall();
    // Three seconds back (another instance's clock, or a correction): the requests of the
    // following minute are still counted, once, and Reset is never more than 60.
    await setClock(minute - 2000);
    expect(await remainingAfterCall()).toEqual({
      limit: '600',
      remaining: '593',
      reset: '60',
      retryAfter: null,
    });
    await setClock(minute + 1500);
    expect((await remainingAfterCall()).remaining).toBe('592');
  });
});

describe('the stored limit state', () => {
  const putItem = (item: Record<string, unknown>) =>
    callDynamo('PutItem', { TableName: testPorts.config.limitsTable, Item: marshall(item) });

  it('replaces an item of the earlier two-bucket shape, keeping its live leases', async () => {
    const key = await createKey('test');
    const now = Date.now();
    const slot = Math.floor(now / 6000);
    await putItem({
      pk: `LIMIT#${key.keyId}`,
      v: 7,
      win: now - (now % 60_000) + 86_400_000,
      cur: 500,
      prev: 600,
      leases: { req_old_live: now + 10_000, req_old_ended: now - 1, req_old_far_ahead: now + 86_400_000 },
      expiresAtEpoch: Math.ceil(now / 1000) + 86_400,
    });
    const acquired = await testPorts.limiter.acquire(key.keyId, 'req_new', new Date(now));
    expect(acquired).toEqual({ ok: true, counts: { [String(slot)]: 1 }, slot, stale: [] });
    expect(await limitItem(key.keyId)).toEqual({
      pk: `LIMIT#${key.keyId}`,
      counts: { [String(slot)]: 1 },
      leases: { req_old_live: now + 10_000, req_new: now + 30_000 },
      expiresAtEpoch: Math.ceil((now + 180_000) / 1000),
    });
  });

  it('takes back a refused count and drops the stale slots in the one release write', async () => {
    const key = await createKey('test');
    const now = Date.now();
    const slot = Math.floor(now / 6000);
    await putItem({
      pk: `LIMIT#${key.keyId}`,
      counts: { [String(slot - 20)]: 5, [String(slot - 11)]: 4, [String(slot + 5)]: 7, [String(slot)]: 2 },
      leases: {},
      expiresAtEpoch: Math.ceil(now / 1000) + 60,
    });
    const { limiter } = testPorts;
    const acquired = await limiter.acquire(key.keyId, 'req_refused', new Date(now));
    expect(acquired).toMatchObject({
      ok: true,
      slot,
      counts: { [String(slot - 20)]: 5, [String(slot - 11)]: 4, [String(slot + 5)]: 7, [String(slot)]: 3 },
    });
    if (!acquired.ok) throw new Error('acquired');
    expect([...acquired.stale].sort()).toEqual([slot - 20, slot + 5].sort());
    await limiter.release(key.keyId, 'req_refused', { uncountSlot: slot, removeSlots: acquired.stale });
    expect(await limitItem(key.keyId)).toMatchObject({
      counts: { [String(slot - 11)]: 4, [String(slot)]: 2 },
      leases: {},
    });
  });
});
