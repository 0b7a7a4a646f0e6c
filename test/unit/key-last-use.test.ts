/**
 * A key's last use is recorded to the hour without a write per request (shared/kernel/http/middleware/
 * admit.ts): through the real pipeline, with in-memory ports that count the writes, 50 requests in
 * one hour make one write, and the next hour one more.
 */
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/console/session.ts';
import { lambdaContext } from '../../local/lambda-context.ts';
import { hashKey, newKeyRecord, usedHour } from '../../shared/kernel/api-keys.ts';
import { readConfig } from '../../shared/kernel/config.ts';
import { CursorCodec } from '../../shared/kernel/cursor.ts';
import { MemoryApiKeys, MemoryRequestLog, OpenLimiter } from '../support/fakes.ts';
import { bearer, proxyEvent } from '../support/proxy-event.ts';

process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const SECRET = 'sk_test_lastUse1';

const event = () => proxyEvent({ method: 'GET', path: '/console/session', headers: bearer(SECRET) });

describe("a key's last use", () => {
  it('is written once per key per hour, not once per request', async () => {
    let now = new Date('2026-11-28T01:05:00Z');
    const clock = { now: () => now };
    const apiKeys = new MemoryApiKeys();
    const { hash, record } = newKeyRecord(SECRET, 'acct_lastuse', now);
    await apiKeys.create(hash, record);
    const handler = createHandler({
      config: readConfig({}),
      clock,
      apiKeys,
      limiter: new OpenLimiter(),
      requestLog: new MemoryRequestLog(),
      cursors: new CursorCodec(async () => 'unit-secret', clock),
    });
    for (let i = 0; i < 50; i += 1) {
      now = new Date(Date.parse('2026-11-28T01:05:00Z') + i * 60_000 * 0.9);
      // The route answers a key with 401 (it is for sessions), after authentication recorded the use.
      expect((await handler(event(), lambdaContext('GetConsoleSession', 29_000))).statusCode).toBe(401);
    }
    expect(apiKeys.uses).toEqual([{ hash: hashKey(SECRET), hour: '2026-11-28T01:00:00Z' }]);
    now = new Date('2026-11-28T02:00:01Z');
    await handler(event(), lambdaContext('GetConsoleSession', 29_000));
    await handler(event(), lambdaContext('GetConsoleSession', 29_000));
    expect(apiKeys.uses.map((use) => use.hour)).toEqual(['2026-11-28T01:00:00Z', '2026-11-28T02:00:00Z']);
    expect((await apiKeys.findByHash(hash))?.lastUsedHour).toBe(usedHour(now));
  });
});
