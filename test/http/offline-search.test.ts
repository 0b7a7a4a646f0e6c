import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import {
  type ApiResponse,
  baseUrl,
  call,
  clock,
  createKey,
  expectError,
  type FeeEntryBody,
  MALFORMED_PURCHASE_HEADERS,
  type Meta,
  registryPurchases,
  simulator,
  validationError,
} from '../support/api.ts';
import { outbox, publishedEvents, waitForExecution } from '../support/orders.ts';

/**
 * Offline name searches (spec document 2, 4.11; docs/decisions/0046-orders.md):
 * accepted with 202 and billed once (fee 934), run without the 100-name cap, delivered by email
 * as CSV or announced by webhook, read back page by page; 20 per account and UTC day.
 */

interface OfflineSearchBody {
  object: 'offlineSearch';
  id: string;
  status: string;
  q: string;
  scope: string;
  deliveredTo: string;
  resultCount: number | null;
  resultsUrl: string | null;
  clientReference: string | null;
  createdAt: string;
  readyAt: string | null;
  failure?: { code: string; registryCode: string | null; message: string };
  meta: Meta;
}

interface CompanyMatchBody {
  object: string;
  acn: string;
  name: string;
  score: number;
  nameStatus: string;
}

interface ResultsBody {
  object: string;
  data: CompanyMatchBody[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number | null;
  meta: Meta;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const SEARCH_ID = /^ofs_[0-9a-f]{24}$/;
const FINAL = new Set(['ready', 'failed']);
const PATH = '/v1/companies/search/offline';
const CSV_HEADER = 'acn,formatted,name,matchedName,nameStatus,score,type,status,abn';

const byEmail = (email = 'searches@example.com') => ({ method: 'email', email });
const byWebhook = { method: 'webhook' };

const placeSearch = (secret: string, body: unknown, headers: Record<string, string> = {}) =>
  call<OfflineSearchBody>(PATH, { key: secret, method: 'POST', body, headers });

const getSearch = (secret: string, id: string) =>
  call<OfflineSearchBody>(`${PATH}/${encodeURIComponent(id)}`, { key: secret });

const results = (secret: string, id: string, query = '') =>
  call<ResultsBody>(`${PATH}/${encodeURIComponent(id)}/results${query}`, { key: secret });

const usageOf = async (secret: string) =>
  (await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: secret })).body.data;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function accepted(response: ApiResponse<OfflineSearchBody>): OfflineSearchBody {
  expect(response.status, response.text).toBe(202);
  return response.body;
}

/** The search once its run has ended and it shows a final status (bounded wait). */
async function settled(secret: string, id: string): Promise<OfflineSearchBody> {
  await waitForExecution(id, 25_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await getSearch(secret, id);
    expect(response.status, response.text).toBe(200);
    if (FINAL.has(response.body.status)) return response.body;
    await sleep(100);
  }
  throw new Error(`offline search ${id} did not reach a final status`);
}

/** Midnight UTC after `now`, as an RFC 3339 timestamp. */
const nextUtcMidnight = (now: Date) =>
  `${new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().slice(0, 19)}Z`;

afterEach(async () => {
  await clock.reset();
  await simulator.clearFaults();
});

