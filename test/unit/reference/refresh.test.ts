import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables, tableDefinitions } from '../../../shared/kernel/infra/tables.ts';
import { RegistryRejection } from '../../../shared/kernel/registry-port.ts';
import { DynamoReferenceStore } from '../../../shared/reference/adapters/dynamodb.ts';
import { bundledReference } from '../../../shared/reference/adapters/sandbox.ts';
import { codeTables } from '../../../shared/reference/code-tables.ts';
import { REFERENCE_CACHE_MS } from '../../../shared/reference/current.ts';
import { currentCodeTables } from '../../../shared/reference/current-code-tables.ts';
import { currentFormSchedule } from '../../../shared/reference/current-forms.ts';
import { forms } from '../../../shared/reference/forms.ts';
import {
  checkCodeTables,
  checkFormSchedule,
  REFERENCE_MAX_SHRINK,
  REFERENCE_REFRESH_ACCOUNT,
  refreshReference,
  refreshSucceeded,
} from '../../../shared/reference/refresh.ts';
import type {
  ReferenceRegistry,
  RegistryCodeTable,
  RegistryForm,
} from '../../../shared/reference/registry-port.ts';
import type { ReferenceKind, ReferenceStore, StoredReference } from '../../../shared/reference/store-port.ts';
import { fileTables, SHARED_DYNAMO_WAIT_MS } from '../../support/dynamo.ts';

/** The daily reference refresh: the checks on the registry's answers, the store, the served copy. */

/** In memory, with the DynamoDB store's rule: a copy from an earlier refresh never replaces a later one. */
class MemoryReferenceStore implements ReferenceStore {
  readonly copies = new Map<ReferenceKind, StoredReference<ReferenceKind>>();
  reads = 0;
  failReads = false;
  async get<K extends ReferenceKind>(kind: K) {
    this.reads++;
    if (this.failReads) throw new Error('table unavailable');
    return this.copies.get(kind) as StoredReference<K> | undefined;
  }
  async put<K extends ReferenceKind>(kind: K, copy: StoredReference<K>) {
    const held = this.copies.get(kind);
    if (held && held.refreshedAt >= copy.refreshedAt) return false;
    this.copies.set(kind, structuredClone(copy) as StoredReference<ReferenceKind>);
    return true;
  }
}

/** A registry answering with the given schedule and tables (or throwing what it is given). */
function registryOf(answers: {
  forms?: () => unknown;
  tables?: () => unknown;
}): ReferenceRegistry & { callers: unknown[] } {
  const callers: unknown[] = [];
  return {
    callers,
    getFormSchedule: async (caller) => {
      callers.push(caller);
      return (answers.forms ?? (() => ({ forms: bundledReference.forms() })))() as { forms: RegistryForm[] };
    },
    getCodeTables: async (caller) => {
      callers.push(caller);
      return (answers.tables ?? (() => ({ tables: bundledReference.codeTables() })))() as {
        tables: RegistryCodeTable[];
      };
    },
  };
}

const at = new Date('2026-11-24T03:00:00.000Z');
const refresh = (registry: ReferenceRegistry, store: ReferenceStore, now = at) =>
  refreshReference({ registry, store, now: () => now, requestId: 'req_refresh' });

const withNewForm = () => ({
  forms: [...bundledReference.forms(), { formCode: '999', description: 'A new form', categories: ['debt'] }],
});

