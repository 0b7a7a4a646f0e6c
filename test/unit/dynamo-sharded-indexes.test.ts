import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getItem, putItem } from '../../shared/adapters/dynamodb/document.ts';
import { DynamoEventLog } from '../../shared/adapters/dynamodb/events.ts';
import { INDEX_SHARDS, shardKey } from '../../shared/adapters/dynamodb/sharded-index.ts';
import { DynamoExtractStore } from '../../shared/extracts/adapters/dynamodb.ts';
import type { PurchaseRecord } from '../../shared/extracts/store-port.ts';
import { allTables, tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { DynamoOrderStore } from '../../shared/orders/adapters/dynamodb.ts';
import type { OrderRecord } from '../../shared/orders/store-port.ts';
import { DynamoDeliveryStore } from '../../shared/webhooks/adapters/dynamodb.ts';
import { newDelivery, sendDueRetries } from '../../shared/webhooks/dispatch.ts';
import type { EventRecord, EventType } from '../../shared/webhooks/event-port.ts';
import { publishMissed } from '../../shared/webhooks/publish.ts';
import type { WebhookMessage } from '../../shared/webhooks/store-port.ts';
import { fileTables, SHARED_DYNAMO_WAIT_MS } from '../support/dynamo.ts';

/**
 * The four sparse indexes the background functions read are sharded: items land in different
 * index partitions by a hash of their id, and the retry pass and the sweep still find every one,
 * items written before the split (under the bare key) included. Against DynamoDB Local.
 */

// Many writes and one query per shard against DynamoDB Local, on a machine that may be busy.
vi.setConfig({ testTimeout: 60_000 });

const tables = fileTables(allTables);
const table = tables.name(tableDefinitions.main);
const deliveries = new DynamoDeliveryStore(table);
const eventLog = new DynamoEventLog<EventType>(table);
const orders = new DynamoOrderStore(table);
const extracts = new DynamoExtractStore(table);

beforeAll(() => tables.create(), SHARED_DYNAMO_WAIT_MS);

afterAll(async () => {
  await tables.remove();
});

const COUNT = 32;
// Recent: events and deliveries expire (TTL) 31 days after the event, and DynamoDB Local deletes expired items.
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const AT = T0.toISOString().replace(/\.\d{3}Z$/, 'Z');
const id = () => randomUUID().replaceAll('-', '').slice(0, 24);
const gsi1pkOf = async (key: { pk: string; sk: string }) => (await getItem(table, key))?.gsi1pk as string;

/** Items of COUNT ids spread over at least half of the shards (a hash of 32 ids almost surely covers more). */
async function expectSpread(keys: { pk: string; sk: string }[], base: string, ids: string[]) {
  const stored = await Promise.all(keys.map(gsi1pkOf));
  expect(stored).toStrictEqual(ids.map((itemId) => shardKey(base, itemId)));
  expect(new Set(stored).size).toBeGreaterThanOrEqual(INDEX_SHARDS / 2);
}

const eventOf = (eventId: string): EventRecord => ({
  id: eventId,
  type: 'webhook_endpoint.test',
  createdAt: AT,
  livemode: false,
  accountId: 'acct_shards',
  environment: 'test',
  data: { object: 'test' },
  publishedAt: null,
});

describe('a retry pass across shards', () => {
  it('claims every due delivery, in every shard and under the bare key', async () => {
    // Prepare
    const endpointId = `we_${id()}`;
    const eventIds = Array.from({ length: COUNT }, () => `evt_${id()}`);
    await Promise.all(
      eventIds.map((eventId) => deliveries.ensure(newDelivery(eventOf(eventId), endpointId, T0))),
    );
    const legacy = { eventId: `evt_${id()}`, endpointId };
    const old = newDelivery(eventOf(legacy.eventId), endpointId, T0);
    await putItem({
      TableName: table,
      Item: {
        pk: `WHD#${legacy.eventId}`,
        sk: `EP#${endpointId}`,
        ...old,
        gsi1pk: 'WHDDUE',
        gsi1sk: `${old.nextAttemptAt}#${legacy.eventId}#${endpointId}`,
      },
    });
    const queued: WebhookMessage[] = [];
    const queue = { send: async (messages: readonly WebhookMessage[]) => void queued.push(...messages) };

    // Act
    const pass = await sendDueRetries({ deliveries, queue, now: () => new Date(T0.getTime() + 10 * 60_000) });
    const again = await sendDueRetries({
      deliveries,
      queue,
      now: () => new Date(T0.getTime() + 11 * 60_000),
    });

    // Assess
    await expectSpread(
      eventIds.map((eventId) => ({ pk: `WHD#${eventId}`, sk: `EP#${endpointId}` })),
      'WHDDUE',
      eventIds.map((eventId) => `${eventId}#${endpointId}`),
    );
    expect(pass.queued).toBe(COUNT + 1);
    expect(new Set(queued.map((m) => (m.kind === 'attempt' ? m.eventId : '')))).toStrictEqual(
      new Set([...eventIds, legacy.eventId]),
    );
    // Claimed for the lease: not claimed again by the next pass.
    expect(again.queued).toBe(0);
  });
});

describe('a sweep across shards', () => {
  it('publishes every event recorded but not published, in every shard and under the bare key', async () => {
    // Prepare
    const ids = Array.from({ length: COUNT }, () => `evt_${id()}`);
    await Promise.all(ids.map((eventId) => eventLog.record(eventOf(eventId))));
    const legacyId = `evt_${id()}`;
    await putItem({
      TableName: table,
      Item: {
        pk: `EVT#${legacyId}`,
        sk: 'EVENT',
        ...eventOf(legacyId),
        data: '{"object":"test"}',
        gsi1pk: 'EVTUNPUBLISHED',
        gsi1sk: `${AT}#${legacyId}`,
      },
    });
    const published: string[] = [];
    // Publishing takes them off the index: where they were is read first.
    await expectSpread(
      ids.map((eventId) => ({ pk: `EVT#${eventId}`, sk: 'EVENT' })),
      'EVTUNPUBLISHED',
      ids,
    );

    // Act
    const swept = await publishMissed(
      {
        eventLog,
        events: { publish: async (event) => void published.push(event.id) },
        now: () => new Date(T0.getTime() + 10 * 60_000),
      },
      500,
    );

    // Assess
    expect(swept.published).toBe(COUNT + 1);
    expect(new Set(published)).toStrictEqual(new Set([...ids, legacyId]));
    expect(await eventLog.unpublished(new Date(T0.getTime() + 86_400_000).toISOString(), 500)).toStrictEqual(
      [],
    );
  });

  it('finds every stalled order and every unsettled purchase, in every shard and under the bare key', async () => {
    // Prepare
    const orderIds = Array.from({ length: COUNT }, () => `ord_${id()}`);
    await Promise.all(orderIds.map((orderId) => orders.create(orderOf(orderId))));
    const legacyOrder = `ord_${id()}`;
    await putItem({
      TableName: table,
      Item: {
        pk: `ORD#${legacyOrder}`,
        sk: 'ORDER',
        ...orderOf(legacyOrder),
        gsi1pk: 'UNFINISHED',
        gsi1sk: `2001-01-01T00:00:00Z#${legacyOrder}`,
      },
    });
    const keys = Array.from({ length: COUNT }, () => `key_${id()}`);
    await Promise.all(keys.map((key) => extracts.startPurchase(purchaseOf(key))));
    const legacyKey = `key_${id()}`;
    await putItem({
      TableName: table,
      Item: {
        pk: `DRAFT#${legacyKey}`,
        sk: 'single',
        extractId: `ext_${legacyKey}`,
        validUntil: '2001-01-02T00:00:00Z',
        record: JSON.stringify(purchaseOf(legacyKey)),
        gsi1pk: 'UNSETTLED_PURCHASES',
        gsi1sk: `2001-01-01T00:00:00Z#${legacyKey}#single`,
      },
    });

    // Act
    const stalled = await orders.stalled('2001-01-01T01:00:00Z', 500);
    const unsettled = await extracts.unsettledPurchases('2001-01-01T01:00:00Z', 500);

    // Assess
    await expectSpread(
      orderIds.map((orderId) => ({ pk: `ORD#${orderId}`, sk: 'ORDER' })),
      'UNFINISHED',
      orderIds,
    );
    await expectSpread(
      keys.map((key) => ({ pk: `DRAFT#${key}`, sk: 'single' })),
      'UNSETTLED_PURCHASES',
      keys.map((key) => `${key}#single`),
    );
    expect(new Set(stalled.map((s) => s.id))).toStrictEqual(new Set([...orderIds, legacyOrder]));
    expect(new Set(unsettled.map((r) => r.key))).toStrictEqual(new Set([...keys, legacyKey]));
    // Oldest first, across shards.
    expect(stalled.map((s) => s.updatedAt)).toStrictEqual([...stalled.map((s) => s.updatedAt)].sort());
  });
});

function orderOf(orderId: string): OrderRecord {
  return {
    id: orderId,
    accountId: 'acct_shards',
    environment: 'live',
    type: 'charges_extract',
    status: 'pending',
    company: { acn: '000000019', name: 'EXAMPLE PTY LTD', status: 'registered' },
    documents: [],
    delivery: {
      method: 'email',
      email: 'a@example.com',
      contactName: null,
      contactPhone: null,
      recipient: null,
      address: null,
      postcode: null,
    },
    imageRequests: {},
    notices: [],
    extractSize: 'small',
    totalPages: 1,
    createdAt: '2001-01-01T00:00:00Z',
    updatedAt: '2001-01-01T00:00:00Z',
    readyAt: null,
    failure: null,
    pdfKey: null,
    dispatchedAt: null,
    fees: [],
    requestId: 'req_shards',
    clientReference: null,
    simulateFailure: false,
  };
}

function purchaseOf(key: string): PurchaseRecord {
  return {
    key,
    slot: 'single',
    clientKey: `pur_${key}`,
    extractId: `ext_${key}`,
    kind: 'company',
    accountId: 'acct_shards',
    environment: 'live',
    requestId: 'req_shards',
    clientReference: null,
    purchasedAt: '2001-01-01T00:00:00Z',
    validUntil: '2001-01-02T00:00:00Z',
    asked: {},
  };
}
