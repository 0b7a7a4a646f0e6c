/**
 * The idempotency records over the lean DynamoDB client, against DynamoDB Local, with Powertools'
 * own behaviours: a kept result is replayed, a different request with the same key and a
 * duplicate of a request still running are refused, an expired record (or an in-progress one
 * whose invocation timed out) lets the request run again, a failed run keeps nothing. Records
 * are the very items Powertools' SDK-based DynamoDB layer writes: each layer reads the other's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClient } from '../../local/dynamodb.ts';
import {
  createIdempotencyRunner,
  IDEMPOTENCY_TIMING,
  IDEMPOTENCY_WINDOW_SECONDS,
  type IdempotencyTiming,
} from '../../shared/adapters/dynamodb/idempotency.ts';
import {
  INLINE_BYTES,
  JsonDynamoPersistenceLayer,
} from '../../shared/adapters/dynamodb/idempotency-persistence.ts';
import { type Item, observeDynamoCalls } from '../../shared/adapters/dynamodb/json-client.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { fileTables, SHARED_DYNAMO_WAIT_MS } from '../support/dynamo.ts';

const tables = fileTables([tableDefinitions.idempotency]);
const table = tables.name(tableDefinitions.idempotency);
let sdkClient: DynamoDBClient;
let documents: DynamoDBDocumentClient;

beforeAll(async () => {
  const endpoint = await tables.create();
  sdkClient = localClient(endpoint);
  documents = DynamoDBDocumentClient.from(sdkClient);
}, SHARED_DYNAMO_WAIT_MS);

afterAll(async () => {
  sdkClient?.destroy();
  await tables.remove();
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
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    // A scan answers at most 1 MB a page, and the parts of large answers fill pages fast.
    const page = await documents.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
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

    const items = (await storedItems()).filter((item) => item.data_json === '{"id":"thing_1"}');
    expect(items).toHaveLength(1);
    const item = items[0] as Record<string, unknown>;
    expect(Object.keys(item).sort()).toEqual([
      'data_json',
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

  it('answers concurrent duplicates with one run: the others wait for it and answer its result', async () => {
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
    // Each duplicate waits for the first run and answers its result.
    expect(await Promise.all(attempts)).toStrictEqual(
      Array.from({ length: 8 }, () => ({ result: 'bought' })),
    );
    expect(runs).toBe(1);
  });

  it('runs again when the kept record has expired, or its in-progress invocation timed out', async () => {
    const store = new JsonDynamoPersistenceLayer(table);
    let runs = 0;
    const work = idempotentOn(store, async () => ({ run: ++runs }));
    const expiredKey = `k-${randomUUID()}`;
    expect(await work({ key: expiredKey, request: {} })).toEqual({ run: 1 });
    const [expired] = (await storedItems()).filter((item) => item.data_json === '{"run":1}');
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
    const [stuck] = (await storedItems()).filter((item) => item.data_json === '{"run":3}');
    const { data_json: _result, ...unfinished } = stuck as Record<string, unknown>;
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

  it('reads the records Powertools’ SDK layer writes; that layer honours ours but has no map to replay', async () => {
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
    ).toBeUndefined();
    // Ours keep the answer as JSON text (the same bytes on replay), not as the map that layer reads.
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

/** A layer whose renewals never happen: the request holding the key has crashed. */
class CrashedHolder extends JsonDynamoPersistenceLayer {
  override async renewInProgress(): Promise<boolean> {
    return true;
  }
}

