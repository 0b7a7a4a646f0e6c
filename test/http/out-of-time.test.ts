/**
 * A function that runs out of time answers 503, never 500 (issue 13, item 1), and a use case sees
 * the registry deadline the pipeline derives from the function's remaining time. Driven in process
 * with API Gateway proxy events for routes only this test defines, against DynamoDB Local.
 */
import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { defineRoute } from '../../shared/kernel/http/route.ts';
import { noPath, noQuery } from '../../shared/kernel/http/schemas.ts';
import { COMMIT_RESERVE_MS, remainingMs } from '../../shared/kernel/http/time-budget.ts';
import { createKey, type TestKey } from '../support/api.ts';
import { testPorts } from '../support/ports.ts';
import { bearer, proxyEvent } from '../support/proxy-event.ts';

const slowRoute = (usesRegistry: boolean) =>
  defineRoute({
    name: usesRegistry ? 'SlowRegistryForTest' : 'SlowStoreForTest',
    method: 'GET',
    path: '/v1/test/slow',
    handler: 'unused',
    summary: 'test only',
    request: { path: noPath, query: noQuery },
    response: z.object({ object: z.literal('slow'), remainingMs: z.number() }).loose(),
    status: 200,
    billable: false,
    product: null,
    ports: usesRegistry ? ['registryFor'] : [],
    errors: [],
  });

/** Waits `ms`, then reports the registry deadline it saw. */
const slow = (usesRegistry: boolean, ms: number) =>
  createHttpHandler(slowRoute(usesRegistry), testPorts, async () => {
    const seen = remainingMs() ?? -1;
    await new Promise((done) => setTimeout(done, ms));
    return { body: { object: 'slow', remainingMs: seen } };
  });

const event = (secret: string) =>
  proxyEvent({ method: 'GET', path: '/v1/test/slow', headers: bearer(secret) });

/** A Lambda context whose function has `ms` left from now. */
function contextWith(ms: number): Context {
  const deadline = Date.now() + ms;
  return {
    functionName: 'SlowForTest',
    awsRequestId: 'test',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  } as unknown as Context;
}

describe('a request that runs out of time', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await createKey('test');
  });

  it.each([
    [true, 'registry_unavailable', 'registry_unavailable_error'],
    [false, 'service_unavailable', 'registry_unavailable_error'],
  ])('usesRegistry %s → 503 %s, not a 500', async (usesRegistry, code, type) => {
    const result = await slow(usesRegistry, 3_000)(event(key.secret), contextWith(1_000));
    expect(result.statusCode).toBe(503);
    const body = JSON.parse(result.body) as { error: { code: string; type: string; requestId: string } };
    expect(body.error).toMatchObject({ code, type, param: null, registryCode: null });
    expect(body.error.requestId).toBe(result.headers?.['X-Request-Id']);
  });

  it('gives the use case a registry deadline that keeps the commit reserve back', async () => {
    const result = await slow(true, 0)(event(key.secret), contextWith(29_000));
    expect(result.statusCode, result.body).toBe(200);
    const { remainingMs: seen } = JSON.parse(result.body) as { remainingMs: number };
    expect(seen).toBeLessThanOrEqual(29_000 - COMMIT_RESERVE_MS);
    expect(seen).toBeGreaterThan(29_000 - COMMIT_RESERVE_MS - 2_000);
  });
});