describe('checkFormSchedule', () => {
  it('keeps the registry order and drops categories the API does not know', () => {
    const answer = {
      forms: [
        { formCode: '9', description: 'Nine', categories: ['debt', 'not-ours', 'debt'] },
        { formCode: '1', description: 'One', categories: ['not-ours'] },
      ],
    };
    expect(checkFormSchedule(answer, [])).toEqual({
      data: [
        { formCode: '9', description: 'Nine', categories: ['debt'] },
        { formCode: '1', description: 'One', categories: [] },
      ],
    });
  });

  it.each([
    ['no list', { forms: 'all' }, 'the answer has no forms list'],
    ['not an object', [], 'the answer has no forms list'],
    ['a form without code', { forms: [{ description: 'x', categories: [] }] }, 'forms[0] has no form code'],
    [
      'a code with spaces around it',
      { forms: [{ formCode: ' 1', description: 'x', categories: [] }] },
      'forms[0] has no form code',
    ],
    [
      'a form twice',
      {
        forms: [
          { formCode: '1', description: 'x', categories: [] },
          { formCode: '1', description: 'y', categories: [] },
        ],
      },
      'form 1 is listed twice',
    ],
    [
      'an empty description',
      { forms: [{ formCode: '1', description: ' ', categories: [] }] },
      'form 1 has no description',
    ],
    [
      'categories not a list',
      { forms: [{ formCode: '1', description: 'x', categories: 'debt' }] },
      'form 1 has no categories list',
    ],
  ])('refuses %s', (_name, answer, problem) => {
    expect(checkFormSchedule(answer, [])).toEqual({ problem });
  });

  it(`refuses a schedule that loses more than ${REFERENCE_MAX_SHRINK * 100}% of its forms, and accepts one that loses that much`, () => {
    const current = Array.from({ length: 20 }, (_, i) => ({
      formCode: String(100 + i),
      description: `Form ${i}`,
      categories: [] as never[],
    }));
    const keeping = (n: number) => ({
      forms: current.slice(0, n).map((form) => ({ ...form, categories: [] })),
    });
    expect(checkFormSchedule(keeping(18), current)).toHaveProperty('data');
    expect(checkFormSchedule(keeping(17), current)).toEqual({
      problem: 'the form schedule would shrink from 20 to 17 entries (more than 10%)',
    });
    expect(checkFormSchedule({ forms: [] }, current)).toEqual({
      problem: 'the form schedule would shrink from 20 to 0 entries (more than 10%)',
    });
  });
});

describe('checkCodeTables', () => {
  const tablesWith = (slug: string, change: (table: RegistryCodeTable) => unknown) => ({
    tables: bundledReference.codeTables().map((table) => (table.table === slug ? change(table) : table)),
  });

  it('accepts the bundled tables as they are, and a new code at the end of a table', () => {
    expect(checkCodeTables({ tables: bundledReference.codeTables() }, codeTables)).toEqual({
      data: codeTables,
    });
    const answer = tablesWith('charge-types', (table) => ({
      ...table,
      entries: [...table.entries, { code: 'Z', label: '', registryCode: null }],
    }));
    const checked = checkCodeTables(answer, codeTables);
    if (!('data' in checked)) throw new Error(checked.problem);
    expect(checked.data.find((table) => table.table === 'charge-types')?.entries).toEqual([
      { code: 'B', label: 'Both Fixed & Floating', registryCode: null },
      { code: 'F', label: 'Floating', registryCode: null },
      { code: 'X', label: 'Fixed', registryCode: null },
      // A code whose label is not known yet shows the code (spec document 3, 9.3).
      { code: 'Z', label: 'Z', registryCode: null },
    ]);
  });

  it('leaves out tables the API does not know, keeping its own order', () => {
    const answer = {
      tables: [{ table: 'new-table', title: 'New', entries: [] }, ...bundledReference.codeTables().reverse()],
    };
    const checked = checkCodeTables(answer, codeTables);
    if (!('data' in checked)) throw new Error(checked.problem);
    expect(checked.data.map((table) => table.table)).toEqual(codeTables.map((table) => table.table));
  });

  it.each([
    ['no list', { tables: {} }, 'the answer has no tables list'],
    ['a table without slug', { tables: [{ title: 'x', entries: [] }] }, 'tables[0] has no slug'],
    [
      'a missing table',
      { tables: bundledReference.codeTables().filter((table) => table.table !== 'states') },
      'table states is missing',
    ],
    [
      'a table twice',
      { tables: [...bundledReference.codeTables(), bundledReference.codeTables()[0]] },
      'table organisation-types is listed twice',
    ],
    [
      'entries that are not a list',
      tablesWith('charge-types', (table) => ({ ...table, entries: null })),
      'charge-types has no entries list',
    ],
    [
      'an entry without code',
      tablesWith('charge-types', (table) => ({ ...table, entries: [{ label: 'x', registryCode: null }] })),
      'charge-types entries[0] has no code',
    ],
    [
      'a code twice',
      tablesWith('charge-types', (table) => ({ ...table, entries: [...table.entries, table.entries[0]] })),
      'charge-types lists code B twice',
    ],
    [
      'a label that is not text',
      tablesWith('charge-types', (table) => ({
        ...table,
        entries: [{ code: 'B', label: 3, registryCode: null }],
      })),
      'charge-types code B has no label',
    ],
    [
      'a registry code that is not text',
      tablesWith('number-types', (table) => ({
        ...table,
        entries: table.entries.map((entry) => ({ ...entry, registryCode: 1 })),
      })),
      'number-types code ACN has a registry code that is not text',
    ],
    [
      'a table that loses a third of its codes',
      tablesWith('charge-types', (table) => ({ ...table, entries: table.entries.slice(0, 2) })),
      'table charge-types would shrink from 3 to 2 entries (more than 10%)',
    ],
  ])('refuses %s', (_name, answer, problem) => {
    expect(checkCodeTables(answer, codeTables)).toEqual({ problem });
  });
});

