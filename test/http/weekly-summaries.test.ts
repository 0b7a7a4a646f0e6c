/**
 * Weekly summaries (issue 17; spec document 2, 4.10; document 1, 2.7): bought once per type and
 * week unless `refresh`, billed with the type's fee code, read page by page for free, optionally
 * by postcode. Live keys reach the registry simulator, whose generated weeks are relative to the
 * clock (local/generated-weekly-summaries.ts): last week has every summary, two weeks ago holds
 * the 20,000-item new-registrations week, three weeks ago is empty, six weeks ago unpublished.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WEEKLY_CASES } from '../../local/generated-weekly-summaries.ts';
import { weeklySummaryTypes } from '../../shared/weekly-summaries/registry-port.ts';
import { mondayWeeksAgo } from '../../shared/weekly-summaries/weeks.ts';
import {
  type ApiResponse,
  buyExtract,
  call,
  clock,
  createKey,
  expectError,
  type FeeEntryBody,
  failNextCommits,
  registryCalls,
  simulator,
  sweepLater,
  validationError,
} from '../support/api.ts';

const DAY = 86_400_000;

interface Coded {
  code: string;
  label: string;
}
interface Item {
  object: string;
  subType: Coded;
  date: string;
  postcode: string | null;
  documentNumber: string | null;
  subject: {
    type: string;
    person: unknown;
    birth: unknown;
    organisation: { name: string } | null;
  } | null;
  newName: string | null;
  licenceNumber: string | null;
  company: ({ name: string; class: Coded | null; subClass: Coded | null } & Record<string, unknown>) | null;
}
interface WeeklySummary {
  object: string;
  id: string;
  kind: string;
  type: string;
  subject: null;
  summaryType: Coded;
  weekStarting: string;
  weekEnding: string;
  purchasedAt: string;
  asOf: string;
  expiresAt: string;
  clientReference: string | null;
  postcode: string | null;
  items: { object: string; data: Item[]; hasMore: boolean; nextCursor: string | null; totalCount: number };
  postcodeTotals: { postcode: string; count: number }[] | null;
  meta: { billable: boolean; product: string | null; requestId: string };
}

const week = (ago: number) => mondayWeeksAgo(new Date(), ago);

const buy = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call<WeeklySummary>('/v1/weekly-summaries', { key, method: 'POST', body, headers });

const read = (key: string, id: string, query = '') =>
  call<WeeklySummary>(`/v1/weekly-summaries/${id}${query}`, { key });

const usageOf = async (secret: string) =>
  (await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: secret })).body.data;

const billed = async (accountId: string) =>
  (await registryCalls(accountId, 'weekly.summary')).filter((c) => c.billed).length;

const expectCreated = (response: ApiResponse<WeeklySummary>) => {
  expect(response.status, response.text).toBe(201);
  return response.body;
};

afterEach(async () => {
  await simulator.clearFaults();
  await failNextCommits(0);
  await clock.reset();
});

describe('POST /v1/weekly-summaries: the request is checked before the registry is asked', () => {
  it.each([
    ['an unknown type', { type: 'charges', weekStarting: 'W1' }, 400, 'summary_type_invalid', 'type'],
    ['a type in capitals', { type: 'NAME-CHANGES', weekStarting: 'W1' }, 400, 'summary_type_invalid', 'type'],
    ['a Tuesday', { type: 'name-changes', weekStarting: 'TUE' }, 400, 'week_start_invalid', 'weekStarting'],
    [
      'no such date',
      { type: 'name-changes', weekStarting: '2026-02-30' },
      400,
      'week_start_invalid',
      'weekStarting',
    ],
    [
      'not a date',
      { type: 'name-changes', weekStarting: 'last week' },
      400,
      'week_start_invalid',
      'weekStarting',
    ],
    [
      'the current week',
      { type: 'name-changes', weekStarting: 'W0' },
      400,
      'week_start_invalid',
      'weekStarting',
    ],
    [
      'a future week',
      { type: 'name-changes', weekStarting: 'W-2' },
      400,
      'week_start_invalid',
      'weekStarting',
    ],
    [
      'over 12 months ago',
      { type: 'name-changes', weekStarting: 'W54' },
      400,
      'week_start_invalid',
      'weekStarting',
    ],
    ['no type', { weekStarting: 'W1' }, 422, 'validation_error', 'type'],
    // Not one of the six types, whatever its JSON type: the contract's enum says so.
    ['a type that is not a string', { type: 7, weekStarting: 'W1' }, 400, 'summary_type_invalid', 'type'],
    ['no weekStarting', { type: 'name-changes' }, 422, 'validation_error', 'weekStarting'],
    [
      'refresh not a boolean',
      { type: 'name-changes', weekStarting: 'W1', refresh: 'yes' },
      422,
      'validation_error',
      'refresh',
    ],
    [
      'an unknown field',
      { type: 'name-changes', weekStarting: 'W1', postcode: '2000' },
      422,
      'validation_error',
      'postcode',
    ],
  ])('%s → %s %s on %s, nothing asked', async (_, body, status, code, param) => {
    const key = await createKey('live');
    const weekStarting = (body as { weekStarting?: string }).weekStarting;
    const resolved =
      weekStarting === 'TUE'
        ? new Date(Date.parse(week(1)) + DAY).toISOString().slice(0, 10)
        : weekStarting?.startsWith('W')
          ? week(Number(weekStarting.slice(1)))
          : weekStarting;
    const response = await buy(key.secret, {
      ...body,
      ...(resolved === undefined ? {} : { weekStarting: resolved }),
    });
    expectError(response, status, { type: 'invalid_request_error', code, param });
    expect(await registryCalls(key.accountId, 'weekly.summary')).toEqual([]);
  });

  it('test keys → 403 sandbox_product_unavailable (ZZ54), nothing recorded', async () => {
    const key = await createKey('test');
    const response = await buy(key.secret, { type: 'name-changes', weekStarting: week(1) });
    expectError(response, 403, {
      type: 'permission_error',
      code: 'sandbox_product_unavailable',
      param: null,
      registryCode: 'ZZ54',
    });
    expect(await usageOf(key.secret)).toEqual([]);
  });

  it('a week the registry did not produce → 404 summary_unavailable (WS51), nothing bought', async () => {
    const key = await createKey('live');
    const response = await buy(key.secret, {
      type: 'new-registrations',
      weekStarting: week(WEEKLY_CASES.unpublishedWeeksAgo),
    });
    expectError(response, 404, {
      type: 'not_found_error',
      code: 'summary_unavailable',
      param: 'weekStarting',
      registryCode: 'WS51',
    });
    expect(await billed(key.accountId)).toBe(0);
    expect(await usageOf(key.secret)).toEqual([]);
    const list = await call<{ data: unknown[] }>('/v1/weekly-summaries', { key: key.secret });
    expect(list.body.data).toEqual([]);
  });
});

/** Names of an item's non-null fields, sorted. */
const populated = (item: Item) =>
  Object.entries(item)
    .filter(([, value]) => value !== null)
    .map(([name]) => name)
    .sort();