describe('POST /v1/companies/search/offline: acceptance', () => {
  it('answers 202 with the offlineSearch object in status pending (test key)', async () => {
    const key = await createKey('test');
    const before = Date.now();
    const response = await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byEmail() });
    expect(accepted(response)).toStrictEqual({
      object: 'offlineSearch',
      id: expect.stringMatching(SEARCH_ID),
      status: 'pending',
      q: 'WIDGETS',
      scope: 'current',
      deliveredTo: 'searches@example.com',
      resultCount: null,
      resultsUrl: null,
      clientReference: null,
      createdAt: expect.stringMatching(TIMESTAMP),
      readyAt: null,
      meta: { billable: false, product: 'name_search', requestId: response.headers.get('x-request-id') },
    });
    const createdAt = Date.parse(response.body.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(createdAt).toBeLessThanOrEqual(Date.now());
  });

  it('webhook delivery: deliveredTo webhook; scope all is kept; a live key is billable', async () => {
    const key = await createKey('live');
    const response = await placeSearch(key.secret, {
      q: SANDBOX.search.scored,
      scope: 'all',
      delivery: byWebhook,
    });
    const search = accepted(response);
    expect([search.scope, search.deliveredTo, search.status]).toStrictEqual(['all', 'webhook', 'pending']);
    expect(search.meta).toStrictEqual({
      billable: true,
      product: 'name_search',
      requestId: response.headers.get('x-request-id'),
    });
  });

  const deliveryCases: [name: string, delivery: unknown, param: string][] = [
    ['no delivery', undefined, 'delivery'],
    ['delivery null', null, 'delivery'],
    ['delivery not an object', 'email', 'delivery'],
    ['no method', { email: 'searches@example.com' }, 'delivery.method'],
    ['web (orders only)', { method: 'web' }, 'delivery.method'],
    ['post (orders only)', { method: 'post' }, 'delivery.method'],
    ['an unknown method', { method: 'sms' }, 'delivery.method'],
    ['email without an address', { method: 'email' }, 'delivery.email'],
    [
      'email with an invalid address',
      { method: 'email', email: 'searches at example.com' },
      'delivery.email',
    ],
    ['webhook with an email', { method: 'webhook', email: 'searches@example.com' }, 'delivery.email'],
    ['an unknown delivery field', { method: 'webhook', url: 'https://example.com/hook' }, 'delivery.url'],
  ];

  it.each(deliveryCases)('%s → 400 delivery_invalid, not billed', async (_name, delivery, param) => {
    const key = await createKey('live');
    const body = delivery === undefined ? { q: 'widgets' } : { q: 'widgets', delivery };
    expectError(await placeSearch(key.secret, body), 400, {
      type: 'invalid_request_error',
      code: 'delivery_invalid',
      param,
    });
    expect(await usageOf(key.secret)).toStrictEqual([]);
  });

  it.each([
    ['former', 'former'],
    ['CURRENT', 'CURRENT'],
    ['empty', ''],
    // Not one of the scope's values, whatever its JSON type: the contract's enum says so.
    ['a number', 1],
  ])('scope %s → 400 search_scope_invalid, not billed', async (_name, scope) => {
    const key = await createKey('live');
    expectError(await placeSearch(key.secret, { q: 'widgets', scope, delivery: byWebhook }), 400, {
      type: 'invalid_request_error',
      code: 'search_scope_invalid',
      param: 'scope',
    });
    expect(await usageOf(key.secret)).toStrictEqual([]);
  });

  it.each([
    ['q missing', { delivery: byWebhook }, 'q'],
    ['q not a string', { q: 42, delivery: byWebhook }, 'q'],
    ['q of one character', { q: 'w', delivery: byWebhook }, 'q'],
    ['q over 200 characters', { q: 'w'.repeat(201), delivery: byWebhook }, 'q'],
    ['an unknown field', { q: 'widgets', delivery: byWebhook, limit: 500 }, 'limit'],
  ])('%s → 422 validation_error, not billed', async (_name, body, param) => {
    const key = await createKey('live');
    expectError(await placeSearch(key.secret, body), 422, validationError(param));
    expect(await usageOf(key.secret)).toStrictEqual([]);
  });

  it('X-Sandbox-Simulate with a live key → 400 sandbox_simulation_invalid', async () => {
    const key = await createKey('live');
    expectError(
      await placeSearch(
        key.secret,
        { q: 'widgets', delivery: byWebhook },
        { 'X-Sandbox-Simulate': 'order_failed' },
      ),
      400,
      { type: 'invalid_request_error', code: 'sandbox_simulation_invalid', param: 'X-Sandbox-Simulate' },
    );
    expect(await usageOf(key.secret)).toStrictEqual([]);
  });

  it('X-Sandbox-Simulate with a value other than order_failed (test key) → 400 sandbox_simulation_invalid', async () => {
    const key = await createKey('test');
    expectError(
      await placeSearch(
        key.secret,
        { q: 'widgets', delivery: byWebhook },
        { 'X-Sandbox-Simulate': 'timeout' },
      ),
      400,
      { type: 'invalid_request_error', code: 'sandbox_simulation_invalid', param: 'X-Sandbox-Simulate' },
    );
    expect(await usageOf(key.secret)).toStrictEqual([]);
  });

  it.each(MALFORMED_PURCHASE_HEADERS)(
    '%s → 422 validation_error on that header, not billed',
    async (_case, headers, param) => {
      const key = await createKey('live');
      expectError(
        await placeSearch(key.secret, { q: 'widgets', delivery: byWebhook }, headers),
        422,
        validationError(param),
      );
      expect(await usageOf(key.secret)).toStrictEqual([]);
    },
  );
});

