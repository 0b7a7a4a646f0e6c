import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCapabilityLocal } from '../../local/capability-local.ts';
import { type SimulatorControl, simulatorControl } from '../../local/registry-simulator.ts';
import { SIMULATOR_REFERENCE_CHANGES } from '../../local/simulator-reference.ts';
import { type LocalStack, startLocalStack } from '../../local/stack.ts';
import { codeTables } from '../../shared/reference/code-tables.ts';
import { REFERENCE_CACHE_MS } from '../../shared/reference/current.ts';
import { forms } from '../../shared/reference/forms.ts';
import referenceLocal from '../../shared/reference/local/stack.ts';
import { checkContract } from '../support/contract.ts';

/**
 * The daily reference refresh end to end: the registry simulator serves a schedule and code tables
 * that differ from the bundled copy (local/simulator-reference.ts); after the refresh runs
 * (`POST /__local/refresh-reference`, the same handler the daily schedule runs) they reach the
 * reference routes, for live and test keys alike, with no deploy; a refresh that fails in a
 * maintenance window leaves the routes serving the last good copy. A stack of its own: the shared
 * one must keep serving the bundled copy to the other files.
 */

const LIVE = 'sk_live_referenceRefresh';
const TEST = 'sk_test_referenceRefresh';
let stack: LocalStack;
let registry: SimulatorControl;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    logLevel: 'ERROR',
    keys: [
      { accountId: 'acct_reference', environment: 'live', secret: LIVE },
      { accountId: 'acct_reference', environment: 'test', secret: TEST },
    ],
  });
  registry = simulatorControl(stack.registryUrl);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

interface Page<T> {
  data: T[];
  totalCount: number;
}
interface Form {
  formCode: string;
  description: string;
  category: string;
}
interface CodeTable {
  table: string;
  entries: { code: string; label: string; registryCode: string | null }[];
}

