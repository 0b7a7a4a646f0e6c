/**
 * The idempotency records over the lean DynamoDB client, against DynamoDB Local, with Powertools'
 * own behaviours: a kept result is replayed, a different request with the same key and a
 * duplicate of a request still running are refused, an expired record (or an in-progress one
 * whose invocation timed out) lets the request run again, a failed run keeps nothing. Records
 * are the very items Powertools' SDK-based DynamoDB layer writes: each layer reads the other's.
 */
import { randomUUID } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTables, type LocalDynamo, localClient, startDynamoLocal } from '../../local/dynamodb.ts';
import { localTableName } from '../../local/stack.ts';
import {
  createIdempotencyRunner,
  IDEMPOTENCY_WINDOW_SECONDS,
} from '../../shared/adapters/dynamodb/idempotency.ts';
import { JsonDynamoPersistenceLayer } from '../../shared/adapters/dynamodb/idempotency-persistence.ts';
import { observeDynamoCalls } from '../../shared/adapters/dynamodb/json-client.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';

const table = localTableName(tableDefinitions.idempotency);
let local: LocalDynamo | undefined;
let sdkClient: DynamoDBClient;
let documents: DynamoDBDocumentClient;

beforeAll(async () => {
  local = await startDynamoLocal({ port: 0 });
  await ensureTables(local.endpoint, [tableDefinitions.idempotency], localTableName);
  process.env.DYNAMODB_ENDPOINT = local.endpoint;
  sdkClient = localClient(local.endpoint);
  documents = DynamoDBDocumentClient.from(sdkClient);
}, 60_000);

afterAll(async () => {
  sdkClient?.destroy();
  await local?.stop();
});

/** As Lambda gives it: Powertools reads the remaining time to set the in-progress expiry. */
const context = (remainingMs = 30_000) =>
  ({
    getRemainingTimeInMillis: () => remainingMs,
    functionName: 'purchase',
    awsRequestId: randomUUID(),
  }) as Context;

const newScope = () => `acct_${randomUUID()}#test#POST /v1/things`;

/** Every stored record, read with the SDK apart from the layer under test. */
async function storedItems(): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await documents.send(new ScanCommand({ TableName: table }));
  return Items;
}

const config = () =>
  new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
  });

/** makeIdempotent straight on a persistence layer: Powertools' own errors, unmapped. */
function idempotentOn(
  store: DynamoDBPersistenceLayer | JsonDynamoPersistenceLayer,
  work: () => Promise<unknown>,
) {
  const idempotencyConfig = config();
  idempotencyConfig.registerLambdaContext(context());
  return makeIdempotent(async (_payload: { key: string; request: unknown }) => work(), {
    persistenceStore: store,
    config: idempotencyConfig,
  });
}