describe('completion', () => {
  it('becomes ready with every match (180, no 100-name cap) and publishes offline_search.ready once', async () => {
    const key = await createKey('test');
    const search = accepted(
      await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byWebhook }),
    );
    const ready = await settled(key.secret, search.id);
    expect(ready).toStrictEqual({
      ...search,
      status: 'ready',
      resultCount: SANDBOX.offlineMatches,
      resultsUrl: `${baseUrl}${PATH}/${search.id}/results`,
      readyAt: expect.stringMatching(TIMESTAMP),
      meta: { billable: false, product: 'name_search', requestId: expect.any(String) },
    });
    expect(SANDBOX.offlineMatches).toBeGreaterThan(100);

    const events = (await publishedEvents()).filter((event) => event.data.id === search.id);
    expect(events).toHaveLength(1);
    const { meta: _meta, ...object } = ready;
    expect(events[0]).toStrictEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'offline_search.ready',
      createdAt: ready.readyAt,
      livemode: false,
      accountId: key.accountId,
      data: object,
    });
    // A webhook search sends no mail.
    expect((await outbox()).filter((message) => message.subject.includes(search.id))).toStrictEqual([]);
  });

  it('email delivery: one message with a CSV of every match and a header row', async () => {
    const key = await createKey('test');
    const email = `searches+${key.accountId}@example.com`;
    const search = accepted(
      await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byEmail(email) }),
    );
    const ready = await settled(key.secret, search.id);
    expect(ready.status).toBe('ready');
    const mail = (await outbox()).filter((message) => message.to === email);
    expect(mail).toHaveLength(1);
    const [message] = mail;
    expect(message?.attachments.map((a) => [a.filename, a.contentType])).toStrictEqual([
      [`${search.id}.csv`, 'text/csv'],
    ]);
    const attachment = message?.attachments[0];
    const csv = await readFile(join(message?.folder ?? '', attachment?.file ?? ''), 'utf8');
    const lines = csv.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1 + (ready.resultCount ?? 0));
    expect(lines).toHaveLength(1 + SANDBOX.offlineMatches);
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines[1]).toMatch(
      /^990020016,990 020 016,WIDGETS WORLD 001 PTY LTD,WIDGETS WORLD 001 PTY LTD,current,75,/,
    );
    expect(lines.at(-1)).toMatch(/^\d{9},\d{3} \d{3} \d{3},ACME WIDGETS 120 PTY LTD,/);
  });

  it('a search that finds nothing is ready with resultCount 0', async () => {
    const key = await createKey('test');
    const search = accepted(await placeSearch(key.secret, { q: SANDBOX.search.none, delivery: byWebhook }));
    const ready = await settled(key.secret, search.id);
    expect([ready.status, ready.resultCount]).toStrictEqual(['ready', 0]);
    const page = await results(key.secret, search.id);
    expect(page.status, page.text).toBe(200);
    expect([page.body.data, page.body.hasMore, page.body.totalCount]).toStrictEqual([[], false, 0]);
  });

  it('a live search the registry rejects ends failed, sends no event, and its fee is voided', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ02', operations: ['search.offline'], accountId: key.accountId });
    const search = accepted(
      await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byWebhook }),
    );
    const failed = await settled(key.secret, search.id);
    expect(failed.status).toBe('failed');
    expect(failed.failure).toStrictEqual({
      code: 'product_not_enabled',
      registryCode: 'ZZ02',
      message: expect.any(String),
    });
    expect([failed.resultCount, failed.resultsUrl, failed.readyAt]).toStrictEqual([null, null, null]);
    expect((await publishedEvents()).filter((event) => event.data.id === search.id)).toStrictEqual([]);
    expect(
      (await usageOf(key.secret)).map((e) => [e.product, e.feeCode, e.quantity, e.resourceId]),
    ).toStrictEqual([
      ['name_search', '934', 1, search.id],
      ['name_search', '934', -1, search.id],
    ]);
    expectError(await results(key.secret, search.id), 409, {
      type: 'conflict_error',
      code: 'offline_search_not_ready',
      param: 'searchId',
    });
  });
});

