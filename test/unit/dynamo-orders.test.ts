import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoEventLog } from '../../shared/adapters/dynamodb/events.ts';
import { DynamoExtractStore } from '../../shared/extracts/adapters/dynamodb.ts';
import { allTables, tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import type { FeeEntry } from '../../shared/kernel/ports/fee-ledger.ts';
import { DynamoOfflineSearchStore, DynamoOrderStore } from '../../shared/orders/adapters/dynamodb.ts';
import type {
  OfflineSearchRecord,
  OrderRecord,
  OrderStatus,
  OrderType,
} from '../../shared/orders/store-port.ts';
import type { EventRecord } from '../../shared/webhooks/event-port.ts';
import { fileTables, SHARED_DYNAMO_WAIT_MS } from '../support/dynamo.ts';

/** The order and offline search stores against DynamoDB Local, with the tables the stacks create. */

const tables = fileTables(allTables);
const table = tables.name(tableDefinitions.main);
const orders = new DynamoOrderStore(table);
const searches = new DynamoOfflineSearchStore(table);
const ledger = new DynamoExtractStore(table);
const eventLog = new DynamoEventLog(table);

const eventFor = (
  accountId: string,
  overrides: Pick<EventRecord, 'id' | 'type' | 'createdAt'>,
): EventRecord => ({
  livemode: true,
  accountId,
  environment: 'live',
  data: { object: 'order', id: 'ord_x', status: 'x' },
  publishedAt: null,
  ...overrides,
});

beforeAll(() => tables.create(), SHARED_DYNAMO_WAIT_MS);

afterAll(async () => {
  await tables.remove();
});

const newAccount = () => `acct_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

const fee = (accountId: string, overrides: Partial<FeeEntry> = {}): FeeEntry => ({
  accountId,
  environment: 'live',
  at: '2025-03-01T10:00:00Z',
  product: 'charges_extract',
  feeCode: '955C',
  quantity: 1,
  billable: true,
  clientReference: 'ref-1',
  requestId: 'req_create',
  resourceId: 'ord_1',
  ...overrides,
});

const order = (accountId: string, overrides: Partial<OrderRecord> = {}): OrderRecord => {
  const id = overrides.id ?? `ord_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  return {
    id,
    accountId,
    environment: 'live',
    type: 'charges_extract',
    status: 'pending',
    company: { acn: '000000019', name: 'EXAMPLE PTY LTD', status: 'registered' },
    documents: [
      { documentNumber: 'DOC1', formCode: '309', pageCount: 4, pages: null, imageAvailable: true },
      {
        documentNumber: 'DOC2',
        formCode: '312',
        pageCount: 2,
        pages: { from: 1, to: 2 },
        imageAvailable: false,
      },
    ],
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
    totalPages: 6,
    createdAt: '2025-03-01T10:00:00Z',
    updatedAt: '2025-03-01T10:00:00Z',
    readyAt: null,
    failure: null,
    pdfKey: null,
    dispatchedAt: null,
    fees: [fee(accountId, { resourceId: id })],
    requestId: 'req_create',
    clientReference: 'ref-1',
    simulateFailure: false,
    ...overrides,
  };
};

