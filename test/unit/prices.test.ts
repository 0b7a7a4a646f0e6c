import { afterEach, describe, expect, it } from 'vitest';
import { feeEntryFor } from '../../shared/extracts/lifecycle.ts';
import type { ExtractHeader } from '../../shared/extracts/store-port.ts';
import type { FeeEntry } from '../../shared/kernel/ports/fee-ledger.ts';
import { PRICE_SCHEDULE_ENV, type PriceSchedule, priceAt, stagePrices } from '../../shared/kernel/prices.ts';
import { checkPriceSchedule, EXAMPLE_PRICE_SCHEDULE, PRICED_ITEMS } from '../../shared/usage/prices.ts';
import { priceEntry, usageAmounts } from '../../shared/usage/report.ts';

const allAt = (cents: number) => Object.fromEntries(PRICED_ITEMS.map((key) => [key, cents]));

/** 25.00 until 30 June 2026, 30.00 from 1 July 2026 for the current company extract. */
const SCHEDULE: PriceSchedule = {
  currency: 'AUD',
  example: false,
  versions: [
    { effectiveFrom: '2026-01-01', prices: { ...allAt(1000), 'company_extract_current/955A': 2500 } },
    { effectiveFrom: '2026-07-01', prices: { ...allAt(1000), 'company_extract_current/955A': 3000 } },
  ],
};

const header = (environment: 'live' | 'test', purchasedAt: string): ExtractHeader => ({
  id: 'ext_0123456789abcdef01234567',
  accountId: 'acct_1',
  environment,
  kind: 'company',
  type: 'current',
  subjectKey: '990000014',
  purchasedAt,
  asOf: purchasedAt,
  expiresAt: '2027-11-01T00:00:00.000Z',
  clientReference: null,
  requestId: 'req_unit',
  summary: {},
});

const PRODUCT = { product: 'company_extract_current', feeCode: '955A' };