describe('GET …/offline/{searchId} and …/results', () => {
  it('pages through every match: limit 100 gives two pages, 180 distinct companies in score order', async () => {
    const key = await createKey('test');
    const search = accepted(
      await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byWebhook }),
    );
    await settled(key.secret, search.id);

    const first = await results(key.secret, search.id, '?limit=100');
    expect(first.status, first.text).toBe(200);
    expect(first.body.object).toBe('list');
    expect(first.body.data).toHaveLength(100);
    expect([first.body.hasMore, first.body.totalCount]).toStrictEqual([true, SANDBOX.offlineMatches]);
    expect(first.body.meta).toStrictEqual({
      billable: false,
      product: null,
      requestId: first.headers.get('x-request-id'),
    });
    const cursor = encodeURIComponent(first.body.nextCursor as string);
    const second = await results(key.secret, search.id, `?limit=100&cursor=${cursor}`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.data).toHaveLength(80);
    expect([second.body.hasMore, second.body.nextCursor]).toStrictEqual([false, null]);

    const all = [...first.body.data, ...second.body.data];
    expect(new Set(all.map((match) => match.acn)).size).toBe(SANDBOX.offlineMatches);
    expect(all.every((match) => match.object === 'companyMatch')).toBe(true);
    const worlds = all.slice(0, SANDBOX.widgetsWorldCompanies);
    const acmes = all.slice(SANDBOX.widgetsWorldCompanies);
    expect(worlds.every((m) => /^WIDGETS WORLD \d{3} PTY LTD$/.test(m.name) && m.score === 75)).toBe(true);
    expect(acmes).toHaveLength(SANDBOX.acmeCompanies);
    expect(acmes.every((m) => /^ACME WIDGETS \d{3} PTY LTD$/.test(m.name) && m.score === 45)).toBe(true);
    expect(all[0]?.acn).toBe('990020016');

    // A cursor belongs to its search.
    const other = accepted(
      await placeSearch(key.secret, { q: SANDBOX.search.offline, scope: 'all', delivery: byWebhook }),
    );
    await settled(key.secret, other.id);
    expectError(
      await results(key.secret, other.id, `?limit=100&cursor=${cursor}`),
      400,
      validationError('cursor'),
    );
  });

  it.each([
    ['limit=0', 422, 'limit'],
    ['limit=101', 422, 'limit'],
    ['cursor=not-a-cursor', 400, 'cursor'],
  ])('results ?%s → %i validation_error on %s', async (query, status, param) => {
    const key = await createKey('test');
    const search = accepted(await placeSearch(key.secret, { q: SANDBOX.search.exact, delivery: byWebhook }));
    await settled(key.secret, search.id);
    expectError(await results(key.secret, search.id, `?${query}`), status, validationError(param));
  });

  it('409 offline_search_not_ready while the registry is still searching (live key)', async () => {
    const key = await createKey('live');
    await simulator.addFault({ latencyMs: 2_000, operations: ['search.offline'], accountId: key.accountId });
    const search = accepted(
      await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byWebhook }),
    );
    expectError(await results(key.secret, search.id), 409, {
      type: 'conflict_error',
      code: 'offline_search_not_ready',
      param: 'searchId',
    });
    const pending = await getSearch(key.secret, search.id);
    expect(['pending', 'processing']).toContain(pending.body.status);
    expect([pending.body.resultCount, pending.body.resultsUrl]).toStrictEqual([null, null]);
    const ready = await settled(key.secret, search.id);
    expect([ready.status, ready.resultCount]).toStrictEqual(['ready', SANDBOX.offlineMatches]);
    expect((await results(key.secret, search.id)).status).toBe(200);
  });

  it.each([
    ['an unknown id', 'ofs_000000000000000000000000'],
    ['a malformed id', 'not-a-search'],
    ['an order id', 'ord_000000000000000000000000'],
    ['a very long id', `ofs_${'a'.repeat(100)}`],
  ])('%s → 404 offline_search_not_found', async (_name, id) => {
    const key = await createKey('test');
    const notFound = { type: 'not_found_error', code: 'offline_search_not_found', param: 'searchId' };
    expectError(await getSearch(key.secret, id), 404, notFound);
    expectError(await results(key.secret, id), 404, notFound);
  });

  it('another account, or the same account’s other environment → 403 search_owner_mismatch', async () => {
    const owner = await createKey('test');
    const search = accepted(
      await placeSearch(owner.secret, { q: SANDBOX.search.offline, delivery: byWebhook }),
    );
    await settled(owner.secret, search.id);
    const mismatch = { type: 'permission_error', code: 'search_owner_mismatch', param: 'searchId' };
    for (const other of [await createKey('test'), await createKey('live', { accountId: owner.accountId })]) {
      expectError(await getSearch(other.secret, search.id), 403, mismatch);
      expectError(await results(other.secret, search.id), 403, mismatch);
    }
  });
});

