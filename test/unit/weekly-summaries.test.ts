/**
 * The weekly summary use cases against in-memory fakes (Prepare / Act / Assess): the request rules
 * at a fixed clock, the registry's window, the repeat without a fee, refresh, a lost answer
 * reconciled by the sweeper, and the presenting of pages.
 */
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../local/generated-data.ts';
import { simulatorWeeklySummaries, WEEKLY_CASES } from '../../local/generated-weekly-summaries.ts';
import { reconcilePurchases, UNSETTLED_AFTER_MS } from '../../shared/app/reconcile-purchases.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import type { Owner } from '../../shared/kernel/api-keys.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { RegistryRejection } from '../../shared/kernel/registry-port.ts';
import { presentWeeklySummary, WEEKLY_ITEMS } from '../../shared/weekly-summaries/present.ts';
import {
  checkWeeklySummaryRequest,
  purchaseWeeklySummary,
  type WeeklySummaryPurchaseInput,
} from '../../shared/weekly-summaries/purchase.ts';
import { mondayWeeksAgo } from '../../shared/weekly-summaries/weeks.ts';
import { extractRoles, KeyedRegistry, MemoryExtractStore } from '../support/fakes.ts';

const NOW = new Date('2026-11-25T10:00:00Z'); // a Wednesday
const live: Owner = { accountId: 'acct_unit', environment: 'live' };
const dataset = generateDataset(3, 11);

function prepare() {
  const keyed = new KeyedRegistry(
    new DatasetRegistry(dataset, () => NOW, { weeklySummaries: simulatorWeeklySummaries }),
  );
  return { keyed, registry: keyed.registry, store: new MemoryExtractStore() };
}

const purchase = (world: ReturnType<typeof prepare>, overrides: Partial<WeeklySummaryPurchaseInput> = {}) =>
  purchaseWeeklySummary({
    type: 'name-changes',
    weekStarting: mondayWeeksAgo(NOW, 1),
    refresh: false,
    owner: live,
    requestId: 'req_1',
    clientReference: null,
    recoveryKey: undefined,
    now: NOW,
    registry: world.registry,
    ...extractRoles(world.store),
    ...overrides,
  });

async function apiError(promise: Promise<unknown>): Promise<{ code: string; param: string | null }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { code: (error as ApiError).code, param: (error as ApiError).param ?? null };
  }
  throw new Error('expected an ApiError');
}

describe('the weekly summary request rules', () => {
  const check = (type: string, weekStarting: string, now = NOW) =>
    apiError(Promise.resolve().then(() => checkWeeklySummaryRequest(type, weekStarting, now)));
  const week = { code: 'week_start_invalid', param: 'weekStarting' };

  it('accepts the Monday of every completed week of the last 12 months', () => {
    expect(checkWeeklySummaryRequest('new-schemes', '2026-11-16', NOW)).toBe('new-schemes');
    expect(checkWeeklySummaryRequest('new-schemes', '2025-11-24', new Date('2025-12-01T00:00:00Z'))).toBe(
      'new-schemes',
    );
    // The week ending Sunday 2026-11-22 is complete from Monday 00:00 UTC.
    expect(checkWeeklySummaryRequest('new-schemes', '2026-11-16', new Date('2026-11-23T00:00:00Z'))).toBe(
      'new-schemes',
    );
  });

  it('refuses anything else, type first', async () => {
    expect(await check('weekly', '2026-11-17')).toEqual({ code: 'summary_type_invalid', param: 'type' });
    expect(await check('new-schemes', '2026-11-17')).toEqual(week); // a Tuesday
    expect(await check('new-schemes', '2026-11-23')).toEqual(week); // this week
    expect(await check('new-schemes', '2026-11-16', new Date('2026-11-22T23:59:59Z'))).toEqual(week);
    expect(await check('new-schemes', '2025-11-24')).toEqual(week); // a day over 12 months
    expect(await check('new-schemes', '2025-13-01')).toEqual(week);
    expect(await check('new-schemes', '16/11/2026')).toEqual(week);
  });

  it('a week the registry refuses as outside its own window (WS02) → summary_unavailable, nothing recorded', async () => {
    const world = prepare();
    // Our 12 months and the registry's 52 weeks agree today; should the registry's window ever be
    // the narrower, the week is one it cannot sell, not one the client got wrong.
    const narrower = new Proxy(world.registry, {
      get: (target, property, receiver) =>
        property === 'purchaseWeeklySummary'
          ? async () => {
              throw new RegistryRejection('WS02', 'outside the window');
            }
          : Reflect.get(target, property, receiver),
    });
    expect(await apiError(purchase(world, { registry: narrower }))).toEqual({
      code: 'summary_unavailable',
      param: 'weekStarting',
    });
    expect(world.store.records.size).toBe(0);
    expect(world.store.headers.size).toBe(0);
  });
});

