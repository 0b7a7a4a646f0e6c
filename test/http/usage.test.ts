import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { buyExtract, call, clock, createKey, expectError, validationError } from '../support/api.ts';

/** GET /v1/usage: the fee ledger an account reconciles its invoice with. */

interface UsageBody {
  object: string;
  data: {
    product: string;
    feeCode: string | null;
    billable: boolean;
    at: string;
    resourceId: string;
    unitAmountCents: number | null;
    amountCents: number | null;
    priceVersion: string | null;
  }[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number;
  from: string;
  to: string;
  totals: {
    product: string;
    feeCode: string | null;
    billable: boolean;
    quantity: number;
    entries: number;
    amountCents: number | null;
  }[];
  days: { date: string; entries: number; quantity: number; amountCents: number }[];
  amounts: Record<string, unknown>;
  meta: { billable: boolean; product: string | null };
}

const usage = (secret: string, query = '') => call<UsageBody>(`/v1/usage${query}`, { key: secret });
const today = () => new Date().toISOString().slice(0, 10);

afterEach(async () => {
  await clock.reset();
});

describe('GET /v1/usage', () => {
  it('totals by product and fee code, entries oldest first, paginated; only this environment', async () => {
    const key = await createKey('live');
    await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    await buyExtract(key.secret, SANDBOX.relational, 'relational');
    await buyExtract(key.secret, SANDBOX.relational, 'current');
    const testKey = await createKey('test', { accountId: key.accountId });
    await buyExtract(testKey.secret, SANDBOX.proprietary, 'current');
    // Free reads and failures record nothing.
    await call(`/v1/companies/${SANDBOX.proprietary}/officeholders`, { key: key.secret });
    await buyExtract(key.secret, SANDBOX.unknownNumber, 'current');
    await buyExtract(key.secret, SANDBOX.proprietary, 'nonsense');

    const response = await usage(key.secret, `?from=${today()}&to=${today()}`);
    expect(response.status).toBe(200);
    expect(response.body.from).toBe(today());
    expect(response.body.to).toBe(today());
    expect(response.body.totalCount).toBe(3);
    expect(response.body.data.map((e) => [e.product, e.feeCode, e.billable])).toStrictEqual([
      ['company_extract_current', '955A', true],
      ['company_relationships', '955B', true],
      ['company_extract_current', '955A', true],
    ]);
    // The stage's example prices (shared/usage/prices.ts): 25.00 a current extract, 35.00 a relational one.
    expect(response.body.data.map((e) => [e.unitAmountCents, e.amountCents, e.priceVersion])).toStrictEqual([
      [2500, 2500, '2020-01-01'],
      [3500, 3500, '2020-01-01'],
      [2500, 2500, '2020-01-01'],
    ]);
    expect(response.body.totals).toStrictEqual([
      {
        product: 'company_extract_current',
        feeCode: '955A',
        billable: true,
        quantity: 2,
        entries: 2,
        amountCents: 5000,
      },
      {
        product: 'company_relationships',
        feeCode: '955B',
        billable: true,
        quantity: 1,
        entries: 1,
        amountCents: 3500,
      },
    ]);
    expect(response.body.amounts).toStrictEqual({
      currency: 'AUD',
      examplePrices: true,
      billed: true,
      totalCents: 8500,
      unpricedEntries: 0,
      products: [
        {
          product: 'company_extract_current',
          name: 'Current company extracts',
          quantity: 2,
          entries: 2,
          amountCents: 5000,
        },
        {
          product: 'company_relationships',
          name: 'Company relationship extracts',
          quantity: 1,
          entries: 1,
          amountCents: 3500,
        },
      ],
    });
    expect(response.body.meta).toMatchObject({ billable: false, product: null });

    const first = await usage(key.secret, '?limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await usage(
      key.secret,
      `?limit=2&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`,
    );
    expect(second.body.data).toHaveLength(1);
    expect(second.body.hasMore).toBe(false);

    const sandbox = await usage(testKey.secret);
    // A test key's use is not billed: the amounts are what the same use would have cost.
    expect(sandbox.body.data.map((e) => [e.billable, e.feeCode, e.amountCents])).toStrictEqual([
      [false, null, 2500],
    ]);
    expect(sandbox.body.totals).toStrictEqual([
      {
        product: 'company_extract_current',
        feeCode: null,
        billable: false,
        quantity: 1,
        entries: 1,
        amountCents: 2500,
      },
    ]);
    expect(sandbox.body.amounts).toStrictEqual({
      currency: 'AUD',
      examplePrices: true,
      billed: false,
      totalCents: 2500,
      unpricedEntries: 0,
      products: [
        {
          product: 'company_extract_current',
          name: 'Current company extracts',
          quantity: 1,
          entries: 1,
          amountCents: 2500,
        },
      ],
    });
  });

  it('sums the period per UTC day, only days with entries, whatever page of entries is asked', async () => {
    const key = await createKey('live');
    await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    await clock.advance(2 * 86_400_000);
    await buyExtract(key.secret, SANDBOX.relational, 'relational');
    await buyExtract(key.secret, SANDBOX.relational, 'current');
    const all = await usage(key.secret, '?from=2020-01-01');
    const [first, later] = [all.body.data[0]?.at.slice(0, 10), all.body.data[2]?.at.slice(0, 10)];
    expect(all.body.data.map((e) => e.at.slice(0, 10))).toStrictEqual([first, later, later]);
    expect(Date.parse(`${later}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)).toBe(2 * 86_400_000);
    const days = [
      { date: first, entries: 1, quantity: 1, amountCents: 2500 },
      { date: later, entries: 2, quantity: 2, amountCents: 6000 },
    ];
    const onePage = await usage(key.secret, `?from=${first}&to=${later}&limit=1`);
    expect(onePage.body.data).toHaveLength(1);
    expect(onePage.body.days).toStrictEqual(days);
    const lastDay = await usage(key.secret, `?from=${later}&to=${later}&limit=1`);
    expect(lastDay.body.days).toStrictEqual([days[1]]);
    expect((await usage(key.secret, '?from=2020-01-01&to=2020-01-31')).body.days).toStrictEqual([]);
    // A test key's days carry what the same use would have cost.
    const testKey = await createKey('test', { accountId: key.accountId });
    await buyExtract(testKey.secret, SANDBOX.proprietary, 'current');
    expect((await usage(testKey.secret, '?from=2020-01-01')).body.days).toStrictEqual([
      { date: later, entries: 1, quantity: 1, amountCents: 2500 },
    ]);
  });

  it('a range before the purchases is empty; the range is inclusive of `to`', async () => {
    const key = await createKey('live');
    await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    const empty = await usage(key.secret, '?from=2020-01-01&to=2020-12-31');
    expect(empty.body.data).toStrictEqual([]);
    expect(empty.body.totals).toStrictEqual([]);
    expect(empty.body.amounts).toMatchObject({ totalCents: 0, products: [] });
    expect((await usage(key.secret, `?from=2020-01-01&to=${today()}`)).body.totalCount).toBe(1);
  });

  it('defaults to the current month to date', async () => {
    const key = await createKey('live');
    const body = (await usage(key.secret)).body;
    expect(body.from).toBe(`${today().slice(0, 8)}01`);
    expect(body.to).toBe(today());
  });

  it('rejects bad dates and a reversed range', async () => {
    const key = await createKey('live');
    expectError(await usage(key.secret, '?from=2026-13-01&to=2026-12-01'), 422, validationError('from'));
    expectError(await usage(key.secret, '?from=yesterday'), 422, validationError('from'));
    expectError(await usage(key.secret, '?from=2026-05-02&to=2026-05-01'), 422, validationError('from'));
  });
});

describe('GET /v1/usage parameters', () => {
  it.each([
    ['to=2026-5-01', 'to'],
    ['to=2026-02-31x', 'to'],
    ['to=2026-02-31', 'to'],
    ['from=2026-04-31', 'from'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['month=2026-05', 'month'],
  ])('%s → 422 validation_error on %s', async (query, param) => {
    const key = await createKey('live');
    expectError(await usage(key.secret, `?${query}`), 422, validationError(param));
  });

  it('a cursor from another range → 400 on cursor', async () => {
    const key = await createKey('live');
    await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    await buyExtract(key.secret, SANDBOX.relational, 'current');
    const first = await usage(key.secret, '?limit=1');
    const moved = await usage(
      key.secret,
      `?limit=1&from=2020-01-01&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`,
    );
    expectError(moved, 400, validationError('cursor'));
  });
});