describe('billing and the daily limit', () => {
  it('a live search is one 934 fee at acceptance, and one registry search', async () => {
    const key = await createKey('live');
    const response = await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byWebhook });
    const search = accepted(response);
    expect(await usageOf(key.secret)).toStrictEqual([
      {
        object: 'feeEntry',
        at: search.createdAt,
        product: 'name_search',
        feeCode: '934',
        quantity: 1,
        billable: true,
        clientReference: null,
        requestId: response.headers.get('x-request-id'),
        resourceId: search.id,
        unitAmountCents: 3000,
        amountCents: 3000,
        priceVersion: '2020-01-01',
      },
    ]);
    expect((await settled(key.secret, search.id)).status).toBe('ready');
    expect(await usageOf(key.secret)).toHaveLength(1);
    expect(await registryPurchases(key.accountId, 'search.offline')).toBe(1);
  });

  it('a test key records the search with billable false and no fee code', async () => {
    const key = await createKey('test');
    const search = accepted(
      await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byWebhook }),
    );
    expect(
      (await usageOf(key.secret)).map((e) => [e.product, e.feeCode, e.billable, e.resourceId]),
    ).toStrictEqual([['name_search', null, false, search.id]]);
  });

  it('Idempotency-Key: the same key and body is the same search; another body → 409', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': `search-${key.accountId}` };
    const body = { q: SANDBOX.search.offline, delivery: byWebhook };
    const first = accepted(await placeSearch(key.secret, body, headers));
    const again = accepted(await placeSearch(key.secret, body, headers));
    expect(again.id).toBe(first.id);
    expectError(await placeSearch(key.secret, { ...body, scope: 'all' }, headers), 409, {
      type: 'conflict_error',
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
    expect((await usageOf(key.secret)).map((e) => e.resourceId)).toStrictEqual([first.id]);
  });

  it('20 a UTC day: the 21st → 429 offline_search_limit_reached, not billed; a replayed key counts once', async () => {
    const key = await createKey('live');
    const body = (n: number) => ({ q: SANDBOX.search.exact, delivery: byEmail(`limit${n}@example.com`) });
    const headers = { 'Idempotency-Key': `limit-${key.accountId}` };
    const keyed = accepted(await placeSearch(key.secret, body(0), headers));
    expect(accepted(await placeSearch(key.secret, body(0), headers)).id).toBe(keyed.id);
    for (let n = 1; n < 20; n++) accepted(await placeSearch(key.secret, body(n)));

    const refused = await placeSearch(key.secret, body(20));
    const now = new Date();
    expectError(refused, 429, {
      type: 'rate_limit_error',
      code: 'offline_search_limit_reached',
      param: null,
      details: { limit: 20, resetsAt: nextUtcMidnight(now) },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    const expected = (Date.parse(nextUtcMidnight(now)) - now.getTime()) / 1000;
    expect(Math.abs(retryAfter - expected)).toBeLessThanOrEqual(5);
    // The replayed key still answers, and does not count.
    expect(accepted(await placeSearch(key.secret, body(0), headers)).id).toBe(keyed.id);

    const fees = await usageOf(key.secret);
    expect(fees).toHaveLength(20);
    expect(fees.every((e) => e.feeCode === '934' && e.quantity === 1 && e.billable)).toBe(true);
    expect(new Set(fees.map((e) => e.resourceId)).size).toBe(20);

    // The count is per account and environment.
    const otherAccount = await createKey('live');
    accepted(await placeSearch(otherAccount.secret, body(21)));
    const sameAccountTest = await createKey('test', { accountId: key.accountId });
    accepted(await placeSearch(sameAccountTest.secret, body(22)));
  }, 60_000);
});

describe('GET /v1/companies/search/offline: the account’s searches', () => {
  const list = (secret: string, query = '') =>
    call<{ object: string; data: OfflineSearchBody[]; hasMore: boolean; nextCursor: string | null }>(
      `${PATH}${query}`,
      { key: secret },
    );
  const withoutMeta = ({ meta: _meta, ...search }: OfflineSearchBody) => search;

  it('lists them newest first, page by page, as GET shows each (without meta); no one else’s', async () => {
    const key = await createKey('test');
    const other = await createKey('test');
    const live = await createKey('live', { accountId: key.accountId });
    const older = accepted(await placeSearch(key.secret, { q: SANDBOX.search.offline, delivery: byWebhook }));
    await settled(key.secret, older.id);
    const newer = accepted(
      await placeSearch(key.secret, { q: 'widgets', delivery: byEmail() }, { 'X-Client-Reference': 'ref-7' }),
    );
    accepted(await placeSearch(other.secret, { q: 'widgets', delivery: byWebhook }));

    const first = await list(key.secret, '?limit=1');
    expect(first.status, first.text).toBe(200);
    expect(first.body.object).toBe('list');
    expect(first.body.hasMore).toBe(true);
    expect(first.body.data.map((search) => search.id)).toStrictEqual([newer.id]);
    expect(first.body.data[0]?.clientReference).toBe('ref-7');
    const second = await list(
      key.secret,
      `?limit=1&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
    );
    expect(second.status, second.text).toBe(200);
    expect([second.body.hasMore, second.body.nextCursor]).toStrictEqual([false, null]);
    expect(second.body.data).toStrictEqual([withoutMeta((await getSearch(key.secret, older.id)).body)]);
    expect(second.body.data[0]?.status).toBe('ready');

    expect((await list(other.secret)).body.data).toHaveLength(1);
    expect((await list(live.secret)).body.data).toStrictEqual([]);
  });

  it.each([
    ['?limit=0', 422, 'limit'],
    ['?limit=101', 422, 'limit'],
    ['?status=ready', 422, 'status'],
    ['?cursor=abc', 400, 'cursor'],
  ])('refuses %s with validation_error on its parameter', async (query, status, param) => {
    const key = await createKey('test');
    expectError(await list(key.secret, query), status, validationError(param));
  });

  it('refuses a cursor of another account', async () => {
    const key = await createKey('test');
    for (let i = 0; i < 2; i++)
      accepted(await placeSearch(key.secret, { q: 'widgets', delivery: byWebhook }));
    const first = await list(key.secret, '?limit=1');
    const cursor = encodeURIComponent(first.body.nextCursor as string);
    const other = await createKey('test');
    expectError(await list(other.secret, `?limit=1&cursor=${cursor}`), 400, validationError('cursor'));
  });
});
