/**
 * The daily reference refresh: reads the form schedule and the code tables from the registry,
 * checks each answer, and stores it with the time of the refresh (store-port.ts), each kind on its
 * own. An answer is refused, and the last good copy kept, when it is malformed or when it would
 * shrink the schedule or a table by more than `REFERENCE_MAX_SHRINK` of the copy served now: a
 * truncated or empty answer must not wipe out the data every client reads. A failed or refused
 * kind makes the refresh fail (the function's `Failures` metric), which raises an alarm after
 * `REFERENCE_MISSES_BEFORE_ALARM` days in a row (shared/reference/cdk/refresh.ts).
 */
import { type RegistryCaller, RegistryRejection } from '../kernel/registry-port.ts';
import { type CodeTableDefinition, type CodeTableEntry, codeTables } from './code-tables.ts';
import { type FormCategory, type FormDefinition, formCategories, forms } from './forms.ts';
import type { ReferenceRegistry } from './registry-port.ts';
import type { ReferenceData, ReferenceKind, ReferenceStore } from './store-port.ts';

/**
 * The largest share of its entries the schedule or a code table may lose in one refresh. The
 * registry adds forms and codes and almost never retires them; losing more than a tenth at once
 * looks like a truncated answer, and an operator should look before it is served.
 */
export const REFERENCE_MAX_SHRINK = 0.1;

/** Who the refresh calls the registry as: the service itself, not a customer. */
export const REFERENCE_REFRESH_ACCOUNT = 'acct_platform';

export type RefreshOutcome =
  | { kind: ReferenceKind; outcome: 'stored'; count: number; refreshedAt: string }
  | { kind: ReferenceKind; outcome: 'superseded'; count: number; refreshedAt: string }
  | { kind: ReferenceKind; outcome: 'refused' | 'failed'; reason: string };

export interface RefreshDeps {
  /** The live registry (the refresh never reads the sandbox). */
  registry: ReferenceRegistry;
  store: ReferenceStore;
  now(): Date;
  requestId: string;
}

type Checked<T> = { data: T } | { problem: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

const memberCategories = new Set<string>(formCategories.filter((category) => category !== 'all'));

function shrinkProblem(what: string, before: number, after: number): string | undefined {
  if (after >= before * (1 - REFERENCE_MAX_SHRINK)) return undefined;
  return `${what} would shrink from ${before} to ${after} entries (more than ${REFERENCE_MAX_SHRINK * 100}%)`;
}

/**
 * The registry's schedule, checked against the one served now. Categories the API does not know
 * are dropped (they cannot be asked for); a form in none of ours is still listed under `all`.
 */
export function checkFormSchedule(
  answer: unknown,
  current: readonly FormDefinition[],
): Checked<FormDefinition[]> {
  if (!isObject(answer) || !Array.isArray(answer.forms)) return { problem: 'the answer has no forms list' };
  const checked: FormDefinition[] = [];
  const codes = new Set<string>();
  for (const [index, form] of answer.forms.entries()) {
    if (!isObject(form) || !isText(form.formCode) || form.formCode !== form.formCode.trim())
      return { problem: `forms[${index}] has no form code` };
    if (codes.has(form.formCode)) return { problem: `form ${form.formCode} is listed twice` };
    codes.add(form.formCode);
    if (!isText(form.description)) return { problem: `form ${form.formCode} has no description` };
    if (!Array.isArray(form.categories) || !form.categories.every((c) => typeof c === 'string'))
      return { problem: `form ${form.formCode} has no categories list` };
    const categories = [...new Set(form.categories as string[])].filter((c) => memberCategories.has(c));
    checked.push({
      formCode: form.formCode,
      description: form.description,
      categories: categories as Exclude<FormCategory, 'all'>[],
    });
  }
  const shrink = shrinkProblem('the form schedule', current.length, checked.length);
  return shrink ? { problem: shrink } : { data: checked };
}

function checkEntries(table: string, entries: unknown): Checked<CodeTableEntry[]> {
  if (!Array.isArray(entries)) return { problem: `${table} has no entries list` };
  const checked: CodeTableEntry[] = [];
  const codes = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    if (!isObject(entry) || !isText(entry.code)) return { problem: `${table} entries[${index}] has no code` };
    if (codes.has(entry.code)) return { problem: `${table} lists code ${entry.code} twice` };
    codes.add(entry.code);
    if (typeof entry.label !== 'string') return { problem: `${table} code ${entry.code} has no label` };
    if (entry.registryCode !== null && typeof entry.registryCode !== 'string')
      return { problem: `${table} code ${entry.code} has a registry code that is not text` };
    // A code whose label the registry does not know yet shows the code itself (spec document 3, 9.3).
    checked.push({
      code: entry.code,
      label: entry.label.trim() || entry.code,
      registryCode: entry.registryCode,
    });
  }
  return { data: checked };
}