const search = (accountId: string, overrides: Partial<OfflineSearchRecord> = {}): OfflineSearchRecord => {
  const id = overrides.id ?? `ofs_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  return {
    id,
    accountId,
    environment: 'live',
    status: 'pending',
    q: 'smith',
    scope: 'all',
    delivery: { method: 'webhook' },
    createdAt: '2025-03-01T10:00:00Z',
    updatedAt: '2025-03-01T10:00:00Z',
    readyAt: null,
    resultCount: null,
    resultsKey: null,
    failure: null,
    fees: [fee(accountId, { product: 'offline_search', feeCode: null, billable: false, resourceId: id })],
    requestId: 'req_search',
    clientReference: null,
    simulateFailure: false,
    ...overrides,
  };
};

const entriesOf = (accountId: string) =>
  ledger.entries(accountId, 'live', '2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z');

describe('creating an order', () => {
  it('writes it once: a second create returns false and bills nothing more', async () => {
    // Prepare
    const accountId = newAccount();
    const first = order(accountId, {
      fees: [
        fee(accountId, { product: 'charges_extract', resourceId: 'ord_same' }),
        fee(accountId, { product: 'postage', feeCode: 'POST', resourceId: 'ord_same' }),
      ],
      id: 'ord_same',
    });
    const again = order(accountId, {
      id: 'ord_same',
      status: 'processing',
      fees: [fee(accountId, { requestId: 'req_retry', resourceId: 'ord_same' })],
    });

    // Act
    const created = await orders.create(first);
    const createdAgain = await orders.create(again);

    // Assess
    expect(created).toBe(true);
    expect(createdAgain).toBe(false);
    expect(await orders.get('ord_same')).toStrictEqual(first);
    expect(await entriesOf(accountId)).toStrictEqual(first.fees);
    expect((await orders.list(accountId, 'live', { status: 'processing', limit: 10 })).items).toStrictEqual(
      [],
    );
  });

  it('answers undefined for an unknown id', async () => {
    // Act
    const found = await orders.get('ord_missing');

    // Assess
    expect(found).toBeUndefined();
  });
});

describe('listing orders', () => {
  const accountId = newAccount();
  const at = (minute: number) => `2025-04-01T10:${String(minute).padStart(2, '0')}:00Z`;
  const spec: [string, OrderStatus, OrderType, number][] = [
    ['ord_l1', 'pending', 'charges_extract', 1],
    ['ord_l2', 'processing', 'document_image', 2],
    ['ord_l3', 'pending', 'document_image', 3],
    ['ord_l4', 'ready', 'charges_extract', 4],
    ['ord_l5', 'pending', 'charges_extract', 5],
  ];

  beforeAll(async () => {
    // Prepare
    for (const [id, status, type, minute] of spec) {
      expect(
        await orders.create(
          order(accountId, { id, status, type, createdAt: at(minute), updatedAt: at(minute), fees: [] }),
        ),
      ).toBe(true);
    }
    // Another account and the other environment of this one stay out of the listing.
    await orders.create(order(newAccount(), { id: 'ord_other', createdAt: at(9), fees: [] }));
    await orders.create(
      order(accountId, { id: 'ord_test', environment: 'test', createdAt: at(9), fees: [] }),
    );
  });

  const ids = (page: { items: OrderRecord[] }) => page.items.map((item) => item.id);

  it('pages through all orders newest first', async () => {
    // Act
    const first = await orders.list(accountId, 'live', { limit: 2 });
    const second = await orders.list(accountId, 'live', { limit: 2, after: first.next });
    const third = await orders.list(accountId, 'live', { limit: 2, after: second.next });

    // Assess
    expect(ids(first)).toStrictEqual(['ord_l5', 'ord_l4']);
    expect(first.next).toMatch(new RegExp(`^${at(4)}#\\d{15}#ord_l4$`));
    expect(ids(second)).toStrictEqual(['ord_l3', 'ord_l2']);
    expect(second.next).toMatch(new RegExp(`^${at(2)}#\\d{15}#ord_l2$`));
    expect(ids(third)).toStrictEqual(['ord_l1']);
    expect(third.next).toBeUndefined();
    expect(first.items[0]).toStrictEqual(
      order(accountId, { id: 'ord_l5', createdAt: at(5), updatedAt: at(5), fees: [] }),
    );
  });

  it('gives no next when the last page is exactly full', async () => {
    // Act
    const page = await orders.list(accountId, 'live', { limit: 5 });

    // Assess
    expect(ids(page)).toStrictEqual(['ord_l5', 'ord_l4', 'ord_l3', 'ord_l2', 'ord_l1']);
    expect(page.next).toBeUndefined();
  });

  it('filters by status with full pages', async () => {
    // Act
    const first = await orders.list(accountId, 'live', { status: 'pending', limit: 2 });
    const second = await orders.list(accountId, 'live', { status: 'pending', limit: 2, after: first.next });

    // Assess
    expect(ids(first)).toStrictEqual(['ord_l5', 'ord_l3']);
    expect(first.next).toMatch(new RegExp(`^${at(3)}#\\d{15}#ord_l3$`));
    expect(ids(second)).toStrictEqual(['ord_l1']);
    expect(second.next).toBeUndefined();
  });

  it('filters by type', async () => {
    // Act
    const page = await orders.list(accountId, 'live', { type: 'document_image', limit: 10 });

    // Assess
    expect(ids(page)).toStrictEqual(['ord_l3', 'ord_l2']);
    expect(page.next).toBeUndefined();
  });

  it('filters by status and type', async () => {
    // Act
    const page = await orders.list(accountId, 'live', {
      status: 'pending',
      type: 'charges_extract',
      limit: 1,
    });
    const rest = await orders.list(accountId, 'live', {
      status: 'pending',
      type: 'charges_extract',
      limit: 1,
      after: page.next,
    });

    // Assess
    expect(ids(page)).toStrictEqual(['ord_l5']);
    expect(page.next).toMatch(new RegExp(`^${at(5)}#\\d{15}#ord_l5$`));
    expect(ids(rest)).toStrictEqual(['ord_l1']);
    expect(rest.next).toBeUndefined();
  });

  it('lists the other environment apart', async () => {
    // Act
    const page = await orders.list(accountId, 'test', { limit: 10 });

    // Assess
    expect(ids(page)).toStrictEqual(['ord_test']);
  });
});