describe('refreshReference', () => {
  it('stores both kinds with the time of the refresh, calling the registry as the service itself', async () => {
    const store = new MemoryReferenceStore();
    const registry = registryOf({ forms: withNewForm });
    const outcomes = await refresh(registry, store);
    expect(outcomes).toEqual([
      { kind: 'forms', outcome: 'stored', count: forms.length + 1, refreshedAt: at.toISOString() },
      { kind: 'code-tables', outcome: 'stored', count: codeTables.length, refreshedAt: at.toISOString() },
    ]);
    expect(refreshSucceeded(outcomes)).toBe(true);
    expect(store.copies.get('forms')?.data.at(-1)).toEqual({
      formCode: '999',
      description: 'A new form',
      categories: ['debt'],
    });
    expect(registry.callers).toEqual([
      { accountId: REFERENCE_REFRESH_ACCOUNT, requestId: 'req_refresh' },
      { accountId: REFERENCE_REFRESH_ACCOUNT, requestId: 'req_refresh' },
    ]);
  });

  it('keeps the last good copy when the registry fails, and refreshes the other kind on its own', async () => {
    const store = new MemoryReferenceStore();
    await refresh(registryOf({ forms: withNewForm }), store);
    const later = new Date(at.getTime() + 86_400_000);
    const outcomes = await refresh(
      registryOf({
        forms: () => {
          throw new RegistryRejection('ZZ51', 'Registry database unavailable');
        },
      }),
      store,
      later,
    );
    expect(outcomes).toEqual([
      {
        kind: 'forms',
        outcome: 'failed',
        reason: 'the registry answered ZZ51: Registry database unavailable',
      },
      { kind: 'code-tables', outcome: 'stored', count: codeTables.length, refreshedAt: later.toISOString() },
    ]);
    expect(refreshSucceeded(outcomes)).toBe(false);
    expect(store.copies.get('forms')?.refreshedAt).toBe(at.toISOString());
    expect(store.copies.get('forms')?.data).toHaveLength(forms.length + 1);
  });

  it('refuses a shrunken answer against the stored copy, not the bundled one', async () => {
    const store = new MemoryReferenceStore();
    const many = () => ({
      forms: [
        ...bundledReference.forms(),
        ...Array.from({ length: 20 }, (_, i) => ({
          formCode: `X${i}`,
          description: `Extra ${i}`,
          categories: [],
        })),
      ],
    });
    await refresh(registryOf({ forms: many }), store);
    // Back to the bundled schedule: 20 forms fewer than stored, more than a tenth.
    const outcomes = await refresh(registryOf({}), store, new Date(at.getTime() + 1));
    expect(outcomes[0]).toEqual({
      kind: 'forms',
      outcome: 'refused',
      reason: `the form schedule would shrink from ${forms.length + 20} to ${forms.length} entries (more than 10%)`,
    });
    expect(store.copies.get('forms')?.data).toHaveLength(forms.length + 20);
  });

  it('reports a copy a later refresh already replaced as superseded', async () => {
    const store = new MemoryReferenceStore();
    await refresh(registryOf({}), store, new Date(at.getTime() + 1000));
    const outcomes = await refresh(registryOf({ forms: withNewForm }), store, at);
    expect(outcomes.map((o) => o.outcome)).toEqual(['superseded', 'superseded']);
    expect(refreshSucceeded(outcomes)).toBe(true);
    expect(store.copies.get('forms')?.data).toHaveLength(forms.length);
  });
});

