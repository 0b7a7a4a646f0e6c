/**
 * The shared pipeline, driven in-process with API Gateway proxy events for a route that only
 * this test defines (a POST with a body), against the same DynamoDB Local as the HTTP tests.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { MAX_BODY_BYTES } from '../../shared/kernel/http/request.ts';
import { defineRoute } from '../../shared/kernel/http/route.ts';
import { noPath, noQuery } from '../../shared/kernel/http/schemas.ts';
import { ROUTE_METRICS } from '../../shared/kernel/infra/route-metrics.ts';
import { createKey, type TestKey } from '../support/api.ts';
import { openSpendGuard } from '../support/fakes.ts';
import { testPorts } from '../support/ports.ts';
import { bearer, proxyEvent } from '../support/proxy-event.ts';

const echoRoute = defineRoute({
  name: 'EchoForTest',
  method: 'POST',
  path: '/v1/test/echo',
  handler: 'unused',
  summary: 'test only',
  request: {
    path: noPath,
    query: noQuery,
    body: z.strictObject({
      personIds: z.array(z.string().startsWith('prs_', 'each id starts with prs_')).min(1).max(100),
      delivery: z.strictObject({ method: z.enum(['web', 'email']), email: z.email().optional() }).optional(),
      history: z.boolean().optional(),
    }),
  },
  response: z.object({ object: z.literal('echo'), count: z.number() }).loose(),
  status: 201,
  billable: true,
  product: 'person_extract',
  ports: [],
  errors: [],
});

const echo = createHttpHandler(
  echoRoute,
  { ...testPorts, spendGuard: openSpendGuard },
  async ({ body, auth }) => {
    if (body.personIds.includes('prs_boom')) throw new Error('database password is hunter2');
    if (body.personIds.includes('prs_registry_down')) throw new ApiError('registry_unavailable');
    return {
      body: { object: 'echo', count: body.personIds.length },
      billable: auth.environment === 'live',
      quantity: 1,
    };
  },
);

function event(body: string | null, secret: string | null, headers: Record<string, string> = {}) {
  return proxyEvent({
    method: 'POST',
    path: echoRoute.path,
    headers: { ...(secret ? bearer(secret) : {}), 'Content-Type': 'application/json', ...headers },
    body,
  });
}

const context = {
  functionName: 'EchoForTest',
  awsRequestId: 'test',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

const invoke = async (body: string | null, secret: string | null) => {
  const result = await echo(event(body, secret), context);
  return { ...result, json: JSON.parse(result.body) };
};

describe('pipeline', () => {
  let live: TestKey;
  let test: TestKey;
  beforeAll(async () => {
    live = await createKey('live');
    test = await createKey('test');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // First in the file on purpose: Powertools puts a level set at run time back to the configured one
  // (ERROR in tests) at each warm invocation, so INFO only sticks before the first one.
  it('logs the request with the request id and account, never the Authorization header', async () => {
    const { logger } = await import('../../shared/kernel/observability.ts');
    // Powertools writes through its own Console; capture what it prints.
    const printed = logger as unknown as { console: Console };
    const lines: string[] = [];
    for (const method of ['info', 'warn', 'error'] as const) {
      vi.spyOn(printed.console, method).mockImplementation((line: string) => void lines.push(line));
    }
    const level = logger.getLevelName();
    logger.setLogLevel('INFO');
    const response = await invoke(JSON.stringify({ personIds: ['prs_1'] }), live.secret);
    logger.setLogLevel(level);
    const access = lines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.message === 'request completed');
    expect(access).toMatchObject({
      requestId: response.headers?.['X-Request-Id'],
      accountId: live.accountId,
      environment: 'live',
      status: 201,
      headers: { authorization: '[REDACTED]' },
    });
    expect(lines.join('\n')).not.toContain(live.secret);
  });

  it('adds meta with the route product, the billable flag and the quantity', async () => {
    const response = await invoke(JSON.stringify({ personIds: ['prs_1', 'prs_2'] }), live.secret);
    expect(response.statusCode).toBe(201);
    expect(response.json).toEqual({
      object: 'echo',
      count: 2,
      meta: {
        billable: true,
        product: 'person_extract',
        quantity: 1,
        requestId: response.headers?.['X-Request-Id'],
      },
    });
    const sandbox = await invoke(JSON.stringify({ personIds: ['prs_1'] }), test.secret);
    expect(sandbox.json.meta).toMatchObject({ billable: false, product: 'person_extract' });
  });

  it('answers malformed JSON with a 400 invalid_request_error', async () => {
    const response = await invoke('{"personIds": [', live.secret);
    expect(response.statusCode).toBe(400);
    expect(response.json.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_json',
      param: null,
      message: expect.stringContaining('not valid JSON'),
    });
  });

  it.each([
    [{ personIds: ['prs_1', 'prs_2', 'prs_3', 'bad'] }, 'personIds[3]'],
    [{}, 'personIds'],
    [{ personIds: [] }, 'personIds'],
    [{ personIds: Array.from({ length: 101 }, (_, i) => `prs_${i}`) }, 'personIds'],
    [{ personIds: ['prs_1'], history: 'yes' }, 'history'],
    [{ personIds: ['prs_1'], delivery: { method: 'fax' } }, 'delivery.method'],
    [{ personIds: ['prs_1'], delivery: { method: 'email', email: 'not-an-email' } }, 'delivery.email'],
    [{ personIds: ['prs_1'], extra: 1 }, 'extra'],
    [[1, 2], null],
  ])('names the exact offending parameter: %j → %s', async (body, param) => {
    const response = await invoke(JSON.stringify(body), live.secret);
    expect(response.statusCode).toBe(422);
    expect(response.json.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'validation_error',
      param,
    });
  });

  it('authenticates before it validates', async () => {
    const response = await invoke('{not json', null);
    expect(response.statusCode).toBe(401);
    expect(response.json.error.code).toBe('unauthorized');
    // No usable key: the limits a key has, with the whole window left.
    expect(response.headers).toMatchObject({
      'RateLimit-Limit': '600',
      'RateLimit-Remaining': '600',
      'RateLimit-Reset': '60',
    });
    expect(response.headers).not.toHaveProperty('Retry-After');
  });

  it.each([
    ['ASCII', 'x'.repeat(MAX_BODY_BYTES)],
    ['two-byte UTF-8, fewer characters than the limit', '\u00e9'.repeat(MAX_BODY_BYTES / 2)],
  ])('refuses a body over 1 MiB (%s) with 400 request_too_large, before authentication', async (_, pad) => {
    const oversized = JSON.stringify({ personIds: ['prs_1'], pad });
    for (const secret of [null, live.secret]) {
      const response = await invoke(oversized, secret);
      expect(response.statusCode).toBe(400);
      expect(response.json).toEqual({
        error: {
          type: 'invalid_request_error',
          code: 'request_too_large',
          message: 'The request body is larger than 1048576 bytes (1 MiB), the most this API takes.',
          param: null,
          registryCode: null,
          requestId: response.headers?.['X-Request-Id'],
          docUrl: expect.stringMatching(/\/errors#request_too_large$/),
        },
      });
      expect(response.headers).toMatchObject({
        'Content-Type': 'application/json; charset=utf-8',
        'RateLimit-Limit': '600',
        'RateLimit-Remaining': '600',
        'RateLimit-Reset': '60',
      });
    }
  });

  it('takes a body of exactly 1 MiB', async () => {
    const empty = JSON.stringify({ personIds: ['prs_1'], pad: '' });
    const exact = JSON.stringify({ personIds: ['prs_1'], pad: 'x'.repeat(MAX_BODY_BYTES - empty.length) });
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    const response = await invoke(exact, live.secret);
    // Past the size check and authentication: validation refuses the unknown field.
    expect(response.statusCode).toBe(422);
    expect(response.json.error).toMatchObject({ code: 'validation_error', param: 'pad' });
  });

  it('turns an unexpected exception into a 500 api_error without leaking internals', async () => {
    const { logger } = await import('../../shared/kernel/observability.ts');
    const errors = vi
      .spyOn((logger as unknown as { console: Console }).console, 'error')
      .mockImplementation(() => undefined);
    const response = await invoke(JSON.stringify({ personIds: ['prs_boom'] }), live.secret);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(errors.mock.calls[0]?.[0]))).toMatchObject({
      level: 'ERROR',
      message: 'unhandled error',
      error: { message: 'database password is hunter2' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json.error).toMatchObject({ type: 'api_error', code: 'internal_error', param: null });
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it("counts a handled fault of ours as InternalErrors (what rolls a route's canary back), a registry outage not", async () => {
    const { logger } = await import('../../shared/kernel/observability.ts');
    vi.spyOn((logger as unknown as { console: Console }).console, 'error').mockImplementation(
      () => undefined,
    );
    const counted = async (personId: string) => {
      const names: string[] = [];
      const spy = vi.spyOn(Metrics.prototype, 'addMetric').mockImplementation(function (this: Metrics, name) {
        names.push(name);
        return this;
      });
      const response = await invoke(JSON.stringify({ personIds: [personId] }), live.secret);
      spy.mockRestore();
      return { status: response.statusCode, code: response.json.error?.code ?? null, names };
    };
    const fault = await counted('prs_boom');
    expect(fault).toMatchObject({ status: 500, code: 'internal_error' });
    expect(fault.names.filter((name) => name === ROUTE_METRICS.internalErrors)).toHaveLength(1);
    expect(fault.names).toContain('ServerErrors');

    const outage = await counted('prs_registry_down');
    expect(outage).toMatchObject({ status: 503, code: 'registry_unavailable' });
    expect(outage.names).toContain('ServerErrors');
    expect(outage.names).not.toContain(ROUTE_METRICS.internalErrors);

    const fine = await counted('prs_1');
    expect(fine).toMatchObject({ status: 201, code: null });
    expect(fine.names).not.toContain(ROUTE_METRICS.internalErrors);
  });
});
