/**
 * The weekly-summaries capability: the dataset registry's rules (ZZ54 for the sandbox, WS01,
 * WS02, WS51, an empty week, pages with a continuation) over the simulator's generated weeks, and
 * the same through the simulator and the HTTP adapter (billed once per client key, pages free).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../local/generated-data.ts';
import {
  generateWeek,
  simulatorWeeklySummaries,
  WEEKLY_CASES,
} from '../../local/generated-weekly-summaries.ts';
import { type RegistrySimulator, startRegistrySimulator } from '../../local/registry-simulator.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import { HttpRegistry } from '../../shared/composition/registry/http-registry.ts';
import { sandboxDataset } from '../../shared/composition/registry/sandbox.ts';
import { type RegistryCaller, RegistryRejection } from '../../shared/kernel/registry-port.ts';
import { REGISTRY_WEEKLY_PAGE } from '../../shared/weekly-summaries/adapters/sandbox.ts';
import type { WeeklySummaryType } from '../../shared/weekly-summaries/registry-port.ts';
import { mondayWeeksAgo } from '../../shared/weekly-summaries/weeks.ts';

const NOW = new Date('2026-11-25T10:00:00Z'); // a Wednesday
const caller: RegistryCaller = { accountId: 'acct_1', requestId: 'req_1' };
const dataset = generateDataset(5, 7);
const registry = new DatasetRegistry(dataset, () => NOW, { weeklySummaries: simulatorWeeklySummaries });
const week = (ago: number) => mondayWeeksAgo(NOW, ago);

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RegistryRejection);
    return (error as RegistryRejection).registryCode;
  }
  throw new Error('expected a rejection');
}

describe('the dataset registry’s weekly summaries', () => {
  it('rejects ZZ54 for the sandbox, which serves none', async () => {
    const sandbox = new DatasetRegistry(sandboxDataset(), () => NOW);
    expect(
      await code(sandbox.purchaseWeeklySummary({ type: 'name-changes', weekStarting: week(1) }, caller, 'k')),
    ).toBe('ZZ54');
  });

  it('rejects an unknown type (WS01), a week that is not a Monday, not begun or too old (WS02)', async () => {
    const buy = (type: string, weekStarting: string) =>
      code(registry.purchaseWeeklySummary({ type: type as WeeklySummaryType, weekStarting }, caller, 'k'));
    expect(await buy('charges', week(1))).toBe('WS01');
    expect(await buy('name-changes', '2026-11-17')).toBe('WS02'); // a Tuesday
    expect(await buy('name-changes', mondayWeeksAgo(NOW, -1))).toBe('WS02');
    expect(await buy('name-changes', week(53))).toBe('WS02');
    expect(await buy('name-changes', week(0))).toBe('WS51'); // the current week is not complete
    expect(await buy('name-changes', week(WEEKLY_CASES.unpublishedWeeksAgo))).toBe('WS51');
  });

  it('sells an empty week as a summary without items', async () => {
    const empty = await registry.purchaseWeeklySummary(
      { type: 'new-registrations', weekStarting: week(WEEKLY_CASES.emptyWeeksAgo) },
      caller,
      'k',
    );
    expect([empty.totalCount, empty.items, empty.continuation, empty.postcodeTotals]).toEqual([
      0,
      [],
      null,
      [],
    ]);
  });

  it('populates the fields each type populates', async () => {
    const fields = async (type: WeeklySummaryType) => {
      const summary = await registry.purchaseWeeklySummary({ type, weekStarting: week(1) }, caller, 'k');
      const item = summary.items[1];
      expect(item).toBeDefined();
      return Object.entries(item ?? {})
        .filter(([, value]) => value !== null)
        .map(([name]) => name)
        .sort();
    };
    expect(await fields('new-registrations')).toEqual([
      'company',
      'date',
      'documentNumber',
      'postcode',
      'subType',
    ]);
    expect(await fields('name-changes')).toEqual([
      'company',
      'date',
      'documentNumber',
      'newName',
      'subType',
      'subject',
    ]);
    expect(await fields('licences-granted')).toEqual(['date', 'licenceNumber', 'subType', 'subject']);
    expect(await fields('disqualified-directors')).toEqual(['date', 'documentNumber', 'subType', 'subject']);
    expect(await fields('new-schemes')).toEqual(['company', 'date', 'postcode', 'subType']);
    expect(await fields('external-administrations')).toEqual([
      'company',
      'date',
      'documentNumber',
      'subType',
      'subject',
    ]);
  });

  it('pages the 20,000-item week with continuations, and the totals add up', async () => {
    const first = await registry.purchaseWeeklySummary(
      { type: 'new-registrations', weekStarting: week(WEEKLY_CASES.largeWeeksAgo) },
      caller,
      'k',
    );
    expect([first.totalCount, first.items.length]).toEqual([20_000, REGISTRY_WEEKLY_PAGE]);
    let items = first.items.length;
    let continuation = first.continuation;
    while (continuation) {
      const page = await registry.weeklySummaryItems(continuation, caller);
      items += page.items.length;
      continuation = page.continuation;
    }
    expect(items).toBe(20_000);
    expect(first.postcodeTotals).toHaveLength(WEEKLY_CASES.largePostcodes);
    expect(first.postcodeTotals?.reduce((sum, total) => sum + total.count, 0)).toBe(20_000);
    expect(await code(registry.weeklySummaryItems('garbage', caller))).toBe('WS53');
  });

  it('generates the same week the same way', () => {
    expect(generateWeek('name-changes', week(4), NOW)).toEqual(generateWeek('name-changes', week(4), NOW));
  });
});

describe('weekly summaries through the simulator', () => {
  let simulator: RegistrySimulator;
  beforeAll(async () => {
    simulator = await startRegistrySimulator({ registry, credential: 'c' });
  });
  afterAll(() => simulator.stop());

  it('bills a purchase once per client key; continuation pages are free', async () => {
    const http = new HttpRegistry({ baseUrl: simulator.url, credential: async () => 'c' });
    const query = { type: 'new-registrations' as const, weekStarting: week(WEEKLY_CASES.largeWeeksAgo) };
    const first = await http.purchaseWeeklySummary(query, caller, 'ckey_1');
    const again = await http.purchaseWeeklySummary(query, caller, 'ckey_1');
    expect(again.items[0]).toEqual(first.items[0]);
    const next = await http.weeklySummaryItems(first.continuation as string, caller);
    expect(next.items).toHaveLength(REGISTRY_WEEKLY_PAGE);
    expect(simulator.calls.billed()).toBe(1);
    const refused = await code(
      http.purchaseWeeklySummary({ ...query, weekStarting: week(6) }, caller, 'ckey_2'),
    );
    expect(refused).toBe('WS51');
  });
});
