/**
 * What a request's calls to its dependencies came to, on its access line, in its metrics and, for
 * a failed call, in a warn line of its own (shared/kernel/dependency-calls.ts). Driven in process
 * with API Gateway proxy events for a route only this test defines, against the DynamoDB Local of
 * the HTTP tests, with a registry transport whose `fetch` answers after a set delay.
 */
import type { Context } from 'aws-lambda';
import { afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { z } from 'zod';
import { callDynamo, observeDynamoCalls } from '../../shared/adapters/dynamodb/json-client.ts';
import { RegistryTransport } from '../../shared/adapters/registry-http/transport.ts';
import { registryProtocolTable } from '../../shared/composition/registry/protocol.ts';
import type { DependencySummary } from '../../shared/kernel/dependency-calls.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { defineRoute } from '../../shared/kernel/http/route.ts';
import { noPath, noQuery } from '../../shared/kernel/http/schemas.ts';
import { setMetricSink } from '../../shared/kernel/metric-line.ts';
import { logger } from '../../shared/kernel/observability.ts';
import { createKey, type TestKey } from '../support/api.ts';
import { testConfig, testPorts } from '../support/ports.ts';
import { bearer, proxyEvent } from '../support/proxy-event.ts';

const route = defineRoute({
  name: 'DependenciesForTest',
  method: 'POST',
  path: '/v1/test/dependencies',
  handler: 'unused',
  summary: 'test only',
  request: {
    path: noPath,
    query: noQuery,
    body: z.strictObject({
      registryCalls: z.number().int().max(5),
      registryDelayMs: z.number().int().max(500),
      registryFails: z.boolean().optional(),
      missingTable: z.boolean().optional(),
    }),
  },
  response: z.object({ object: z.literal('dependencies') }).loose(),
  status: 200,
  billable: false,
  product: null,
  ports: [],
  errors: [],
});

/** A registry whose answers take `delayMs`, or whose connection is refused. */
const registry = (delayMs: number, fails: boolean) =>
  new RegistryTransport(
    {
      baseUrl: 'https://registry.invalid',
      credential: async () => 'secret',
      retryDelayMs: 1,
      fetch: async () => {
        await new Promise((done) => setTimeout(done, delayMs));
        if (fails) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
        return new Response(JSON.stringify({ result: { forms: [] } }), { status: 200 });
      },
    },
    registryProtocolTable,
  );

const useCase: Parameters<typeof createHttpHandler<typeof route>>[2] = async ({ body, requestId, auth }) => {
  const transport = registry(body.registryDelayMs, body.registryFails === true);
  for (let i = 0; i < body.registryCalls; i++) {
    await transport.call('reference.forms', {}, { accountId: auth.accountId, requestId }).catch(() => {
      // The test reads what the call came to, not its error.
    });
  }
  if (body.missingTable) {
    // DynamoDB refuses it (ResourceNotFoundException): not retried, a failed call.
    await callDynamo('GetItem', {
      TableName: `${testConfig.mainTable}-missing`,
      Key: { pk: { S: 'x' } },
    }).catch(() => undefined);
  }
  return { body: { object: 'dependencies' } };
};
const handler = createHttpHandler(route, testPorts, useCase);
/** As a registry route's function is on a stage that shares registry capacity between accounts. */
const sharedRegistryHandler = createHttpHandler(
  route,
  { ...testPorts, config: { ...testPorts.config, registryAccountInFlight: 2 } },
  useCase,
);

const event = (secret: string, body: object) =>
  proxyEvent({
    method: 'POST',
    path: route.path,
    headers: { ...bearer(secret), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/** One per invocation, as Lambda and the local server give (the pipeline keeps its state on it). */
const context = () =>
  ({
    functionName: 'DependenciesForTest',
    awsRequestId: crypto.randomUUID(),
    getRemainingTimeInMillis: () => 29_000,
  }) as unknown as Context;

interface AccessLine {
  status: number;
  dependencies?: DependencySummary;
}

describe('dependency calls of a request', () => {
  let key: TestKey;
  let metricLines: Record<string, unknown>[];
  let info: MockInstance<typeof logger.info>;
  let warn: MockInstance<typeof logger.warn>;

  beforeAll(async () => {
    key = await createKey('live');
  });
  beforeEach(() => {
    metricLines = [];
    setMetricSink((line) => metricLines.push(JSON.parse(line) as Record<string, unknown>));
    info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    setMetricSink(undefined);
    vi.restoreAllMocks();
  });

  const accessLines = (): AccessLine[] =>
    info.mock.calls
      .filter(([message]) => message === 'request completed')
      .map(([, fields]) => fields as unknown as AccessLine);

  /** The access line of the one request a test made. */
  const accessLine = (): AccessLine => {
    const lines = accessLines();
    expect(lines).toHaveLength(1);
    return lines[0] as AccessLine;
  };

  const invoke = async (body: object) => {
    const response = await handler(event(key.secret, body), context());
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };

  it('a failing DynamoDB call: in the access line with its error, in a warn line, and counted in DependencyErrors', async () => {
    await invoke({ registryCalls: 0, registryDelayMs: 0, missingTable: true });
    const { dependencies } = accessLine();
    expect(dependencies?.DynamoDB?.GetItem).toMatchObject({
      errors: 1,
      lastError: 'ResourceNotFoundException',
    });
    // The key lookup is a GetItem too: the failed one is one of them.
    expect(dependencies?.DynamoDB?.GetItem?.count).toBe(2);
    expect(warn).toHaveBeenCalledWith('dependency call failed', {
      dependency: 'DynamoDB',
      operation: 'GetItem',
      latencyMs: expect.any(Number),
      errorName: 'ResourceNotFoundException',
    });
    const errors = metricLines.filter((line) => 'DependencyErrors' in line);
    expect(errors).toContainEqual(expect.objectContaining({ Dependency: 'DynamoDB', DependencyErrors: 1 }));
  });

  it('a registry call: its latency in the summary and in DependencyLatency', async () => {
    await invoke({ registryCalls: 2, registryDelayMs: 60 });
    const { dependencies } = accessLine();
    const tally = dependencies?.Registry?.['reference.forms'];
    expect(tally).toMatchObject({ count: 2, errors: 0 });
    expect(tally?.maxMs).toBeGreaterThanOrEqual(59);
    expect(tally?.totalMs).toBeGreaterThanOrEqual(118);
    expect(tally?.totalMs).toBeGreaterThanOrEqual(tally?.maxMs ?? Number.POSITIVE_INFINITY);
    expect(tally).not.toHaveProperty('lastError');
    const latency = metricLines.find((line) => line.Dependency === 'Registry' && 'DependencyLatency' in line);
    expect(latency?._aws).toMatchObject({
      CloudWatchMetrics: [
        {
          Namespace: 'CompanyRegister',
          Dimensions: [['Dependency']],
          Metrics: [{ Name: 'DependencyLatency', Unit: 'Milliseconds' }],
        },
      ],
    });
    const values = latency?.DependencyLatency as number[];
    expect(values).toHaveLength(2);
    for (const value of values) expect(value).toBeGreaterThanOrEqual(59);
    expect(metricLines).toContainEqual(
      expect.objectContaining({ Dependency: 'Registry', DependencyErrors: 0 }),
    );
  });

  it('a registry that cannot be reached: a failure with its reason, and a warn line', async () => {
    await invoke({ registryCalls: 1, registryDelayMs: 0, registryFails: true });
    const { dependencies } = accessLine();
    expect(dependencies?.Registry?.['reference.forms']).toMatchObject({
      count: 1,
      errors: 1,
      lastError: 'RegistryUnreachable (connection)',
    });
    expect(warn).toHaveBeenCalledWith('dependency call failed', {
      dependency: 'Registry',
      operation: 'reference.forms',
      latencyMs: expect.any(Number),
      errorName: 'RegistryUnreachable',
      errorCode: 'connection',
    });
  });

  it('two requests served at once in one process keep their own summaries', async () => {
    const [slow, quick] = await Promise.all([
      invoke({ registryCalls: 3, registryDelayMs: 40 }),
      invoke({ registryCalls: 1, registryDelayMs: 10, missingTable: true }),
    ]);
    const lines = accessLines();
    expect(lines).toHaveLength(2);
    const [quickLine, slowLine] = lines as [AccessLine, AccessLine];
    // The quick one finished first: its line was written while the slow one was still calling.
    expect(slow.statusCode).toBe(200);
    expect(quick.statusCode).toBe(200);
    expect(quickLine.dependencies?.Registry?.['reference.forms']?.count).toBe(1);
    expect(slowLine.dependencies?.Registry?.['reference.forms']?.count).toBe(3);
    expect(quickLine.dependencies?.DynamoDB?.GetItem?.errors).toBe(1);
    expect(slowLine.dependencies?.DynamoDB?.GetItem?.errors).toBe(0);
    // Authentication and limits: the same calls for both.
    const withoutTheMissingTable = (summary: DependencySummary | undefined) => ({
      ...summary?.DynamoDB,
      GetItem: {
        count: (summary?.DynamoDB?.GetItem?.count ?? 0) - (summary?.DynamoDB?.GetItem?.errors ?? 0),
      },
    });
    const counts = (summary: DependencySummary | undefined) =>
      Object.fromEntries(
        Object.entries(withoutTheMissingTable(summary)).map(([operation, tally]) => [operation, tally.count]),
      );
    expect(counts(quickLine.dependencies)).toStrictEqual(counts(slowLine.dependencies));
  });
});

describe('the DynamoDB writes of a free request, every one of them', () => {
  const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
  let key: TestKey;

  beforeAll(async () => {
    key = await createKey('live');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /**
   * The calls one request makes, in order, with where its access line was written among them;
   * after a first request, so that the key's hourly last-use write and its limit item's first
   * write are behind it.
   */
  async function callsOf(run: typeof handler) {
    const body = { registryCalls: 0, registryDelayMs: 0 };
    await run(event(key.secret, body), context());
    const calls: string[] = [];
    const lines: { dependencies?: DependencySummary }[] = [];
    vi.spyOn(logger, 'info').mockImplementation((...args: unknown[]) => {
      if (args[0] !== 'request completed') return;
      calls.push('access line');
      lines.push(args[1] as { dependencies?: DependencySummary });
    });
    const stop = observeDynamoCalls((operation, input) =>
      calls.push(WRITES.has(operation) ? `${operation} ${String(input.TableName)}` : operation),
    );
    try {
      const response = await run(event(key.secret, body), context());
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      stop();
    }
    return { calls, dynamo: lines[0]?.dependencies?.DynamoDB };
  }

  it('a route on our own tables writes 3 items (limit taken, limit given back, request record), all before the access line', async () => {
    const { calls, dynamo } = await callsOf(handler);
    const { keysTable, limitsTable } = testConfig;
    expect(calls).toStrictEqual([
      'GetItem', // the key, by its hash (keys table)
      `UpdateItem ${limitsTable}`, // the key's limit: counted, lease taken
      `UpdateItem ${limitsTable}`, // the lease given back
      `PutItem ${limitsTable}`, // the request record ("find a request")
      'access line',
    ]);
    expect(keysTable).not.toBe(limitsTable);
    // The access line counts every call, the request record's too.
    expect(dynamo).toMatchObject({ GetItem: { count: 1 }, UpdateItem: { count: 2 }, PutItem: { count: 1 } });
  });

  it('a registry route on a stage sharing registry capacity writes 5 (the account’s share taken and given back too)', async () => {
    const { calls, dynamo } = await callsOf(sharedRegistryHandler);
    const writes = calls.filter((call) => WRITES.has(call.split(' ')[0] as string));
    expect(writes).toStrictEqual([
      `UpdateItem ${testConfig.limitsTable}`, // the key's limit
      `UpdateItem ${testConfig.limitsTable}`, // the account's share of the route
      `UpdateItem ${testConfig.limitsTable}`, // the share given back
      `UpdateItem ${testConfig.limitsTable}`, // the key's lease given back
      `PutItem ${testConfig.limitsTable}`, // the request record
    ]);
    expect(calls.at(-1)).toBe('access line');
    expect(dynamo).toMatchObject({ UpdateItem: { count: 4 }, PutItem: { count: 1 } });
  });
});