describe('the served copy (currentFormSchedule, currentCodeTables)', () => {
  const clockAt = (start: number) => {
    let ms = start;
    return { now: () => new Date(ms), advance: (by: number) => (ms += by) };
  };

  it('serves the bundled copy with no refresh time until a copy is stored, then the stored one', async () => {
    const store = new MemoryReferenceStore();
    const clock = clockAt(at.getTime());
    const current = currentFormSchedule(store, clock);
    const before = await current();
    expect(before.refreshedAt).toBeNull();
    expect(before.data.inCategory('all')).toEqual(forms);
    await refresh(registryOf({ forms: withNewForm }), store);
    clock.advance(REFERENCE_CACHE_MS);
    const after = await current();
    expect(after.refreshedAt).toEqual(at);
    expect(after.data.inCategory('debt').map((form) => form.formCode)).toContain('999');
    expect(after.data.inCategory('all')).toHaveLength(forms.length + 1);
  });

  it(`reads the table at most once per ${REFERENCE_CACHE_MS} ms, once for concurrent requests, and again after the clock moves back`, async () => {
    const store = new MemoryReferenceStore();
    const clock = clockAt(at.getTime());
    const current = currentCodeTables(store, clock);
    await Promise.all([current(), current(), current()]);
    expect(store.reads).toBe(1);
    clock.advance(REFERENCE_CACHE_MS - 1);
    expect((await current()).data.find('charge-types')?.entries).toHaveLength(3);
    expect(store.reads).toBe(1);
    clock.advance(1);
    await current();
    expect(store.reads).toBe(2);
    clock.advance(-10_000);
    await current();
    expect(store.reads).toBe(3);
  });

  it('serves what it read before when the table cannot be read, and fails only with nothing read yet', async () => {
    const store = new MemoryReferenceStore();
    const clock = clockAt(at.getTime());
    const current = currentFormSchedule(store, clock);
    store.failReads = true;
    await expect(current()).rejects.toThrow('table unavailable');
    store.failReads = false;
    await refresh(registryOf({ forms: withNewForm }), store);
    expect((await current()).data.inCategory('all')).toHaveLength(forms.length + 1);
    store.failReads = true;
    clock.advance(REFERENCE_CACHE_MS);
    const served = await current();
    expect(served.refreshedAt).toEqual(at);
    expect(served.data.inCategory('all')).toHaveLength(forms.length + 1);
  });
});

describe('DynamoReferenceStore', () => {
  const tables = fileTables(allTables);
  const store = new DynamoReferenceStore(tables.name(tableDefinitions.main));

  beforeAll(() => tables.create(), SHARED_DYNAMO_WAIT_MS);

  afterAll(() => tables.remove());

  it('has nothing before a refresh, then the copy as stored', async () => {
    expect(await store.get('code-tables')).toBeUndefined();
    expect(await store.put('code-tables', { data: codeTables, refreshedAt: at.toISOString() })).toBe(true);
    expect(await store.get('code-tables')).toEqual({ data: codeTables, refreshedAt: at.toISOString() });
  });

  it('keeps the newest copy when refreshes race, whatever order their writes land in', async () => {
    const copies = Array.from({ length: 8 }, (_, i) => ({
      data: forms.slice(0, i + 1),
      refreshedAt: new Date(at.getTime() + i * 1000).toISOString(),
    }));
    const results = await Promise.all([...copies].reverse().map((copy) => store.put('forms', copy)));
    // However the writes interleave, the newest is stored and a refused write was an older one.
    expect(results[0]).toBe(true);
    expect(await store.get('forms')).toEqual(copies.at(-1));
    const shuffled = await Promise.all(
      [3, 0, 7, 5, 1, 6, 2, 4].map((i) =>
        store.put('forms', {
          ...(copies[i] as (typeof copies)[number]),
          refreshedAt: new Date(at.getTime() + 60_000 + i).toISOString(),
        }),
      ),
    );
    expect(shuffled.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect((await store.get('forms'))?.refreshedAt).toBe(new Date(at.getTime() + 60_007).toISOString());
  });
});