describe('order transitions', () => {
  it('with a wrong `from` returns false and changes nothing', async () => {
    // Prepare
    const accountId = newAccount();
    const record = order(accountId);
    await orders.create(record);

    // Act
    const moved = await orders.transition(record.id, {
      from: ['processing'],
      to: 'ready',
      at: '2025-03-01T11:00:00Z',
      set: { readyAt: '2025-03-01T11:00:00Z' },
      fees: [fee(accountId, { requestId: 'req_void', quantity: -1 })],
    });

    // Assess
    expect(moved).toBe(false);
    expect(await orders.get(record.id)).toStrictEqual(record);
    expect(await entriesOf(accountId)).toStrictEqual(record.fees);
    expect((await orders.list(accountId, 'live', { status: 'pending', limit: 10 })).items).toStrictEqual([
      record,
    ]);
    expect((await orders.list(accountId, 'live', { status: 'ready', limit: 10 })).items).toStrictEqual([]);
  });

  it('of an unknown order returns false', async () => {
    // Act
    const moved = await orders.transition('ord_nowhere', { from: ['pending'], to: 'processing', at: 'x' });

    // Assess
    expect(moved).toBe(false);
  });

  it('moves the order between status listings', async () => {
    // Prepare
    const accountId = newAccount();
    const record = order(accountId, { type: 'document_image' });
    await orders.create(record);

    // Act
    const moved = await orders.transition(record.id, {
      from: ['pending', 'processing'],
      to: 'processing',
      at: '2025-03-01T10:05:00Z',
    });

    // Assess
    expect(moved).toBe(true);
    const processing = { ...record, status: 'processing' as const, updatedAt: '2025-03-01T10:05:00Z' };
    expect(await orders.get(record.id)).toStrictEqual(processing);
    const list = async (status?: OrderStatus, type?: OrderType) =>
      (await orders.list(accountId, 'live', { status, type, limit: 10 })).items;
    expect(await list('pending')).toStrictEqual([]);
    expect(await list('pending', 'document_image')).toStrictEqual([]);
    expect(await list('processing')).toStrictEqual([processing]);
    expect(await list('processing', 'document_image')).toStrictEqual([processing]);
    expect(await list(undefined, 'document_image')).toStrictEqual([processing]);
    expect(await list()).toStrictEqual([processing]);
  });

  it('writes the set fields, the owed event and the fees of a failure', async () => {
    // Prepare
    const accountId = newAccount();
    const record = order(accountId, { status: 'processing' });
    await orders.create(record);
    const voids = [
      fee(accountId, {
        at: '2025-03-01T12:00:00Z',
        quantity: -1,
        requestId: 'req_fail',
        resourceId: record.id,
      }),
      fee(accountId, {
        at: '2025-03-01T12:00:00Z',
        product: 'postage',
        quantity: -1,
        requestId: 'req_fail',
        resourceId: record.id,
      }),
    ];
    const event = eventFor(accountId, {
      id: `evt_${randomUUID().slice(0, 8)}`,
      type: 'order.failed',
      createdAt: '2025-03-01T12:00:00Z',
    });
    const failure = { code: 'registry_unavailable', registryCode: 'E42', message: 'The registry failed.' };

    // Act
    const moved = await orders.transition(record.id, {
      from: ['pending', 'processing'],
      to: 'failed',
      at: '2025-03-01T12:00:00Z',
      set: { failure },
      event,
      fees: voids,
    });

    // Assess
    expect(moved).toBe(true);
    const failed = {
      ...record,
      status: 'failed' as const,
      updatedAt: '2025-03-01T12:00:00Z',
      failure,
    };
    expect(await orders.get(record.id)).toStrictEqual(failed);
    expect(await eventLog.get(event.id)).toStrictEqual(event);
    expect(await entriesOf(accountId)).toStrictEqual([...record.fees, ...voids]);
    expect((await orders.list(accountId, 'live', { status: 'failed', limit: 10 })).items).toStrictEqual([
      failed,
    ]);
    expect((await orders.list(accountId, 'live', { status: 'processing', limit: 10 })).items).toStrictEqual(
      [],
    );
  });
});

