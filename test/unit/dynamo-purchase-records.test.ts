/**
 * A batch purchase's records in the DynamoDB extract store, against DynamoDB Local: the records
 * of up to 100 purchases are written in one transaction before the registry is asked, each one
 * only if its slot has none yet, and the records an earlier attempt left are kept (with their
 * first time) while the others are written; the answers saved as they arrive share their
 * BatchWriteItem calls.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem, SharedBatchPuts } from '../../shared/adapters/dynamodb/document.ts';
import { observeDynamoCalls } from '../../shared/adapters/dynamodb/json-client.ts';
import { DynamoExtractStore } from '../../shared/extracts/adapters/dynamodb.ts';
import { feeEntryFor, headerFor, newPurchaseRecord } from '../../shared/extracts/lifecycle.ts';
import type { PurchaseRecord } from '../../shared/extracts/store-port.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { fileTables, SHARED_DYNAMO_WAIT_MS } from '../support/dynamo.ts';

const tables = fileTables([tableDefinitions.main]);
const tableName = tables.name(tableDefinitions.main);
const store = new DynamoExtractStore(tableName);

beforeAll(() => tables.create(), SHARED_DYNAMO_WAIT_MS);

afterAll(async () => {
  await tables.remove();
});

const recordsOf = (key: string, slots: readonly string[], now: Date): PurchaseRecord[] =>
  slots.map((slot) =>
    newPurchaseRecord({
      key,
      slot,
      kind: 'person',
      owner: { accountId: 'acct_records', environment: 'live' },
      requestId: `req_${now.getTime()}`,
      clientReference: null,
      now,
      asked: { slot },
    }),
  );

async function counted<T>(work: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  const calls: string[] = [];
  const stop = observeDynamoCalls((operation) => calls.push(operation));
  try {
    return { result: await work(), calls };
  } finally {
    stop();
  }
}

describe('startPurchases', () => {
  it('records 100 purchases with one TransactWriteItems, each left for the sweeper until settled', async () => {
    const key = randomUUID();
    const slots = Array.from({ length: 100 }, (_, index) => `prs_${String(index).padStart(3, '0')}`);
    const records = recordsOf(key, slots, new Date('2026-01-02T03:04:05Z'));
    const { result, calls } = await counted(() => store.startPurchases(records));
    expect(calls).toEqual(['TransactWriteItems']);
    expect(result).toEqual(records);
    const unsettled = (await store.unsettledPurchases('2026-01-02T03:04:06Z', 1000)).filter(
      (record) => record.key === key,
    );
    expect(unsettled.map((record) => record.slot).sort()).toEqual(slots);
  });

  it('keeps the records an earlier attempt wrote, with their first time, and writes the others', async () => {
    const key = randomUUID();
    const first = recordsOf(key, ['prs_a', 'prs_c'], new Date('2026-01-02T03:04:05Z'));
    await store.startPurchases(first);
    const retry = recordsOf(key, ['prs_a', 'prs_b', 'prs_c', 'prs_d'], new Date('2026-01-02T03:09:05Z'));
    const { result, calls } = await counted(() => store.startPurchases(retry));
    expect(result.map((record) => [record.slot, record.purchasedAt, record.requestId])).toEqual([
      ['prs_a', '2026-01-02T03:04:05Z', first[0]?.requestId],
      ['prs_b', '2026-01-02T03:09:05Z', retry[1]?.requestId],
      ['prs_c', '2026-01-02T03:04:05Z', first[1]?.requestId],
      ['prs_d', '2026-01-02T03:09:05Z', retry[3]?.requestId],
    ]);
    // The refused transaction, the kept records' read, the others' write.
    expect(calls).toEqual(['TransactWriteItems', 'BatchGetItem', 'TransactWriteItems']);
    const unsettled = (await store.unsettledPurchases('2026-01-03T00:00:00Z', 1000)).filter(
      (record) => record.key === key,
    );
    expect(unsettled.map((record) => [record.slot, record.purchasedAt]).sort()).toEqual([
      ['prs_a', '2026-01-02T03:04:05Z'],
      ['prs_b', '2026-01-02T03:09:05Z'],
      ['prs_c', '2026-01-02T03:04:05Z'],
      ['prs_d', '2026-01-02T03:09:05Z'],
    ]);
  });

  it('refuses more than 100 records (one transaction)', async () => {
    const records = recordsOf(
      randomUUID(),
      Array.from({ length: 101 }, (_, index) => `prs_${index}`),
      new Date(),
    );
    await expect(store.startPurchases(records)).rejects.toThrow('a batch records at most 100 purchases');
  });
});

/** A batch purchase's record with its answer: what `saveSections` stores beside the sections. */
function answered(record: PurchaseRecord): PurchaseRecord {
  const summary = {
    id: record.extractId,
    type: 'current',
    purchasedAt: record.purchasedAt,
    asOf: record.purchasedAt,
    expiresAt: '2027-01-02T03:04:05Z',
    clientReference: null,
  };
  const header = headerFor(summary, {
    owner: { accountId: record.accountId, environment: record.environment },
    requestId: record.requestId,
    kind: 'person',
    subjectKey: record.slot,
  });
  return {
    ...record,
    answer: { header, fee: feeEntryFor(header, { product: 'person_extract', feeCode: '958' }), batch: true },
  };
}