/**
 * The registry's code tables, checked against those served now. Every table served now must be
 * there; tables the API does not know are left out (a new table needs its place in the contract
 * and its documentation, so it comes with a deploy); entries keep the registry's order.
 */
export function checkCodeTables(
  answer: unknown,
  current: readonly CodeTableDefinition[],
): Checked<CodeTableDefinition[]> {
  if (!isObject(answer) || !Array.isArray(answer.tables)) return { problem: 'the answer has no tables list' };
  const answered = new Map<string, Record<string, unknown>>();
  for (const [index, table] of answer.tables.entries()) {
    if (!isObject(table) || !isText(table.table)) return { problem: `tables[${index}] has no slug` };
    if (answered.has(table.table)) return { problem: `table ${table.table} is listed twice` };
    answered.set(table.table, table);
  }
  const checked: CodeTableDefinition[] = [];
  for (const served of current) {
    const table = answered.get(served.table);
    if (!table) return { problem: `table ${served.table} is missing` };
    const entries = checkEntries(served.table, table.entries);
    if ('problem' in entries) return entries;
    const shrink = shrinkProblem(`table ${served.table}`, served.entries.length, entries.data.length);
    if (shrink) return { problem: shrink };
    checked.push({
      table: served.table,
      title: isText(table.title) ? table.title : served.title,
      entries: entries.data,
    });
  }
  return { data: checked };
}

const bundled: ReferenceData = { forms, 'code-tables': codeTables };

const sources = {
  forms: {
    fetch: (registry: ReferenceRegistry, caller: RegistryCaller) => registry.getFormSchedule(caller),
    check: checkFormSchedule,
  },
  'code-tables': {
    fetch: (registry: ReferenceRegistry, caller: RegistryCaller) => registry.getCodeTables(caller),
    check: checkCodeTables,
  },
} as const;

async function refreshKind<K extends ReferenceKind>(kind: K, deps: RefreshDeps): Promise<RefreshOutcome> {
  const caller: RegistryCaller = { accountId: REFERENCE_REFRESH_ACCOUNT, requestId: deps.requestId };
  let answer: unknown;
  try {
    answer = await sources[kind].fetch(deps.registry, caller);
  } catch (error) {
    const reason =
      error instanceof RegistryRejection
        ? `the registry answered ${error.registryCode}: ${error.message}`
        : `the registry could not be read: ${error instanceof Error ? error.message : String(error)}`;
    return { kind, outcome: 'failed', reason };
  }
  const refreshedAt = deps.now().toISOString();
  try {
    const current = (await deps.store.get(kind))?.data ?? bundled[kind];
    const checked = (sources[kind].check as (a: unknown, c: ReferenceData[K]) => Checked<ReferenceData[K]>)(
      answer,
      current,
    );
    if ('problem' in checked) return { kind, outcome: 'refused', reason: checked.problem };
    const stored = await deps.store.put(kind, { data: checked.data, refreshedAt });
    return { kind, outcome: stored ? 'stored' : 'superseded', count: checked.data.length, refreshedAt };
  } catch (error) {
    return {
      kind,
      outcome: 'failed',
      reason: `the copy could not be stored: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** Refreshes every kind, each on its own: one failing keeps its last good copy and not the other's. */
export const refreshReference = (deps: RefreshDeps): Promise<RefreshOutcome[]> =>
  Promise.all((['forms', 'code-tables'] as const).map((kind) => refreshKind(kind, deps)));

/** Thrown when a kind was not refreshed, so the function's failure counts toward the alarm. */
export class ReferenceRefreshFailed extends Error {
  constructor(readonly outcomes: readonly RefreshOutcome[]) {
    super(
      outcomes
        .filter((o) => o.outcome === 'refused' || o.outcome === 'failed')
        .map((o) => `${o.kind} ${o.outcome}: ${'reason' in o ? o.reason : ''}`)
        .join('; '),
    );
    this.name = 'ReferenceRefreshFailed';
  }
}

export const refreshSucceeded = (outcomes: readonly RefreshOutcome[]): boolean =>
  outcomes.every((o) => o.outcome === 'stored' || o.outcome === 'superseded');