describe('order updates', () => {
  it('keep the first image request id of a batch', async () => {
    // Prepare
    const record = order(newAccount(), { status: 'processing' });
    await orders.create(record);

    // Act
    const first = await orders.recordImageRequest(record.id, 0, 'rr_first');
    const retried = await orders.recordImageRequest(record.id, 0, 'rr_second');
    const next = await orders.recordImageRequest(record.id, 1, 'rr_next');

    // Assess
    expect([first, retried, next]).toStrictEqual(['rr_first', 'rr_first', 'rr_next']);
    expect((await orders.get(record.id))?.imageRequests).toStrictEqual({ '0': 'rr_first', '1': 'rr_next' });
  });

  it('refuse an image request for an unknown order', async () => {
    // Act
    const recorded = orders.recordImageRequest('ord_unknown', 0, 'rr_1');

    // Assess
    await expect(recorded).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(await orders.get('ord_unknown')).toBeUndefined();
  });

  it('add each notice once and set the PDF key', async () => {
    // Prepare
    const record = order(newAccount(), { status: 'processing', notices: ['No image of DOC2.'] });
    await orders.create(record);

    // Act
    await orders.update(record.id, { notices: ['Page 3 unreadable.'], updatedAt: '2025-03-01T10:10:00Z' });
    await orders.update(record.id, { notices: ['Page 3 unreadable.'], updatedAt: '2025-03-01T10:11:00Z' });
    await orders.update(record.id, {
      notices: ['No image of DOC2.', 'Cover page only.'],
      pdfKey: 'orders/x.pdf',
      updatedAt: '2025-03-01T10:12:00Z',
    });

    // Assess
    expect(await orders.get(record.id)).toStrictEqual({
      ...record,
      notices: ['No image of DOC2.', 'Page 3 unreadable.', 'Cover page only.'],
      pdfKey: 'orders/x.pdf',
      updatedAt: '2025-03-01T10:12:00Z',
    });
  });

  it('made at once lose no notice', async () => {
    // Prepare
    const record = order(newAccount(), { status: 'processing' });
    await orders.create(record);

    // Act
    await Promise.all(
      ['a', 'b', 'c'].map((notice) =>
        orders.update(record.id, { notices: [notice], updatedAt: record.updatedAt }),
      ),
    );

    // Assess
    expect((await orders.get(record.id))?.notices.toSorted()).toStrictEqual(['a', 'b', 'c']);
  });

  it('mark a recorded event published once, and list it no more as unpublished', async () => {
    // Prepare
    const accountId = newAccount();
    const event = eventFor(accountId, {
      id: `evt_${randomUUID().slice(0, 8)}`,
      type: 'order.ready',
      createdAt: '2025-03-01T11:00:00Z',
    });
    await eventLog.record(event);
    const before = (await eventLog.unpublished('2025-03-01T11:00:01Z', 100)).map((e) => e.id);

    // Act
    await eventLog.markPublished(event.id, '2025-03-01T11:00:05Z');
    await eventLog.markPublished(event.id, '2025-03-01T11:00:09Z');

    // Assess
    expect(before).toContain(event.id);
    expect(await eventLog.get(event.id)).toStrictEqual({ ...event, publishedAt: '2025-03-01T11:00:05Z' });
    expect((await eventLog.unpublished('2025-03-01T11:00:01Z', 100)).map((e) => e.id)).not.toContain(
      event.id,
    );
    expect(
      (await eventLog.list(accountId, 'live', { since: '2025-02-01T00:00:00Z', limit: 10 })).items,
    ).toStrictEqual([event]);
    expect(
      (
        await eventLog.list(accountId, 'live', {
          type: 'order.failed',
          since: '2025-02-01T00:00:00Z',
          limit: 10,
        })
      ).items,
    ).toStrictEqual([]);
  });
});

