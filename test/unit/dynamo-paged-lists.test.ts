/**
 * Paged lists in the DynamoDB extract store, against DynamoDB Local: reading a page, filtered or
 * not, is one BatchGetItem of at most three items wherever the page is and however long the list,
 * every stored item stays far under DynamoDB's 400 KB, and the extract's own partition (header,
 * sections) never holds the list.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClient } from '../../local/dynamodb.ts';
import { observeDynamoCalls } from '../../shared/adapters/dynamodb/json-client.ts';
import { DynamoExtractStore, LIST_PAGE_ITEMS } from '../../shared/extracts/adapters/dynamodb.ts';
import { allTables, tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { fileTables, SHARED_DYNAMO_WAIT_MS } from '../support/dynamo.ts';

const tables = fileTables(allTables);
const table = tables.name(tableDefinitions.main);
/** The SDK's document client, to look at the stored items apart from the store under test. */
let dynamo: DynamoDBDocumentClient;
const store = new DynamoExtractStore(table);
const calls: string[] = [];

beforeAll(async () => {
  const endpoint = await tables.create();
  dynamo = DynamoDBDocumentClient.from(localClient(endpoint));
  observeDynamoCalls((operation) => calls.push(operation));
}, SHARED_DYNAMO_WAIT_MS);

afterAll(async () => {
  await tables.remove();
});

const newId = () => `ext_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
const EXPIRES = '2027-11-24T00:00:00Z';

/** 2,345 items over 7 postcodes, one of them (3000) holding about half. */
const items = Array.from({ length: 2_345 }, (_, index) => ({
  n: index,
  postcode: index % 2 === 0 ? '3000' : String(2000 + (index % 7)),
  padding: 'x'.repeat(600),
}));

async function counted<T>(work: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  calls.length = 0;
  const result = await work();
  return { result, calls: [...calls] };
}

describe('paged lists', () => {
  const id = newId();
  beforeAll(async () => {
    await store.savePagedList(
      id,
      'items',
      { items, keyOf: (item) => (item as { postcode: string }).postcode, attachment: { note: 'kept' } },
      EXPIRES,
    );
  }, 60_000);

  it('reads any page, filtered or not, with one BatchGetItem', async () => {
    for (const range of [
      { offset: 0, limit: 100 },
      { offset: 2_300, limit: 100 },
      { offset: 150, limit: 100 },
      { offset: 0, limit: 100, key: '3000' },
      { offset: 1_100, limit: 100, key: '3000' },
    ]) {
      const { result, calls: made } = await counted(() => store.readPage(id, 'items', range));
      expect(made, JSON.stringify(range)).toEqual(['BatchGetItem']);
      const expected = items.filter((item) => range.key === undefined || item.postcode === range.key);
      expect(result?.items).toEqual(expected.slice(range.offset, range.offset + range.limit));
      expect(result?.total).toBe(expected.length);
      expect(result?.attachment).toEqual({ note: 'kept' });
    }
  });

  it('answers an empty page past the end and for a key it never saw', async () => {
    expect(await store.readPage(id, 'items', { offset: 5_000, limit: 10 })).toEqual({
      items: [],
      total: 2_345,
      attachment: { note: 'kept' },
    });
    expect(await store.readPage(id, 'items', { offset: 0, limit: 10, key: '9999' })).toEqual({
      items: [],
      total: 0,
      attachment: { note: 'kept' },
    });
    expect(await store.readPage(newId(), 'items', { offset: 0, limit: 10 })).toBeUndefined();
  });

  it('stores pages of 100 items, each far under 400 KB, apart from the extract’s partition', async () => {
    const { Items = [] } = await dynamo.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `EXTP#${id}#items` },
      }),
    );
    const pages = Items.filter((item) => String(item.sk).startsWith('P#'));
    expect(pages).toHaveLength(Math.ceil(items.length / LIST_PAGE_ITEMS));
    for (const item of Items) expect((item.data as Uint8Array).length).toBeLessThan(100_000);
    const own = await dynamo.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `EXT#${id}` },
      }),
    );
    expect(own.Items).toEqual([]);
  });
});