async function get<T>(path: string, key = LIVE) {
  const response = await fetch(`${stack.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const body = (await response.json()) as T;
  checkContract('GET', path, { status: response.status, headers: response.headers, body });
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { body, lastModified: response.headers.get('last-modified') };
}

async function refresh() {
  const response = await fetch(`${stack.baseUrl}/__local/refresh-reference`, { method: 'POST' });
  expect(response.status).toBe(200);
  return (await response.json()) as { refreshed: boolean; outcomes: Record<string, unknown>[] };
}

/** Past the time a function keeps the copy it read. */
const afterCache = () => stack.clock.advance(REFERENCE_CACHE_MS);

const { newForm, rewordedForm, newCode } = SIMULATOR_REFERENCE_CHANGES;
const statusesBefore = codeTables.find((table) => table.table === newCode.table)?.entries ?? [];

describe('the daily reference refresh', () => {
  it('serves the bundled copy, without Last-Modified, before any refresh', async () => {
    const schedule = await get<Page<Form>>('/v1/reference/forms?limit=100');
    expect(schedule.lastModified).toBeNull();
    expect(schedule.body.totalCount).toBe(forms.length);
    expect(schedule.body.data.map((form) => form.formCode)).not.toContain(newForm.formCode);
    const statuses = await get<CodeTable>(`/v1/reference/code-tables/${newCode.table}`);
    expect(statuses.lastModified).toBeNull();
    expect(statuses.body.entries).toEqual(statusesBefore);
  });

  it('brings the registry schedule and code tables to the routes, for live and test keys alike', async () => {
    const refreshedAt = stack.clock.now();
    const result = await refresh();
    expect(result).toEqual({
      refreshed: true,
      outcomes: [
        { kind: 'forms', outcome: 'stored', count: forms.length + 1, refreshedAt: expect.any(String) },
        { kind: 'code-tables', outcome: 'stored', count: codeTables.length, refreshedAt: expect.any(String) },
      ],
    });
    // Each kind is stored with its own time: the forms' and the code tables' can fall in different seconds.
    const storedAt = new Date(result.outcomes[0]?.refreshedAt as string);
    const tablesStoredAt = new Date(result.outcomes[1]?.refreshedAt as string);
    expect(storedAt.getTime()).toBeGreaterThanOrEqual(refreshedAt.getTime() - 1000);
    afterCache();

    for (const key of [LIVE, TEST]) {
      const all = await get<Page<Form>>('/v1/reference/forms?limit=100', key);
      expect(all.lastModified).toBe(storedAt.toUTCString());
      expect(all.body.totalCount).toBe(forms.length + 1);
      expect(all.body.data.find((form) => form.formCode === newForm.formCode)).toEqual({
        object: 'form',
        formCode: newForm.formCode,
        description: newForm.description,
        category: 'all',
      });
      expect(all.body.data.find((form) => form.formCode === rewordedForm.formCode)?.description).toBe(
        rewordedForm.description,
      );
      // The registry's order (ascending text order of codes) is kept: 410 < 4300 < 480.
      const codes = all.body.data.map((form) => form.formCode);
      expect(codes.indexOf(newForm.formCode)).toBe(codes.indexOf('410') + 1);

      const category = await get<Page<Form>>(
        '/v1/reference/forms?category=internal-administration&limit=100',
        key,
      );
      expect(category.body.data.map((form) => form.formCode)).toContain(newForm.formCode);

      const statuses = await get<CodeTable>(`/v1/reference/code-tables/${newCode.table}`, key);
      expect(statuses.lastModified).toBe(tablesStoredAt.toUTCString());
      expect(statuses.body.entries).toEqual([...statusesBefore, newCode.entry]);

      const list = await get<Page<{ table: string; entryCount: number }>>('/v1/reference/code-tables', key);
      expect(list.lastModified).toBe(tablesStoredAt.toUTCString());
      expect(list.body.totalCount).toBe(codeTables.length);
      expect(list.body.data.find((table) => table.table === newCode.table)?.entryCount).toBe(
        statusesBefore.length + 1,
      );
    }
  });

  it('keeps serving the last good copy when a refresh fails in a maintenance window', async () => {
    const before = await get<Page<Form>>('/v1/reference/forms?limit=100');
    stack.clock.advance(24 * 60 * 60 * 1000);
    await registry.addFault({ code: 'ZZ51', operations: ['reference.forms', 'reference.codeTables'] });
    try {
      expect(await refresh()).toEqual({
        refreshed: false,
        outcomes: [
          { kind: 'forms', outcome: 'failed', reason: expect.stringContaining('ZZ51') },
          { kind: 'code-tables', outcome: 'failed', reason: expect.stringContaining('ZZ51') },
        ],
      });
    } finally {
      await registry.clearFaults();
    }
    afterCache();
    const after = await get<Page<Form>>('/v1/reference/forms?limit=100');
    expect(after.lastModified).toBe(before.lastModified);
    expect(after.body.data).toEqual(before.body.data);
    const statuses = await get<CodeTable>(`/v1/reference/code-tables/${newCode.table}`);
    expect(statuses.body.entries.at(-1)).toEqual(newCode.entry);
  });

  it("is the reference capability's local module: its handle, typed, runs the refresh as the endpoint does", async () => {
    const handle = stack.local(referenceLocal);
    expect(await handle.run()).toEqual({
      refreshed: true,
      outcomes: [
        { kind: 'forms', outcome: 'stored', count: forms.length + 1, refreshedAt: expect.any(String) },
        { kind: 'code-tables', outcome: 'stored', count: codeTables.length, refreshedAt: expect.any(String) },
      ],
    });
    // Off the clock unless npm start (development) or an interval asks for it.
    expect(stack.notes).toContain(
      `Reference data: the bundled copy until a refresh; POST ${stack.baseUrl}/__local/refresh-reference`,
    );
    const notStarted = defineCapabilityLocal({ start: async () => ({ handle: 1, stop: async () => {} }) });
    expect(() => stack.local(notStarted)).toThrow('no capability of this stack started that local module');
  });
});