describe('stalled work', () => {
  // Times of this block are in 2000, before those of every other test.
  const t = (minute: number) => `2000-01-01T00:${String(minute).padStart(2, '0')}:00Z`;

  it('lists only unfinished orders and searches untouched since `before`, oldest first', async () => {
    // Prepare
    const accountId = newAccount();
    const stamp = (minute: number) => ({ createdAt: t(minute), updatedAt: t(minute), fees: [] });
    await orders.create(order(accountId, { id: 'ord_s_pending', ...stamp(0) }));
    await orders.create(order(accountId, { id: 'ord_s_processing', ...stamp(0) }));
    await orders.transition('ord_s_processing', { from: ['pending'], to: 'processing', at: t(1) });
    await orders.create(order(accountId, { id: 'ord_s_ready', ...stamp(2) }));
    await orders.transition('ord_s_ready', { from: ['pending'], to: 'ready', at: t(3) });
    await orders.create(order(accountId, { id: 'ord_s_touched', ...stamp(3) }));
    await orders.update('ord_s_touched', { notices: ['n'], updatedAt: t(20) });
    await orders.create(order(accountId, { id: 'ord_s_late', ...stamp(15) }));
    await orders.create(order(accountId, { id: 'ord_s_born_ready', status: 'ready', ...stamp(1) }));
    await searches.create(search(accountId, { id: 'ofs_s_pending', ...stamp(4) }), '2000-01-01', 20);
    await searches.create(search(accountId, { id: 'ofs_s_failed', ...stamp(5) }), '2000-01-01', 20);
    await searches.transition('ofs_s_failed', { from: ['pending'], to: 'failed', at: t(6) });

    // Act
    const stalled = await orders.stalled(t(10), 10);
    const firstTwo = await orders.stalled(t(10), 2);

    // Assess
    expect(stalled).toStrictEqual([
      { id: 'ord_s_pending', updatedAt: t(0) },
      { id: 'ord_s_processing', updatedAt: t(1) },
      { id: 'ofs_s_pending', updatedAt: t(4) },
    ]);
    expect(firstTwo).toStrictEqual(stalled.slice(0, 2));
    expect(await orders.stalled(t(0), 10)).toStrictEqual([]);
  });
});