describe('a duplicate of a request in progress: it waits, and takes over only a lapsed lease', () => {
  const fast: IdempotencyTiming = { leaseMs: 800, renewMs: 200, pollMs: 50, maxWaitMs: 6_000 };
  const never = () => new Promise<never>(() => {});

  it('keeps the deployed timing: a 6 s lease renewed every 2 s, polled every 250 ms, a wait of at most 14 s', () => {
    expect(IDEMPOTENCY_TIMING).toStrictEqual({
      leaseMs: 6_000,
      renewMs: 2_000,
      pollMs: 250,
      maxWaitMs: 14_000,
    });
    // The wait and a lease fit in the gateway's 29 s with time left for a takeover to run.
    expect(IDEMPOTENCY_TIMING.maxWaitMs + IDEMPOTENCY_TIMING.leaseMs).toBeLessThan(29_000);
  });

  it('writes the in-progress record with the lease, not the function’s whole remaining time', async () => {
    const scope = newScope();
    const started = Date.now();
    let seen: unknown;
    await createIdempotencyRunner(
      new JsonDynamoPersistenceLayer(table),
      fast,
    )({
      scope,
      key: 'lease',
      request: { scope },
      context: context(29_000),
      run: async () => {
        const [item] = (await storedItems()).filter(
          (entry) => entry.status === 'INPROGRESS' && Number(entry.in_progress_expiration) >= started,
        );
        seen = item?.in_progress_expiration;
        return 1;
      },
    });
    expect(Number(seen) - started).toBeGreaterThan(0);
    expect(Number(seen) - started).toBeLessThanOrEqual(fast.leaseMs + 1_000);
  });

  it('a running request renews its lease: a duplicate that outlasts several leases gets its result, and it runs once', async () => {
    const scope = newScope();
    const runner = createIdempotencyRunner(new JsonDynamoPersistenceLayer(table), fast);
    let runs = 0;
    const call = {
      scope,
      key: 'alive',
      request: {},
      context: context(),
      run: async () => {
        runs++;
        await new Promise((done) => setTimeout(done, 3 * fast.leaseMs));
        return `run ${runs}`;
      },
    };
    const first = runner(call);
    await new Promise((done) => setTimeout(done, 100));
    const duplicate = await runner({ ...call, context: context() });
    expect([await first, duplicate, runs]).toStrictEqual(['run 1', 'run 1', 1]);
  });

  it('a crashed request (no renewals) is taken over once its lease lapses, long before its function time would end', async () => {
    const scope = newScope();
    let runs = 0;
    const call = { scope, key: 'crashed', request: {}, context: context(29_000) };
    void createIdempotencyRunner(
      new CrashedHolder(table),
      fast,
    )({
      ...call,
      run: () => {
        runs++;
        return never();
      },
    });
    await new Promise((done) => setTimeout(done, 100));
    const started = Date.now();
    const taken = await createIdempotencyRunner(
      new JsonDynamoPersistenceLayer(table),
      fast,
    )({
      ...call,
      context: context(29_000),
      run: async () => `run ${++runs}`,
    });
    const waited = Date.now() - started;
    expect([taken, runs]).toStrictEqual(['run 2', 2]);
    expect(waited).toBeGreaterThanOrEqual(fast.leaseMs - 200);
    expect(waited).toBeLessThan(fast.leaseMs + 3_000);
  });

  it('never takes over a record written without an expiry: waits, then 429 with a lease’s Retry-After', async () => {
    const scope = newScope();
    const store = new JsonDynamoPersistenceLayer(table);
    const idempotencyConfig = config();
    // No function time: Powertools writes no in-progress expiry.
    idempotencyConfig.registerLambdaContext(context(0));
    void makeIdempotent(async (_payload: { key: string; request: unknown }) => never(), {
      persistenceStore: store,
      config: idempotencyConfig,
    })({ key: `${scope}#no-expiry`, request: {} });
    await new Promise((done) => setTimeout(done, 200));
    const runner = createIdempotencyRunner(new JsonDynamoPersistenceLayer(table), {
      ...fast,
      maxWaitMs: 500,
    });
    const refused = await runner({
      scope,
      key: 'no-expiry',
      request: {},
      context: context(),
      run: async () => 'ran',
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'idempotency_key_in_use', headers: { 'Retry-After': '1' } });
  });

  it('a failed first run: the waiting duplicate runs at once', async () => {
    const scope = newScope();
    const runner = createIdempotencyRunner(new JsonDynamoPersistenceLayer(table), fast);
    const outcomes: string[] = [];
    const call = { scope, key: 'fails', request: {}, context: context() };
    const first = runner({
      ...call,
      run: async () => {
        await new Promise((done) => setTimeout(done, 300));
        throw new ApiError('registry_unavailable');
      },
    }).catch((error: ApiError) => error.code);
    await new Promise((done) => setTimeout(done, 50));
    const second = await runner({ ...call, context: context(), run: async () => 'second' });
    outcomes.push(await first, second);
    expect(outcomes).toStrictEqual(['registry_unavailable', 'second']);
  });

  it('waits at most maxWaitMs (and half its own time), then answers 429 idempotency_key_in_use with Retry-After until the lease ends', async () => {
    const scope = newScope();
    const timing = { ...fast, leaseMs: 4_000, renewMs: 500, maxWaitMs: 700 };
    const runner = createIdempotencyRunner(new JsonDynamoPersistenceLayer(table), timing);
    const call = { scope, key: 'busy', request: {}, context: context() };
    let release: () => void = () => {};
    const first = runner({
      ...call,
      run: () =>
        new Promise<string>((done) => {
          release = () => done('first');
        }),
    });
    await new Promise((done) => setTimeout(done, 100));
    const started = Date.now();
    const refused = await runner({ ...call, context: context(), run: async () => 'second' }).catch(
      (error: unknown) => error,
    );
    expect(Date.now() - started).toBeLessThan(timing.maxWaitMs + 1_500);
    expect(refused).toBeInstanceOf(ApiError);
    const error = refused as ApiError;
    expect([error.status, error.type, error.code, error.param]).toStrictEqual([
      429,
      'rate_limit_error',
      'idempotency_key_in_use',
      'Idempotency-Key',
    ]);
    const retryAfter = Number(error.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(timing.leaseMs / 1000);
    // A duplicate with 1 s of its function left waits at most half of it.
    const short = Date.now();
    await expect(
      runner({ ...call, context: context(1_000), run: async () => 'third' }),
    ).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    expect(Date.now() - short).toBeLessThan(500 + 1_000);
    release();
    expect(await first).toBe('first');
    expect(await runner({ ...call, context: context(), run: async () => 'fourth' })).toBe('first');
  });
});

/** A layer whose second part write fails, as a throttled or cut-off PutItem would. */
class FailingPartWrite extends JsonDynamoPersistenceLayer {
  writes = 0;
  protected override async writePart(item: Item): Promise<void> {
    this.writes++;
    if (this.writes === 2) throw new Error('part write failed');
    await super.writePart(item);
  }
}

describe('a kept answer of any size, replayed as the same bytes', () => {
  /** An answer of about `bytes` of JSON; `random` makes it all but incompressible. */
  const answer = (bytes: number, random: boolean) => ({
    object: 'monitorImport',
    zeta: 1,
    alpha: { nested: { b: 2, a: 1 } },
    problems: Array.from({ length: Math.ceil(bytes / 130) }, (_, i) => ({
      row: i + 1,
      outcome: 'invalid',
      error: {
        code: 'acn_invalid',
        param: 'company',
        message: random ? randomBytes(40).toString('hex') : 'company 12345 is not an ACN: it has 5 digits.',
      },
    })),
  });
  /** A call that answers `result`, counting its runs. */
  const counted = (scope: string, key: string, result: unknown) => {
    let count = 0;
    const call = {
      scope,
      key,
      request: {},
      context: context(),
      run: async () => {
        count++;
        return result;
      },
    };
    return { call, runs: () => count };
  };
  const itemsOf = async (key: string) =>
    (await storedItems()).filter((item) => String(item.id).startsWith(key));

  for (const [name, bytes, random, stored] of [
    ['small: its JSON text in the record', 2_000, false, 'data_json'],
    ['a JSON text over 350 KB: gzipped in the record', 3_000_000, false, 'data_gzip'],
    ['several MB that gzip past 350 KB: gzipped in parts', 3_000_000, true, 'data_parts'],
  ] as const) {
    it(`${name}; run once, replayed byte for byte`, async () => {
      const scope = newScope();
      const original = answer(bytes, random);
      const text = JSON.stringify(original);
      if (stored !== 'data_json') expect(text.length).toBeGreaterThan(INLINE_BYTES);
      const { call, runs } = counted(scope, 'large', original);
      const runner = createIdempotencyRunner(new JsonDynamoPersistenceLayer(table));
      expect(await runner(call)).toBe(original);
      const replayed = await runner({ ...call, context: context() });
      expect(JSON.stringify(replayed)).toBe(text);
      expect(runs()).toBe(1);

      const [record] = (await storedItems()).filter(
        (item) =>
          item.status === 'COMPLETED' && (stored === 'data_json' ? item.data_json === text : stored in item),
      );
      expect(record).toBeDefined();
      const kept = record as Record<string, unknown>;
      for (const attribute of ['data', 'data_json', 'data_gzip', 'data_parts']) {
        expect(attribute in kept).toBe(attribute === stored);
      }
      if (stored === 'data_parts') {
        const reference = kept.data_parts as { generation: string; count: number; sha256: string };
        expect(reference.count).toBeGreaterThanOrEqual(2);
        const parts = await itemsOf(`${kept.id}#part#${reference.generation}#`);
        expect(parts).toHaveLength(reference.count);
        for (const part of parts) {
          // Each part expires with its record, and fits an item.
          expect(part.expiration).toBe(kept.expiration);
          expect((part.part as Uint8Array).length).toBeLessThanOrEqual(INLINE_BYTES);
        }
      }
    }, 60_000);
  }

  it('a failed part write: the record is left in progress naming nothing, and the retry runs and is kept', async () => {
    const scope = newScope();
    const fast: IdempotencyTiming = { leaseMs: 800, renewMs: 200, pollMs: 50, maxWaitMs: 6_000 };
    const original = answer(3_000_000, true);
    const { call, runs } = counted(scope, 'part-fails', original);
    const failing = new FailingPartWrite(table);
    const refused = await createIdempotencyRunner(failing, fast)(call).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(failing.writes).toBeGreaterThanOrEqual(2);
    const [left] = (await storedItems()).filter(
      (item) => item.status === 'INPROGRESS' && Number(item.in_progress_expiration) > Date.now() - 60_000,
    );
    expect(left).toBeDefined();
    expect(Object.keys(left as object).sort()).toEqual([
      'expiration',
      'id',
      'in_progress_expiration',
      'status',
      'validation',
    ]);

    // The retry, once the lease lapses: runs again, keeps its answer, and that is what is replayed.
    const runner = createIdempotencyRunner(new JsonDynamoPersistenceLayer(table), fast);
    expect(JSON.stringify(await runner({ ...call, context: context() }))).toBe(JSON.stringify(original));
    expect(JSON.stringify(await runner({ ...call, context: context() }))).toBe(JSON.stringify(original));
    expect(runs()).toBe(2);
  }, 60_000);

  it('a record whose part is gone is refused, never replayed as something else', async () => {
    const scope = newScope();
    const original = answer(3_000_000, true);
    const call = { scope, key: 'part-gone', request: {}, context: context(), run: async () => original };
    const runner = createIdempotencyRunner(new JsonDynamoPersistenceLayer(table));
    const withParts = async () =>
      (await storedItems()).filter((item) => item.status === 'COMPLETED' && 'data_parts' in item);
    const before = new Set((await withParts()).map((item) => item.id));
    await runner(call);
    const kept = (await withParts()).find((item) => !before.has(item.id)) as Record<string, unknown>;
    const { generation } = kept.data_parts as { generation: string };
    await documents.send(
      new DeleteCommand({ TableName: table, Key: { id: `${kept.id}#part#${generation}#1` } }),
    );
    const refused = await runner({ ...call, context: context() }).catch((error: unknown) => error);
    expect(String((refused as { cause?: Error }).cause?.message)).toMatch(/incomplete; not replayed$/);
  }, 60_000);
});
