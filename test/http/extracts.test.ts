import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { buyExtract, call, clock, createKey, expectError, type TestKey } from '../support/api.ts';

/** GET /v1/extracts/{id} and GET /v1/extracts (spec document 2, 4.4), expiry and ownership. */

const DAY = 86_400_000;

interface ExtractBody {
  object: string;
  id: string;
  kind: string;
  type: string;
  purchasedAt: string;
  expiresAt: string;
  company: { acn: string };
  officeholders: unknown[] | null;
  documents: unknown[] | null;
  meta: { billable: boolean; product: string | null; requestId: string };
}

const read = (secret: string, id: string) => call<ExtractBody>(`/v1/extracts/${id}`, { key: secret });

afterEach(async () => {
  await clock.reset();
});

describe('GET /v1/extracts/{id}', () => {
  let key: TestKey;
  let bought: ExtractBody;

  beforeAll(async () => {
    key = await createKey('test');
    bought = (await buyExtract(key.secret, SANDBOX.proprietary, 'historical')).body as unknown as ExtractBody;
  });

  it('returns the extract as bought, free: meta.billable false, product null', async () => {
    const response = await read(key.secret, bought.id);
    expect(response.status).toBe(200);
    const { meta, ...body } = response.body;
    const { meta: _boughtMeta, ...boughtBody } = bought;
    expect(body).toStrictEqual(boughtBody);
    expect(meta).toStrictEqual({
      billable: false,
      product: null,
      requestId: response.headers.get('x-request-id'),
    });
  });

  it('another account → 403 extract_owner_mismatch; the same account with a live key → 403 too', async () => {
    const stranger = await createKey('test');
    expectError(await read(stranger.secret, bought.id), 403, {
      type: 'permission_error',
      code: 'extract_owner_mismatch',
      param: 'id',
    });
    const sameAccountLive = await createKey('live', { accountId: key.accountId });
    expectError(await read(sameAccountLive.secret, bought.id), 403, {
      type: 'permission_error',
      code: 'extract_owner_mismatch',
      param: 'id',
    });
  });

  it('an unknown or malformed id → 404 extract_not_found', async () => {
    for (const id of ['ext_000000000000000000000000', 'ext_nope', 'ord_123', `ext_${'0'.repeat(100)}`]) {
      expectError(await read(key.secret, id), 404, {
        type: 'not_found_error',
        code: 'extract_not_found',
        param: 'id',
      });
    }
  });

  it('12 months after purchase → 410 extract_expired, for ever after (not 404)', async () => {
    const own = await createKey('test');
    const extract = (await buyExtract(own.secret, SANDBOX.satisfiedCharges, 'historical'))
      .body as unknown as ExtractBody;
    const untilExpiry = Date.parse(extract.expiresAt) - Date.now();
    await clock.advance(untilExpiry - 60_000);
    expect((await read(own.secret, extract.id)).status).toBe(200);
    await clock.advance(60_000);
    const expired = { type: 'invalid_request_error', code: 'extract_expired', param: 'id' };
    expectError(await read(own.secret, extract.id), 410, expired);
    await clock.advance(3 * 365 * DAY);
    expectError(await read(own.secret, extract.id), 410, expired);
    // Section reads: the named extract is expired; by default no unexpired one is held → 402.
    expectError(
      await call(`/v1/companies/${SANDBOX.satisfiedCharges}/charges?extract=${extract.id}`, {
        key: own.secret,
      }),
      410,
      { ...expired, param: 'extract' },
    );
    const required = await call(`/v1/companies/${SANDBOX.satisfiedCharges}/charges`, { key: own.secret });
    expect(required.status).toBe(402);
    // And it is gone from the list of held extracts.
    expect((await call<{ data: unknown[] }>('/v1/extracts', { key: own.secret })).body.data).toStrictEqual(
      [],
    );
  });

  it('another account asking for an expired extract still gets 403, not 410', async () => {
    const owner = await createKey('test');
    const extract = (await buyExtract(owner.secret, SANDBOX.proprietary, 'current'))
      .body as unknown as ExtractBody;
    await clock.advance(400 * DAY);
    const stranger = await createKey('test');
    expect((await read(stranger.secret, extract.id)).status).toBe(403);
  });
});

