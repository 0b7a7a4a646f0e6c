import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/domain/rate-limit.ts';
import { getServices } from '../../shared/runtime.ts';
import { call, clock, createKey, errorOf, type TestKey } from '../support/api.ts';

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
    const { limiter } = getServices();
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
    const { limiter } = getServices();
    const now = new Date(((await clock.advance(0)).body as { now: string }).now);
    for (let i = 0; i < LIMITS.concurrentRequests; i++)
      await limiter.acquire(key.keyId, `req_crashed_${i}`, now);
    expect((await call(IDENTIFIER, { key: key.secret })).status).toBe(429);
    await clock.advance(LIMITS.leaseMs + 1000);
    expect((await call(IDENTIFIER, { key: key.secret })).status).toBe(200);
    await clock.reset();
  });

  it('grants exactly 20 of 30 simultaneous acquisitions (atomic across instances)', async () => {
    const { limiter } = getServices();
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
