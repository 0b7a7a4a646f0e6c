/**
 * A batch purchase's records in the DynamoDB extract store, against DynamoDB Local: the records
 * of up to 100 purchases are written in one transaction before the registry is asked, each one
 * only if its slot has none yet, and the records an earlier attempt left are kept (with their
 * first time) while the others are written.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTables, type LocalDynamo, startDynamoLocal } from '../../local/dynamodb.ts';
import { localTableName } from '../../local/stack.ts';
import { DynamoExtractStore } from '../../shared/adapters/dynamodb/extracts.ts';
import { observeDynamoCalls } from '../../shared/adapters/dynamodb/json-client.ts';
import { newPurchaseRecord } from '../../shared/extracts/lifecycle.ts';
import type { PurchaseRecord } from '../../shared/extracts/store-port.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';

let local: LocalDynamo | undefined;
const store = new DynamoExtractStore(localTableName(tableDefinitions.main));

beforeAll(async () => {
  local = await startDynamoLocal({ port: 0 });
  await ensureTables(local.endpoint, [tableDefinitions.main], localTableName);
  process.env.DYNAMODB_ENDPOINT = local.endpoint;
}, 60_000);

afterAll(async () => {
  await local?.stop();
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