describe('JsonDynamoPersistenceLayer', () => {
  const runner = createIdempotencyRunner(new JsonDynamoPersistenceLayer(table));

  it('runs once, keeps the result 24 hours, and replays it for the same key and request', async () => {
    const scope = newScope();
    let runs = 0;
    const call = {
      scope,
      key: 'k1',
      request: { path: '/v1/things', body: { a: 1 } },
      context: context(),
      run: async () => ({ id: `thing_${++runs}` }),
    };
    const before = Math.floor(Date.now() / 1000);
    expect(await runner(call)).toEqual({ id: 'thing_1' });
    expect(await runner({ ...call, context: context() })).toEqual({ id: 'thing_1' });
    expect(runs).toBe(1);

    const items = (await storedItems()).filter((item) => JSON.stringify(item.data) === '{"id":"thing_1"}');
    expect(items).toHaveLength(1);
    const item = items[0] as Record<string, unknown>;
    expect(Object.keys(item).sort()).toEqual([
      'data',
      'expiration',
      'id',
      'in_progress_expiration',
      'status',
      'validation',
    ]);
    expect(item.status).toBe('COMPLETED');
    expect(item.expiration).toBeGreaterThanOrEqual(before + IDEMPOTENCY_WINDOW_SECONDS);
    expect(item.expiration).toBeLessThanOrEqual(before + IDEMPOTENCY_WINDOW_SECONDS + 5);
    // Powertools' keys and payload hashes: the function name (none here), `#`, an MD5 in base64.
    expect(String(item.id)).toMatch(/^#[A-Za-z0-9+/]{22}==$/);
    expect(String(item.validation)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it('refuses the same key with a different request: idempotency_conflict on Idempotency-Key, nothing run', async () => {
    const scope = newScope();
    let runs = 0;
    const call = {
      scope,
      key: 'k1',
      request: { body: { a: 1 } },
      context: context(),
      run: async () => ++runs,
    };
    await runner(call);
    const refused = await runner({ ...call, request: { body: { a: 2 } } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
    expect(runs).toBe(1);
  });

  it('raises Powertools’ own errors: payload mismatch (validation) and a duplicate in progress', async () => {
    const store = new JsonDynamoPersistenceLayer(table);
    const key = `k-${randomUUID()}`;
    let release: () => void = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    let runs = 0;
    const slow = idempotentOn(store, async () => {
      runs++;
      await held;
      return { done: true };
    });
    const first = slow({ key, request: { a: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const duplicate = idempotentOn(store, async () => ++runs);
    await expect(duplicate({ key, request: { a: 1 } })).rejects.toBeInstanceOf(
      IdempotencyAlreadyInProgressError,
    );
    release();
    expect(await first).toEqual({ done: true });
    await expect(duplicate({ key, request: { a: 2 } })).rejects.toBeInstanceOf(IdempotencyValidationError);
    expect(runs).toBe(1);
  });

  it('answers concurrent duplicates with one run: the others are in progress or replays', async () => {
    const scope = newScope();
    let runs = 0;
    const attempts = Array.from({ length: 8 }, () =>
      runner({
        scope,
        key: 'race',
        request: { body: {} },
        context: context(),
        run: async () => {
          runs++;
          await new Promise((resolve) => setTimeout(resolve, 200));
          return 'bought';
        },
      }).then(
        (result) => ({ result }),
        (error: ApiError) => ({ code: error.code }),
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(runs).toBe(1);
    for (const outcome of outcomes) {
      expect([{ result: 'bought' }, { code: 'idempotency_key_in_use' }]).toContainEqual(outcome);
    }
    expect(outcomes).toContainEqual({ result: 'bought' });
  });

  it('runs again when the kept record has expired, or its in-progress invocation timed out', async () => {
    const store = new JsonDynamoPersistenceLayer(table);
    let runs = 0;
    const work = idempotentOn(store, async () => ({ run: ++runs }));
    const expiredKey = `k-${randomUUID()}`;
    expect(await work({ key: expiredKey, request: {} })).toEqual({ run: 1 });
    const [expired] = (await storedItems()).filter((item) => JSON.stringify(item.data) === '{"run":1}');
    await documents.send(
      new PutCommand({
        TableName: table,
        Item: { ...expired, expiration: Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    expect(
      await idempotentOn(store, async () => ({ run: ++runs }))({ key: expiredKey, request: {} }),
    ).toEqual({
      run: 2,
    });

    const stuckKey = `k-${randomUUID()}`;
    await work({ key: stuckKey, request: {} });
    const [stuck] = (await storedItems()).filter((item) => JSON.stringify(item.data) === '{"run":3}');
    const { data: _result, ...unfinished } = stuck as Record<string, unknown>;
    await documents.send(
      new PutCommand({
        TableName: table,
        Item: { ...unfinished, status: 'INPROGRESS', in_progress_expiration: Date.now() - 1 },
      }),
    );
    expect(
      await idempotentOn(new JsonDynamoPersistenceLayer(table), async () => ({ run: ++runs }))({
        key: stuckKey,
        request: {},
      }),
    ).toEqual({ run: 4 });
  });

  it('keeps nothing when the run fails, so the retry runs', async () => {
    const scope = newScope();
    let runs = 0;
    const call = {
      scope,
      key: 'fails-once',
      request: {},
      context: context(),
      run: async () => {
        runs++;
        if (runs === 1) throw new ApiError('registry_unavailable');
        return 'second';
      },
    };
    await expect(runner(call)).rejects.toMatchObject({ code: 'registry_unavailable' });
    expect(await runner(call)).toBe('second');
    expect(runs).toBe(2);
  });

  it('reads the records Powertools’ SDK layer writes, and writes what it reads', async () => {
    const sdkLayer = new DynamoDBPersistenceLayer({ tableName: table, awsSdkV3Client: sdkClient });
    const ours = new JsonDynamoPersistenceLayer(table);
    let runs = 0;
    const key = `k-${randomUUID()}`;
    expect(
      await idempotentOn(sdkLayer, async () => ({ by: 'sdk', run: ++runs }))({ key, request: { a: 1 } }),
    ).toEqual({
      by: 'sdk',
      run: 1,
    });
    expect(
      await idempotentOn(ours, async () => ({ by: 'ours', run: ++runs }))({ key, request: { a: 1 } }),
    ).toEqual({
      by: 'sdk',
      run: 1,
    });
    await expect(idempotentOn(ours, async () => ++runs)({ key, request: { a: 2 } })).rejects.toBeInstanceOf(
      IdempotencyValidationError,
    );

    const otherKey = `k-${randomUUID()}`;
    await idempotentOn(ours, async () => ({ by: 'ours', run: ++runs }))({ key: otherKey, request: {} });
    expect(
      await idempotentOn(
        new DynamoDBPersistenceLayer({ tableName: table, awsSdkV3Client: sdkClient }),
        async () => ++runs,
      )({
        key: otherKey,
        request: {},
      }),
    ).toEqual({ by: 'ours', run: 2 });
    expect(runs).toBe(2);
  });

  it('stores through the lean client: no SDK client is involved', async () => {
    const calls: string[] = [];
    const stop = observeDynamoCalls((operation) => calls.push(operation));
    try {
      await runner({ scope: newScope(), key: 'lean', request: {}, context: context(), run: async () => 1 });
    } finally {
      stop();
    }
    expect(calls).toEqual(['PutItem', 'UpdateItem']);
  });
});