describe('buying a weekly summary', () => {
  it('bills once; a repeat returns the held one without a fee; refresh buys again', async () => {
    const world = prepare();
    const first = await purchase(world);
    expect(first.billable).toBe(true);
    const again = await purchase(world, { requestId: 'req_2' });
    expect([again.id, again.billable, again.summary.purchasedAt]).toEqual([
      first.id,
      false,
      first.summary.purchasedAt,
    ]);
    const refreshed = await purchase(world, { requestId: 'req_3', refresh: true });
    expect(refreshed.id).not.toBe(first.id);
    expect(refreshed.billable).toBe(true);
    expect([...world.store.fees.values()].map((fee) => [fee.feeCode, fee.resourceId])).toEqual([
      ['930B', first.id],
      ['930B', refreshed.id],
    ]);
    expect(world.keyed.billed).toHaveLength(2);
  });

  it('an answer lost and never retried: the sweeper reads the pages and records the extract once', async () => {
    const world = prepare();
    world.keyed.loseAnswers = 1;
    const weekStarting = mondayWeeksAgo(NOW, WEEKLY_CASES.largeWeeksAgo);
    await expect(purchase(world, { type: 'new-registrations', weekStarting })).rejects.toThrow();
    expect(world.keyed.billed).toHaveLength(1);
    expect(world.store.headers.size).toBe(0);
    const later = new Date(NOW.getTime() + UNSETTLED_AFTER_MS + 60_000);
    const report = await reconcilePurchases({
      ...extractRoles(world.store),
      registryFor: () => world.registry,
      now: later,
    });
    expect(report).toEqual({ committed: 1, forgotten: 0, waiting: 0, atRisk: 0 });
    const [header] = [...world.store.headers.values()];
    expect(header?.kind).toBe('weeklySummary');
    const page = await world.store.readPage(header?.id as string, WEEKLY_ITEMS, {
      offset: 19_990,
      limit: 100,
    });
    expect([page?.items.length, page?.total]).toEqual([10, WEEKLY_CASES.largeCount]);
    expect([...world.store.fees.values()].map((fee) => fee.feeCode)).toEqual(['930A']);
    // The client's repeat now gets the held extract, without a fee.
    const repeat = await purchase(world, { type: 'new-registrations', weekStarting, requestId: 'req_9' });
    expect([repeat.id, repeat.billable]).toEqual([header?.id, false]);
    expect(world.keyed.billed).toHaveLength(1);
  });

  it('presents a page: filtered items, reduced totals, the next cursor at the next offset', async () => {
    const world = prepare();
    const bought = await purchase(world, { type: 'new-registrations' });
    const totals = (await world.store.readPage(bought.id, WEEKLY_ITEMS, { offset: 0, limit: 1 }))
      ?.attachment as { postcode: string; count: number }[];
    const busiest = [...totals].sort((a, b) => b.count - a.count)[0] as { postcode: string; count: number };
    const offsets: number[] = [];
    const shown = await presentWeeklySummary(world.store, bought, {
      postcode: busiest.postcode,
      offset: 1,
      limit: 2,
      encodeNext: async (offset) => {
        offsets.push(offset);
        return `cursor-${offset}`;
      },
    });
    expect(shown.postcode).toBe(busiest.postcode);
    expect(shown.postcodeTotals).toEqual([busiest]);
    expect(shown.items.totalCount).toBe(busiest.count);
    expect(
      shown.items.data.every((item) => (item as { postcode: string }).postcode === busiest.postcode),
    ).toBe(true);
    expect(shown.items.hasMore).toBe(busiest.count > 3);
    if (busiest.count > 3) expect(offsets).toEqual([3]);
  });
});