describe('saveSections', () => {
  it('answers saved together share BatchWriteItem calls, and each is a complete draft', async () => {
    const key = randomUUID();
    const slots = Array.from({ length: 10 }, (_, index) => `prs_${index}`);
    const records = recordsOf(key, slots, new Date('2026-01-02T03:04:05Z')).map(answered);
    // Seven items each (section, manifest, record, header and three index entries): 70 in three calls.
    const { calls } = await counted(() =>
      Promise.all(
        records.map((record) =>
          store.saveSections(
            record.extractId,
            { person: { slot: record.slot } },
            '2027-01-02T03:04:05Z',
            record,
          ),
        ),
      ),
    );
    expect(calls).toEqual(['BatchWriteItem', 'BatchWriteItem', 'BatchWriteItem']);
    const drafts = await store.findDrafts(key, '2026-01-02T04:00:00Z');
    expect([...drafts.keys()].sort()).toEqual(slots);
    expect(drafts.get('prs_7')?.sections).toEqual({ person: { slot: 'prs_7' } });
  });

  it('a save made alone is written at once, in one call', async () => {
    const [record] = recordsOf(randomUUID(), ['prs_alone'], new Date('2026-01-02T03:04:05Z')).map(answered);
    const { calls } = await counted(() =>
      store.saveSections(
        record?.extractId as string,
        { person: {} },
        '2027-01-02T03:04:05Z',
        record as PurchaseRecord,
      ),
    );
    expect(calls).toEqual(['BatchWriteItem']);
  });
});

describe('SharedBatchPuts', () => {
  const items = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, index) => ({ pk: `${prefix}`, sk: `item#${index}`, value: index }));

  it('a batch that fails fails only the puts that had items in it', async () => {
    const puts = new SharedBatchPuts(tableName);
    const prefix = `SHARED#${randomUUID()}`;
    // 20 + 10 + 20 items: the first batch holds a's 20 and b's first 5, the second b's last 5
    // (one of them too large for DynamoDB) and c's 20.
    const tooLarge = { pk: `${prefix}#b`, sk: 'large', value: 'x'.repeat(410_000) };
    const { calls, result } = await counted(() =>
      Promise.allSettled([
        puts.put(items(`${prefix}#a`, 20), 'a'),
        puts.put([...items(`${prefix}#b`, 9), tooLarge], 'b'),
        puts.put(items(`${prefix}#c`, 20), 'c'),
      ]),
    );
    expect(calls).toEqual(['BatchWriteItem', 'BatchWriteItem']);
    expect(result.map((settled) => settled.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect((result[1] as PromiseRejectedResult).reason.message).toBe('could not store b');
    expect(await getItem(tableName, { pk: `${prefix}#a`, sk: 'item#19' })).toMatchObject({ value: 19 });
    expect(await getItem(tableName, { pk: `${prefix}#b`, sk: 'item#4' })).toMatchObject({ value: 4 });
    expect(await getItem(tableName, { pk: `${prefix}#c`, sk: 'item#0' })).toBeUndefined();
  });

  it('the same key twice in one turn goes into separate batches (DynamoDB refuses it twice in one)', async () => {
    const puts = new SharedBatchPuts(tableName);
    const pk = `SHARED#${randomUUID()}`;
    const { calls } = await counted(() =>
      Promise.all([
        puts.put([{ pk, sk: 'same', value: 1 }], 'first'),
        puts.put([{ pk, sk: 'same', value: 1 }], 'second'),
      ]),
    );
    expect(calls).toEqual(['BatchWriteItem', 'BatchWriteItem']);
    expect(await getItem(tableName, { pk, sk: 'same' })).toMatchObject({ value: 1 });
  });
});