describe('offline searches', () => {
  const day = '2025-05-01';
  const at = '2025-05-01T09:00:00Z';

  it('accept 20 a day per account: the 21st is refused, another day is fine, a repeat is `exists`', async () => {
    // Prepare
    const accountId = newAccount();
    const made = Array.from({ length: 22 }, (_, index) =>
      search(accountId, { id: `ofs_day_${String(index).padStart(2, '0')}`, createdAt: at, updatedAt: at }),
    );

    // Act
    const first20 = [];
    for (const record of made.slice(0, 20)) first20.push(await searches.create(record, day, 20));
    const twentyFirst = await searches.create(made[20] as OfflineSearchRecord, day, 20);
    const nextDay = await searches.create(made[21] as OfflineSearchRecord, '2025-05-02', 20);
    const repeatOnFullDay = await searches.create(made[0] as OfflineSearchRecord, day, 20);
    const repeatOnOpenDay = await searches.create(made[21] as OfflineSearchRecord, '2025-05-02', 20);
    const otherAccount = await searches.create(search(newAccount()), day, 20);

    // Assess
    expect(first20).toStrictEqual(Array(20).fill('created'));
    expect(twentyFirst).toBe('limit');
    expect(nextDay).toBe('created');
    expect(repeatOnFullDay).toBe('exists');
    expect(repeatOnOpenDay).toBe('exists');
    expect(otherAccount).toBe('created');
    expect(await searches.get(made[20]?.id as string)).toBeUndefined();
    expect(await searches.get(made[0]?.id as string)).toStrictEqual(made[0]);
    const billed = [...made.slice(0, 20), made[21] as OfflineSearchRecord].flatMap((record) => record.fees);
    expect(await entriesOf(accountId)).toStrictEqual(billed);
  });

  it('transition only from the given statuses and write their fees', async () => {
    // Prepare
    const accountId = newAccount();
    const record = search(accountId);
    await searches.create(record, '2025-03-01', 20);
    const voids = [fee(accountId, { at: '2025-03-01T10:30:00Z', quantity: -1, requestId: 'req_void' })];
    const event = eventFor(accountId, {
      id: `evt_${randomUUID().slice(0, 8)}`,
      type: 'offline_search.ready',
      createdAt: '2025-03-01T10:20:00Z',
    });

    // Act
    const wrong = await searches.transition(record.id, { from: ['processing'], to: 'ready', at: 'x' });
    const ready = await searches.transition(record.id, {
      from: ['pending', 'processing'],
      to: 'ready',
      at: '2025-03-01T10:20:00Z',
      set: { resultCount: 3, resultsKey: 'searches/r.json', readyAt: '2025-03-01T10:20:00Z' },
      event,
    });
    const voided = await searches.transition(record.id, {
      from: ['ready'],
      to: 'failed',
      at: '2025-03-01T10:30:00Z',
      fees: voids,
    });
    const voidedAgain = await searches.transition(record.id, {
      from: ['ready'],
      to: 'failed',
      at: '2025-03-01T10:31:00Z',
      fees: voids,
    });

    // Assess
    expect([wrong, ready, voided, voidedAgain]).toStrictEqual([false, true, true, false]);
    expect(await searches.get(record.id)).toStrictEqual({
      ...record,
      status: 'failed',
      updatedAt: '2025-03-01T10:30:00Z',
      readyAt: '2025-03-01T10:20:00Z',
      resultCount: 3,
      resultsKey: 'searches/r.json',
    });
    expect(await eventLog.get(event.id)).toStrictEqual(event);
    expect(await entriesOf(accountId)).toStrictEqual([...record.fees, ...voids]);
  });
});