const FEE_CODES = {
  'new-registrations': '930A',
  'name-changes': '930B',
  'external-administrations': '930D',
  'licences-granted': '930E',
  'disqualified-directors': '930F',
  'new-schemes': '930G',
} as const;

const POPULATED = {
  'new-registrations': ['company', 'date', 'documentNumber', 'object', 'postcode', 'subType'],
  'name-changes': ['company', 'date', 'documentNumber', 'newName', 'object', 'subType', 'subject'],
  'external-administrations': ['company', 'date', 'documentNumber', 'object', 'subType', 'subject'],
  'licences-granted': ['date', 'licenceNumber', 'object', 'subType', 'subject'],
  'disqualified-directors': ['date', 'documentNumber', 'object', 'subType', 'subject'],
  'new-schemes': ['company', 'date', 'object', 'postcode', 'subType'],
} as const;

const SUB_TYPES: Record<string, string[]> = {
  'new-registrations': ['REGN', 'REIN', 'DRGD', 'CHGT', WEEKLY_CASES.unknownSubType],
  'name-changes': ['NAME'],
  'external-administrations': ['EXAC', 'EXAD', 'EXAL', 'EXCQ', 'EXRQ', 'EXRC', 'EXMN', 'DRGD'],
  'licences-granted': ['LCRA', 'LCRQ', 'LCOQ', 'LCFL', 'LCSD', 'LCIA', 'LCFB', 'LCFD'],
  'disqualified-directors': ['DISQ'],
  'new-schemes': ['MISM'],
};