describe('a large company (1,000 officeholders, 2,000 documents) is stored and read whole', () => {
  it('buys, reads by id and pages its officeholders', async () => {
    const key = await createKey('test');
    const bought = await buyExtract(key.secret, SANDBOX.largeCompany, 'historical');
    expect(bought.status, bought.text.slice(0, 500)).toBe(201);
    const extract = bought.body as unknown as ExtractBody;
    expect(extract.officeholders).toHaveLength(1000);
    expect(extract.documents).toHaveLength(2000);
    const again = await read(key.secret, extract.id);
    expect(again.status).toBe(200);
    expect(again.body.officeholders).toHaveLength(1000);
    expect(again.body.documents).toHaveLength(2000);

    const page = await call<{
      data: unknown[];
      totalCount: number;
      hasMore: boolean;
      extract: { id: string };
    }>(`/v1/companies/${SANDBOX.largeCompany}/officeholders?status=all&limit=100`, { key: key.secret });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(100);
    expect(page.body.totalCount).toBe(1000);
    expect(page.body.hasMore).toBe(true);
    expect(page.body.extract.id).toBe(extract.id);
  });
});

describe('GET /v1/extracts', () => {
  it('lists the account’s own extracts of the key’s environment, newest first, with kind filter and pages', async () => {
    const key = await createKey('test');
    const ids: string[] = [];
    for (const acn of [SANDBOX.proprietary, SANDBOX.satisfiedCharges, SANDBOX.relational]) {
      ids.push((await buyExtract(key.secret, acn, 'current')).body.id);
      await clock.advance(1000);
    }
    const other = await createKey('test');
    await buyExtract(other.secret, SANDBOX.proprietary, 'current');
    const live = await createKey('live', { accountId: key.accountId });
    await buyExtract(live.secret, SANDBOX.proprietary, 'current');

    const all = await call<{
      data: ExtractBody[];
      hasMore: boolean;
      nextCursor: string | null;
      totalCount: null;
    }>('/v1/extracts', { key: key.secret });
    expect(all.status).toBe(200);
    expect(all.body.data.map((e) => e.id)).toStrictEqual([...ids].reverse());
    expect(all.body.data[0]).toMatchObject({ object: 'extract', kind: 'company', type: 'current' });
    expect(all.body.data[0]?.officeholders).toBeUndefined();
    expect(all.body.hasMore).toBe(false);
    expect(all.body.totalCount).toBeNull();

    const first = await call<{ data: ExtractBody[]; hasMore: boolean; nextCursor: string }>(
      '/v1/extracts?limit=2',
      {
        key: key.secret,
      },
    );
    expect(first.body.data.map((e) => e.id)).toStrictEqual([ids[2], ids[1]]);
    expect(first.body.hasMore).toBe(true);
    const second = await call<{ data: ExtractBody[]; hasMore: boolean; nextCursor: string | null }>(
      `/v1/extracts?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      { key: key.secret },
    );
    expect(second.body.data.map((e) => e.id)).toStrictEqual([ids[0]]);
    expect(second.body.hasMore).toBe(false);
    expect(second.body.nextCursor).toBeNull();

    const companies = await call<{ data: ExtractBody[] }>('/v1/extracts?kind=company', { key: key.secret });
    expect(companies.body.data).toHaveLength(3);
    const people = await call<{ data: ExtractBody[] }>('/v1/extracts?kind=person', { key: key.secret });
    expect(people.body.data).toStrictEqual([]);
  });

  it('rejects an unknown kind and a cursor from another filter', async () => {
    const key = await createKey('test');
    expectError(await call('/v1/extracts?kind=box', { key: key.secret }), 422, {
      type: 'invalid_request_error',
      code: 'validation_error',
      param: 'kind',
    });
    await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    await buyExtract(key.secret, SANDBOX.relational, 'current');
    const page = await call<{ nextCursor: string }>('/v1/extracts?limit=1', { key: key.secret });
    const switched = await call(
      `/v1/extracts?limit=1&kind=company&cursor=${encodeURIComponent(page.body.nextCursor)}`,
      {
        key: key.secret,
      },
    );
    expect(switched.status).toBe(400);
    expect((switched.body as { error: { param: string } }).error.param).toBe('cursor');
  });
});

describe('GET /v1/extracts parameters', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['type=current', 'type'],
  ])('%s → 422 validation_error on %s', async (query, param) => {
    const key = await createKey('test');
    expectError(await call(`/v1/extracts?${query}`, { key: key.secret }), 422, {
      type: 'invalid_request_error',
      code: 'validation_error',
      param,
    });
  });

  it('GET /v1/extracts/{id} takes no query parameters', async () => {
    const key = await createKey('test');
    const extract = (await buyExtract(key.secret, SANDBOX.proprietary, 'current')).body;
    expectError(await call(`/v1/extracts/${extract.id}?expand=all`, { key: key.secret }), 422, {
      type: 'invalid_request_error',
      code: 'validation_error',
      param: 'expand',
    });
  });
});