describe('prices', () => {
  afterEach(() => {
    delete process.env[PRICE_SCHEDULE_ENV];
  });

  it('takes the version in force at the time: from 00:00 UTC of its effective date', () => {
    expect(priceAt(SCHEDULE, 'company_extract_current', '955A', '2026-06-30T23:59:59.999Z')).toStrictEqual({
      unitAmountCents: 2500,
      priceVersion: '2026-01-01',
    });
    expect(priceAt(SCHEDULE, 'company_extract_current', '955A', '2026-07-01T00:00:00.000Z')).toStrictEqual({
      unitAmountCents: 3000,
      priceVersion: '2026-07-01',
    });
    expect(priceAt(SCHEDULE, 'company_extract_current', '955A', '2025-12-31T23:59:59Z')).toBeUndefined();
    expect(priceAt(SCHEDULE, 'monitoring', null, '2026-08-01T00:00:00Z')).toStrictEqual({
      unitAmountCents: 1000,
      priceVersion: '2026-07-01',
    });
  });

  it('records the price in force on a fee entry when it is written, test keys included', () => {
    process.env[PRICE_SCHEDULE_ENV] = JSON.stringify(SCHEDULE);
    const live = feeEntryFor(header('live', '2026-06-15T10:00:00.000Z'), PRODUCT);
    expect(live).toMatchObject({ feeCode: '955A', unitAmountCents: 2500, priceVersion: '2026-01-01' });
    // A test key's entry has no fee code but records what the same use would have cost.
    const test = feeEntryFor(header('test', '2026-07-02T10:00:00.000Z'), PRODUCT);
    expect(test).toMatchObject({
      feeCode: null,
      billable: false,
      unitAmountCents: 3000,
      priceVersion: '2026-07-01',
    });
  });

  it('keeps a past purchase at the price it was bought at when a later version changes it', () => {
    process.env[PRICE_SCHEDULE_ENV] = JSON.stringify({
      ...SCHEDULE,
      versions: SCHEDULE.versions.slice(0, 1),
    });
    const bought = feeEntryFor(header('live', '2026-08-01T10:00:00.000Z'), PRODUCT);
    expect(bought).toMatchObject({ unitAmountCents: 2500, priceVersion: '2026-01-01' });
    // A version effective from before the purchase is added later (a backdated change): the entry keeps its price.
    const changed: PriceSchedule = {
      ...SCHEDULE,
      versions: [...SCHEDULE.versions, { effectiveFrom: '2026-07-15', prices: allAt(9900) }],
    };
    expect(priceEntry(bought, changed)).toMatchObject({
      unitAmountCents: 2500,
      amountCents: 2500,
      priceVersion: '2026-01-01',
    });
    // An entry written before prices were recorded is priced by its time.
    const { unitAmountCents: _u, priceVersion: _v, ...unrecorded } = bought;
    expect(priceEntry(unrecorded, changed)).toMatchObject({
      unitAmountCents: 9900,
      priceVersion: '2026-07-15',
    });
  });

  it('sums amounts per product with its name and in total, not billed on test keys', () => {
    const entry = (product: string, feeCode: string | null, quantity: number, cents?: number): FeeEntry => ({
      accountId: 'acct_1',
      environment: 'test',
      at: '2026-11-02T00:00:00.000Z',
      product,
      feeCode,
      quantity,
      billable: false,
      clientReference: null,
      requestId: 'req_1',
      resourceId: 'ext_1',
      ...(cents === undefined ? {} : { unitAmountCents: cents, priceVersion: '2020-01-01' }),
    });
    const priced = [
      entry('company_extract_current', null, 1, 2500),
      entry('document_image', null, 3, 1200),
      entry('company_extract_current', null, 1, 2500),
      entry('monitoring', null, 40),
      entry('person_extract', null, 1),
    ].map((fee) => priceEntry(fee, EXAMPLE_PRICE_SCHEDULE));
    expect(usageAmounts(priced, EXAMPLE_PRICE_SCHEDULE, false)).toStrictEqual({
      currency: 'AUD',
      examplePrices: true,
      billed: false,
      totalCents: 5000 + 3600 + 40,
      unpricedEntries: 1,
      products: [
        {
          product: 'company_extract_current',
          name: 'Current company extracts',
          quantity: 2,
          entries: 2,
          amountCents: 5000,
        },
        { product: 'document_image', name: 'Document images', quantity: 3, entries: 1, amountCents: 3600 },
        { product: 'monitoring', name: 'Company monitoring', quantity: 40, entries: 1, amountCents: 40 },
        {
          product: 'person_extract',
          name: 'Personal name extracts',
          quantity: 1,
          entries: 1,
          amountCents: 0,
        },
      ],
    });
  });

  it('reads the stage schedule from PRICE_SCHEDULE, the example schedule where unset', () => {
    expect(stagePrices()).toBe(EXAMPLE_PRICE_SCHEDULE);
    process.env[PRICE_SCHEDULE_ENV] = JSON.stringify(SCHEDULE);
    expect(stagePrices()).toStrictEqual(SCHEDULE);
  });

  it('refuses a schedule that misses an item, names an unknown one, or has versions out of order', () => {
    expect(checkPriceSchedule(SCHEDULE)).toBe(SCHEDULE);
    const { 'register_extract/959A': _dropped, ...missing } = allAt(100);
    expect(() =>
      checkPriceSchedule({ ...SCHEDULE, versions: [{ effectiveFrom: '2026-01-01', prices: missing }] }),
    ).toThrow('setting prices version 2026-01-01 prices nothing for register_extract/959A');
    expect(() =>
      checkPriceSchedule({
        ...SCHEDULE,
        versions: [
          { effectiveFrom: '2026-01-01', prices: { ...allAt(100), 'company_extract_current/999': 1 } },
        ],
      }),
    ).toThrow('prices company_extract_current/999, which is not a product and fee code');
    expect(() => checkPriceSchedule({ ...SCHEDULE, versions: [...SCHEDULE.versions].reverse() })).toThrow(
      'versions must be in order of effectiveFrom, each later: 2026-01-01',
    );
    expect(() =>
      checkPriceSchedule({ ...SCHEDULE, versions: [{ effectiveFrom: '2026-01-01', prices: allAt(12.5) }] }),
    ).toThrow('must be whole cents, got 12.5');
    expect(() => checkPriceSchedule({ ...SCHEDULE, currency: 'dollars' })).toThrow('ISO 4217');
    expect(() => checkPriceSchedule(EXAMPLE_PRICE_SCHEDULE)).not.toThrow();
  });
});