describe('POST /v1/weekly-summaries: a purchase', () => {
  it.each(weeklySummaryTypes.map((type) => [type]))(
    '%s: 201 with the first page, the fields its type populates, its fee code on the ledger',
    async (type) => {
      const key = await createKey('live');
      const body = expectCreated(await buy(key.secret, { type, weekStarting: week(1) }));
      expect(body).toMatchObject({
        object: 'extract',
        kind: 'weeklySummary',
        type,
        subject: null,
        weekStarting: week(1),
        weekEnding: new Date(Date.parse(week(1)) + 6 * DAY).toISOString().slice(0, 10),
        postcode: null,
        clientReference: null,
      });
      expect(body.id).toMatch(/^ext_[0-9a-f]{24}$/);
      expect(body.meta).toStrictEqual({
        billable: true,
        product: 'weekly_summary',
        requestId: expect.stringMatching(/^req_/),
      });
      expect(body.items.totalCount).toBeGreaterThanOrEqual(25);
      expect(body.items.data).toHaveLength(20);
      expect(body.items.hasMore).toBe(true);
      for (const item of body.items.data) {
        expect(populated(item)).toEqual(POPULATED[type]);
        expect(SUB_TYPES[type]).toContain(item.subType.code);
        if (item.company)
          expect(Object.keys(item.company)).toEqual(expect.arrayContaining(['class', 'subClass']));
        if (type === 'disqualified-directors') expect(item.subject?.birth).not.toBeNull();
        else if (item.subject) expect(item.subject.birth).toBeNull();
        if (type === 'name-changes') {
          expect(item.subject?.organisation?.name).toBe(item.company?.name);
          expect(item.newName).not.toBe(item.company?.name);
        }
      }
      if (type === 'new-registrations') {
        expect(body.items.data[0]?.subType).toEqual({
          code: WEEKLY_CASES.unknownSubType,
          label: WEEKLY_CASES.unknownSubType,
        });
        expect(body.postcodeTotals?.reduce((sum, total) => sum + total.count, 0)).toBe(body.items.totalCount);
      } else {
        expect(body.postcodeTotals).toBeNull();
      }
      const usage = await usageOf(key.secret);
      expect(usage.map((entry) => [entry.product, entry.feeCode, entry.billable, entry.resourceId])).toEqual([
        ['weekly_summary', FEE_CODES[type], true, body.id],
      ]);
      expect(await billed(key.accountId)).toBe(1);
    },
  );

  it('bought again: the held extract (same id, original purchasedAt), no fee; refresh buys anew', async () => {
    const key = await createKey('live');
    const order = { type: 'name-changes', weekStarting: week(1) };
    const first = expectCreated(await buy(key.secret, order));
    const again = expectCreated(await buy(key.secret, order));
    expect(again.id).toBe(first.id);
    expect(again.purchasedAt).toBe(first.purchasedAt);
    // The cursor carries its issue time; everything else is the same.
    expect(again.items).toEqual({ ...first.items, nextCursor: expect.any(String) });
    expect(again.meta.billable).toBe(false);
    expect(again.meta.product).toBe('weekly_summary');
    expect(await usageOf(key.secret)).toHaveLength(1);
    expect(await billed(key.accountId)).toBe(1);

    const refreshed = expectCreated(await buy(key.secret, { ...order, refresh: true }));
    expect(refreshed.id).not.toBe(first.id);
    expect(refreshed.meta.billable).toBe(true);
    const usage = await usageOf(key.secret);
    expect(usage.map((entry) => [entry.feeCode, entry.resourceId])).toEqual([
      ['930B', first.id],
      ['930B', refreshed.id],
    ]);
    expect(await billed(key.accountId)).toBe(2);

    // The newest one is what a repeat returns; other types and weeks are purchases of their own.
    const third = expectCreated(await buy(key.secret, { ...order, refresh: false }));
    expect([third.id, third.meta.billable]).toEqual([refreshed.id, false]);
    const other = expectCreated(await buy(key.secret, { ...order, weekStarting: week(4) }));
    expect(other.meta.billable).toBe(true);
    expect(await usageOf(key.secret)).toHaveLength(3);

    // The same type and week for another account or environment is a purchase of its own.
    const otherAccount = await createKey('live');
    const theirs = expectCreated(await buy(otherAccount.secret, order));
    expect([theirs.id === first.id, theirs.meta.billable]).toEqual([false, true]);
  });

  it('an empty week: 201 with totalCount 0, billed', async () => {
    const key = await createKey('live');
    const body = expectCreated(
      await buy(key.secret, { type: 'new-registrations', weekStarting: week(WEEKLY_CASES.emptyWeeksAgo) }),
    );
    expect(body.items).toStrictEqual({
      object: 'list',
      data: [],
      hasMore: false,
      nextCursor: null,
      totalCount: 0,
    });
    expect(body.postcodeTotals).toEqual([]);
    expect(body.meta.billable).toBe(true);
    expect((await usageOf(key.secret)).map((entry) => entry.feeCode)).toEqual(['930A']);
  });

  it('Idempotency-Key: the same key and body answer the first result; another body is 409', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': `ws-${key.accountId}`, 'X-Client-Reference': 'matter-17' };
    const order = { type: 'licences-granted', weekStarting: week(2), refresh: true };
    const first = expectCreated(await buy(key.secret, order, headers));
    const replay = expectCreated(await buy(key.secret, order, headers));
    expect(replay.id).toBe(first.id);
    expect(replay.meta.billable).toBe(true);
    expect(first.clientReference).toBe('matter-17');
    expect(await billed(key.accountId)).toBe(1);
    const usage = await usageOf(key.secret);
    expect(usage.map((entry) => [entry.feeCode, entry.clientReference])).toEqual([['930E', 'matter-17']]);
    const conflict = await buy(key.secret, { ...order, type: 'name-changes' }, headers);
    expectError(conflict, 409, {
      type: 'conflict_error',
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
  });

  it('concurrent identical purchases bill once and answer one extract', async () => {
    const key = await createKey('live');
    const order = { type: 'disqualified-directors', weekStarting: week(5) };
    const answers = await Promise.all([1, 2, 3, 4].map(() => buy(key.secret, order)));
    const bodies = answers.map(expectCreated);
    expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
    expect(bodies.filter((body) => body.meta.billable)).toHaveLength(1);
    expect(await usageOf(key.secret)).toHaveLength(1);
    expect(await billed(key.accountId)).toBe(1);
  });
});

describe('reading a held weekly summary', () => {
  it('GET /v1/weekly-summaries/{id}: free, pages with cursors, never asks the registry', async () => {
    const key = await createKey('live');
    const bought = expectCreated(
      await buy(key.secret, { type: 'external-administrations', weekStarting: week(1) }),
    );
    const calls = (await registryCalls(key.accountId, 'weekly.summary')).length;
    const all: Item[] = [];
    let response = await read(key.secret, bought.id, '?limit=7');
    for (;;) {
      expect(response.status, response.text).toBe(200);
      const body = response.body;
      expect(body.meta).toStrictEqual({ billable: false, product: null, requestId: expect.any(String) });
      expect([body.id, body.purchasedAt, body.postcode]).toEqual([bought.id, bought.purchasedAt, null]);
      expect(body.items.totalCount).toBe(bought.items.totalCount);
      all.push(...body.items.data);
      if (!body.items.hasMore) {
        expect(body.items.nextCursor).toBeNull();
        break;
      }
      response = await read(key.secret, bought.id, `?limit=7&cursor=${body.items.nextCursor}`);
    }
    expect(all).toHaveLength(bought.items.totalCount);
    expect(all.slice(0, 20)).toEqual(bought.items.data);
    // The purchase's cursor continues the same list.
    const second = await read(key.secret, bought.id, `?cursor=${bought.items.nextCursor}`);
    expect(second.body.items.data).toEqual(all.slice(20, 40));
    expect((await registryCalls(key.accountId, 'weekly.summary')).length).toBe(calls);
    expect((await registryCalls(key.accountId, 'weekly.summary.items')).length).toBe(0);
  });

  it('403 for another account or environment, 404 for unknown ids and other kinds, 410 after 12 months', async () => {
    const key = await createKey('live');
    const bought = expectCreated(await buy(key.secret, { type: 'new-schemes', weekStarting: week(1) }));
    const mismatch = { type: 'permission_error', code: 'extract_owner_mismatch', param: 'id' };
    const stranger = await createKey('live');
    expectError(await read(stranger.secret, bought.id), 403, mismatch);
    const testKey = await createKey('test', { accountId: key.accountId });
    expectError(await read(testKey.secret, bought.id), 403, mismatch);
    const notFound = { type: 'not_found_error', code: 'extract_not_found', param: 'id' };
    expectError(await read(key.secret, 'ext_000000000000000000000000'), 404, notFound);
    expectError(await read(key.secret, 'nonsense'), 404, notFound);
    const company = await buyExtract(key.secret, '990000014', 'current');
    expect(company.status, company.text).toBe(201);
    expectError(await read(key.secret, company.body.id), 404, notFound);

    await clock.advance(366 * DAY);
    const expired = { type: 'invalid_request_error', code: 'extract_expired', param: 'id' };
    expectError(await read(key.secret, bought.id), 410, expired);
    expectError(await call(`/v1/extracts/${bought.id}`, { key: key.secret }), 410, expired);
  });

  it('a filter or extract changed mid-pagination → 400 validation_error on cursor', async () => {
    const key = await createKey('live');
    const bought = expectCreated(await buy(key.secret, { type: 'new-registrations', weekStarting: week(1) }));
    const [a, b] = bought.postcodeTotals ?? [];
    const first = await read(key.secret, bought.id, `?postcode=${a?.postcode}&limit=1`);
    expect(first.status, first.text).toBe(200);
    const cursor = first.body.items.nextCursor;
    expect(cursor).not.toBeNull();
    const cursorError = { type: 'invalid_request_error', code: 'validation_error', param: 'cursor' };
    expectError(
      await read(key.secret, bought.id, `?postcode=${b?.postcode}&limit=1&cursor=${cursor}`),
      400,
      cursorError,
    );
    expectError(await read(key.secret, bought.id, `?limit=1&cursor=${cursor}`), 400, cursorError);
    const other = expectCreated(await buy(key.secret, { type: 'new-registrations', weekStarting: week(4) }));
    expectError(
      await read(key.secret, other.id, `?postcode=${a?.postcode}&cursor=${cursor}`),
      400,
      cursorError,
    );
    expectError(await read(key.secret, bought.id, '?cursor=garbage'), 400, cursorError);
    expectError(await read(key.secret, bought.id, '?postcode=20000'), 422, validationError('postcode'));
    expectError(await read(key.secret, bought.id, '?limit=101'), 422, validationError('limit'));
  });

  it('the 20,000-item week, read to the last page with and without a postcode filter', {
    timeout: 180_000,
  }, async () => {
    const key = await createKey('live');
    const bought = expectCreated(
      await buy(key.secret, { type: WEEKLY_CASES.largeType, weekStarting: week(WEEKLY_CASES.largeWeeksAgo) }),
    );
    expect(bought.items.totalCount).toBe(WEEKLY_CASES.largeCount);
    const totals = bought.postcodeTotals ?? [];
    expect(totals).toHaveLength(WEEKLY_CASES.largePostcodes);
    expect(totals.reduce((sum, total) => sum + total.count, 0)).toBe(WEEKLY_CASES.largeCount);

    const readAll = async (postcode?: string) => {
      const filter = postcode ? `postcode=${postcode}&` : '';
      const seen: Item[] = [];
      let cursor: string | null = null;
      let last: WeeklySummary | undefined;
      do {
        const response: ApiResponse<WeeklySummary> = await read(
          key.secret,
          bought.id,
          `?${filter}limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(response.status, response.text).toBe(200);
        last = response.body;
        seen.push(...last.items.data);
        cursor = last.items.nextCursor;
      } while (cursor);
      return { seen, last: last as WeeklySummary };
    };

    const whole = await readAll();
    expect(whole.seen).toHaveLength(WEEKLY_CASES.largeCount);
    expect(whole.last.items.totalCount).toBe(WEEKLY_CASES.largeCount);
    expect(whole.seen.slice(0, 20)).toEqual(bought.items.data);
    const counted = new Map<string, number>();
    for (const item of whole.seen)
      counted.set(item.postcode as string, (counted.get(item.postcode as string) ?? 0) + 1);
    expect(totals.map((total) => counted.get(total.postcode))).toEqual(totals.map((total) => total.count));

    const busiest = [...totals].sort((x, y) => y.count - x.count)[0] as { postcode: string; count: number };
    expect(busiest.count).toBeGreaterThan(1000);
    const filtered = await readAll(busiest.postcode);
    expect(filtered.seen).toHaveLength(busiest.count);
    expect(filtered.seen.every((item) => item.postcode === busiest.postcode)).toBe(true);
    expect(filtered.seen).toEqual(whole.seen.filter((item) => item.postcode === busiest.postcode));
    expect(filtered.last.items.totalCount).toBe(busiest.count);
    expect(filtered.last.postcode).toBe(busiest.postcode);
    expect(filtered.last.postcodeTotals).toEqual([busiest]);

    const none = await read(key.secret, bought.id, '?postcode=9999');
    expect(none.body.items).toStrictEqual({
      object: 'list',
      data: [],
      hasMore: false,
      nextCursor: null,
      totalCount: 0,
    });
    expect(none.body.postcodeTotals).toEqual([]);
    expect((await usageOf(key.secret)).map((entry) => entry.feeCode)).toEqual(['930A']);
  });
});

describe('weekly summaries among the held extracts', () => {
  it('GET /v1/extracts/{id} shows the first page; the lists show the summaries without items', async () => {
    const key = await createKey('live');
    const names = expectCreated(await buy(key.secret, { type: 'name-changes', weekStarting: week(1) }));
    const older = expectCreated(await buy(key.secret, { type: 'name-changes', weekStarting: week(2) }));
    const licences = expectCreated(
      await buy(key.secret, { type: 'licences-granted', weekStarting: week(1) }),
    );
    const company = await buyExtract(key.secret, '990000014', 'current');
    expect(company.status).toBe(201);

    const whole = await call<WeeklySummary>(`/v1/extracts/${names.id}`, { key: key.secret });
    expect(whole.status, whole.text).toBe(200);
    const { meta: _meta, ...shown } = whole.body;
    const { meta: _bought, ...purchased } = names;
    expect(shown).toEqual({ ...purchased, items: { ...purchased.items, nextCursor: expect.any(String) } });

    const ids = async (path: string) => {
      const response = await call<{ data: { id: string; items?: unknown }[] }>(path, { key: key.secret });
      expect(response.status, response.text).toBe(200);
      for (const entry of response.body.data) expect(entry.items).toBeUndefined();
      return response.body.data.map((entry) => entry.id);
    };
    expect(await ids('/v1/extracts?kind=weeklySummary')).toEqual([licences.id, older.id, names.id]);
    expect(await ids('/v1/weekly-summaries')).toEqual([licences.id, older.id, names.id]);
    expect(await ids('/v1/weekly-summaries?type=name-changes')).toEqual([older.id, names.id]);
    expect(await ids(`/v1/weekly-summaries?weekStarting=${week(1)}`)).toEqual([licences.id, names.id]);
    expect(await ids(`/v1/weekly-summaries?type=name-changes&weekStarting=${week(1)}`)).toEqual([names.id]);
    expect(await ids(`/v1/weekly-summaries?type=new-schemes`)).toEqual([]);
    const page = await call<{ data: { id: string }[]; nextCursor: string }>('/v1/weekly-summaries?limit=2', {
      key: key.secret,
    });
    expect(page.body.data.map((entry) => entry.id)).toEqual([licences.id, older.id]);
    const rest = await call<{ data: { id: string }[] }>(
      `/v1/weekly-summaries?limit=2&cursor=${page.body.nextCursor}`,
      {
        key: key.secret,
      },
    );
    expect(rest.body.data.map((entry) => entry.id)).toEqual([names.id]);
    expectError(
      await call(`/v1/weekly-summaries?limit=2&type=name-changes&cursor=${page.body.nextCursor}`, {
        key: key.secret,
      }),
      400,
      { type: 'invalid_request_error', code: 'validation_error', param: 'cursor' },
    );
    expectError(await call('/v1/weekly-summaries?type=charges', { key: key.secret }), 400, {
      type: 'invalid_request_error',
      code: 'summary_type_invalid',
      param: 'type',
    });
    // Another environment of the same account holds none of them.
    const testKey = await createKey('test', { accountId: key.accountId });
    expect(
      (await call<{ data: unknown[] }>('/v1/weekly-summaries', { key: testKey.secret })).body.data,
    ).toEqual([]);
  });
});

describe('a weekly summary purchase that did not finish', () => {
  it('the answer lost twice, never retried: the sweeper reads every page and records the summary once', async () => {
    const key = await createKey('live');
    await simulator.addFault({
      response: 'disconnect',
      operations: ['weekly.summary'],
      times: 2,
      accountId: key.accountId,
    });
    const order = { type: WEEKLY_CASES.largeType, weekStarting: week(WEEKLY_CASES.largeWeeksAgo) };
    const lost = await buy(key.secret, order, { 'X-Client-Reference': 'lost-week' });
    expect(lost.status, lost.text).toBe(503);
    expect(await billed(key.accountId)).toBe(1);

    expect((await sweepLater()).committed).toBeGreaterThanOrEqual(1);
    const held = await call<{ data: { id: string }[] }>('/v1/weekly-summaries', { key: key.secret });
    const [summary] = held.body.data;
    expect(held.body.data).toHaveLength(1);
    const usage = await usageOf(key.secret);
    expect(usage.map((entry) => [entry.resourceId, entry.feeCode, entry.clientReference])).toEqual([
      [summary?.id, '930A', 'lost-week'],
    ]);
    const first = await read(key.secret, summary?.id as string, '?limit=100');
    expect(first.body.items.totalCount).toBe(WEEKLY_CASES.largeCount);
    // The client buying it now gets the recorded summary, without a fee or a registry call.
    const again = expectCreated(await buy(key.secret, order));
    expect([again.id, again.meta.billable]).toEqual([summary?.id, false]);
    expect(await billed(key.accountId)).toBe(1);
    expect(await usageOf(key.secret)).toHaveLength(1);
  });

  it('our write failed: the same purchase again finishes it from the stored answer, billed once', async () => {
    const key = await createKey('live');
    const order = { type: 'new-schemes', weekStarting: week(3 + 1) };
    await failNextCommits(3);
    const failed = await buy(key.secret, order);
    expect(failed.status, failed.text).toBe(500);
    expect(await usageOf(key.secret)).toEqual([]);
    // No Idempotency-Key: the same type and week share one purchase until it is committed.
    const finished = expectCreated(await buy(key.secret, order));
    expect(finished.meta.billable).toBe(true);
    expect(await billed(key.accountId)).toBe(1);
    expect((await usageOf(key.secret)).map((entry) => entry.resourceId)).toEqual([finished.id]);
    expect((await registryCalls(key.accountId, 'weekly.summary')).length).toBe(1);
  });
});
