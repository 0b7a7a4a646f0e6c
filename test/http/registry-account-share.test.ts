/**
 * Fair registry capacity, against DynamoDB Local: on a stage that reserves registry capacity, one
 * account may hold only `registryAccountInFlight` requests of a registry route at once (below the
 * route's reservation, lib/registry-capacity.ts), whatever number of keys it uses; beyond it the
 * answer is 429 with Retry-After, and another account is still served.
 */
import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { defineRoute } from '../../shared/kernel/http/route.ts';
import { noPath, noQuery } from '../../shared/kernel/http/schemas.ts';
import { createKey, type TestKey } from '../support/api.ts';
import { testConfig, testPorts } from '../support/ports.ts';
import { bearer, proxyEvent } from '../support/proxy-event.ts';

const IN_FLIGHT = 2;

const route = defineRoute({
  name: 'RegistryShareForTest',
  method: 'GET',
  path: '/v1/test/registry-share',
  handler: 'unused',
  summary: 'test only',
  request: { path: noPath, query: noQuery },
  response: z.object({ object: z.literal('held') }).loose(),
  status: 200,
  billable: false,
  product: null,
  ports: [],
  errors: [],
});

const releases: (() => void)[] = [];
const handler = createHttpHandler(
  route,
  { ...testPorts, config: { ...testConfig, registryAccountInFlight: IN_FLIGHT } },
  async () => {
    // A registry call that lasts until the test lets it go.
    await new Promise<void>((resolve) => releases.push(resolve));
    return { body: { object: 'held' } };
  },
);

const event = (secret: string) => proxyEvent({ method: 'GET', path: route.path, headers: bearer(secret) });

/** Each invocation its own context, as in Lambda (the pipeline keeps its request state on it). */
const context = (): Context =>
  ({
    functionName: 'RegistryShareForTest',
    awsRequestId: crypto.randomUUID(),
    getRemainingTimeInMillis: () => 20_000,
  }) as unknown as Context;

describe("an account's share of a registry route", () => {
  let first: TestKey;
  let second: TestKey;
  let other: TestKey;
  beforeAll(async () => {
    first = await createKey('test', { accountId: 'acct_shareA' });
    second = await createKey('live', { accountId: 'acct_shareA' });
    other = await createKey('test', { accountId: 'acct_shareB' });
  });

  it('refuses an account beyond its share with 429 and Retry-After, across its keys, and serves another account', async () => {
    const held = [handler(event(first.secret), context()), handler(event(second.secret), context())];
    await expect.poll(() => releases.length, { timeout: 15_000 }).toBe(IN_FLIGHT);

    // The account's third request, on either key, while its two hold the route.
    for (const key of [first, second]) {
      const refused = await handler(event(key.secret), context());
      expect(refused.statusCode).toBe(429);
      expect(refused.headers?.['Retry-After']).toBe('1');
      const body = JSON.parse(refused.body) as { error: Record<string, unknown> };
      expect(body.error).toMatchObject({
        type: 'rate_limit_error',
        code: 'rate_limited',
        requestId: refused.headers?.['X-Request-Id'],
      });
      expect(String(body.error.message)).toContain(`limit ${IN_FLIGHT}`);
    }

    // Another account is not held back by the first one's requests.
    const served = handler(event(other.secret), context());
    await expect.poll(() => releases.length, { timeout: 15_000 }).toBe(IN_FLIGHT + 1);
    for (const release of releases.splice(0)) release();
    expect((await served).statusCode).toBe(200);
    for (const response of await Promise.all(held)) expect(response.statusCode).toBe(200);

    // Its share is free again once its requests finished.
    const again = handler(event(first.secret), context());
    await expect.poll(() => releases.length, { timeout: 15_000 }).toBe(1);
    for (const release of releases.splice(0)) release();
    expect((await again).statusCode).toBe(200);
  });
});
