/**
 * The daily check: every watched company of an environment, each once however many accounts
 * watch it, read with free registry calls only (the lookup, and the document list where the
 * type has one), compared with what each watching monitor last saw. Status, name and type
 * changes and each document lodged since give an event to each monitor that wants its type.
 *
 * A run is cut into shards (MONITOR_SHARDS), each a message of the fan-out queue; a shard's run
 * that stops half-way is simply run again: a monitor already brought up to date finds no change,
 * and an event written twice would have the same id (its write is conditional).
 */

import { coded } from '../companies/present.ts';
import type { CompanyRegistry } from '../companies/registry-port.ts';
import type { Environment } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { RegistryRejection } from '../kernel/registry-port.ts';
import { type ApplyPorts, type FoundChange, recordChanges } from './changes.ts';
import { presentDocumentRef } from './present.ts';
import { scheduledSandboxChange } from './sandbox.ts';
import { type CompanyReading, hasDocumentList, monitoredCompany, readCompany } from './snapshot.ts';
import { type CompanySnapshot, MONITOR_SHARDS, type MonitorRecord } from './store-port.ts';

export interface DailyCheckPorts extends ApplyPorts {
  registryFor(environment: Environment): Pick<CompanyRegistry, 'getCompany' | 'listCompanyDocuments'>;
}

/** The run of a day: its id is the date, so a re-run of the day is the same run. */
export const dailyRunId = (now: Date) => toTimestamp(now).slice(0, 10);

const isNewer = (
  document: { receivedAt: string; documentNumber: string },
  than: CompanySnapshot['latestDocument'],
) =>
  than === null ||
  document.receivedAt > than.receivedAt ||
  (document.receivedAt === than.receivedAt && document.documentNumber > than.documentNumber);

/** The changes between what the monitor knows and what the registry says now, in order. */
export function companyChanges(
  monitor: MonitorRecord,
  reading: CompanyReading,
  runId: string,
): FoundChange[] {
  const known = monitor.known;
  if (!known) return [];
  const now = reading.snapshot;
  const checkedAt = now.at;
  const source = { kind: 'daily_check', checkedAt };
  const changes: FoundChange[] = [];
  let state: CompanySnapshot = { ...known, at: checkedAt };
  const field = (type: FoundChange['type'], name: 'status' | 'name' | 'type', table: string | null) => {
    if (known[name] === now[name]) return;
    state = { ...state, [name]: now[name] };
    const show = (value: string) => (table ? coded(table, value) : value);
    changes.push({
      type,
      key: `${name}#${known[name]}>${now[name]}#${runId}`,
      detail: { before: show(known[name]), after: show(now[name]), source },
      knownAfter: state,
    });
  };
  field('company.status_changed', 'status', 'organisation-statuses');
  field('company.name_changed', 'name', null);
  field('company.type_changed', 'type', 'organisation-types');
  const lodged = reading.documents.filter((document) => isNewer(document, known.latestDocument)).reverse();
  for (const document of lodged) {
    const ref = {
      documentNumber: document.documentNumber,
      formCode: document.formCode,
      receivedAt: document.receivedAt,
    };
    state = { ...state, latestDocument: ref };
    changes.push({
      type: 'company.document_lodged',
      key: `document#${document.documentNumber}`,
      detail: { document: presentDocumentRef(ref), source },
      knownAfter: state,
    });
  }
  // Nothing changed but the time of the reading: no write.
  return changes;
}

export interface CompanyCheckOutcome {
  number: string;
  registryCalls: number;
  watchers: number;
  events: number;
}

/** Checks one company for every monitor watching it in the environment. */
export async function checkCompany(
  ports: DailyCheckPorts,
  environment: Environment,
  number: string,
  runId: string,
): Promise<CompanyCheckOutcome> {
  const registry = ports.registryFor(environment);
  const caller = { accountId: 'platform', requestId: `mon_daily_${runId}` };
  const watchers = (await ports.monitors.watchers(environment, number)).filter((m) => m.kind === 'company');
  if (watchers.length === 0) return { number, registryCalls: 0, watchers: 0, events: 0 };
  let company: Awaited<ReturnType<typeof registry.getCompany>>;
  try {
    company = await registry.getCompany(number, caller);
  } catch (error) {
    // A number the registry no longer knows is left as it was (the registry answers for it again later).
    if (error instanceof RegistryRejection)
      return { number, registryCalls: 1, watchers: watchers.length, events: 0 };
    throw error;
  }
  const reading = await readCompany(registry, company, caller, ports.now());
  const registryCalls = hasDocumentList(company.type) ? 2 : 1;
  // The sandbox's published schedule (test keys): a scheduled company's change of the day is its
  // one event, in place of the diff (which would find the same change a second time).
  const scheduled = environment === 'test' ? scheduledSandboxChange(number, reading) : null;
  let events = 0;
  for (const monitor of watchers) {
    if (!monitor.known) {
      // Created without a baseline (an import): this reading is its baseline, with no event.
      await ports.monitors.apply(monitor, {
        known: reading.snapshot,
        baseline: reading.snapshot,
        company: monitoredCompany(company),
        events: [],
      });
      // A scheduled sandbox company still gives the day's event (recorded on the re-read monitor).
      if (!scheduled) continue;
    }
    const emitted = await recordChanges(
      ports,
      monitor,
      (current) => (scheduled ? [scheduled] : companyChanges(current, reading, runId)),
      monitoredCompany(company),
      scheduled !== null,
    );
    events += emitted.length;
  }
  return { number, registryCalls, watchers: watchers.length, events };
}

export interface ShardRunOptions {
  /** Test hook: stop (throw) after this many companies, as a run killed half-way would. */
  crashAfter?: number;
  pageSize?: number;
}

export interface ShardRunOutcome {
  companies: number;
  events: number;
  registryCalls: number;
}

/** Checks every watched company of one shard of the environment. */
export async function runDailyShard(
  ports: DailyCheckPorts,
  environment: Environment,
  shard: number,
  runId: string,
  options: ShardRunOptions = {},
  progress: ShardRunOutcome = { companies: 0, events: 0, registryCalls: 0 },
): Promise<ShardRunOutcome> {
  let after: string | undefined;
  do {
    const page = await ports.monitors.companies(environment, shard, {
      limit: options.pageSize ?? 100,
      ...(after ? { after } : {}),
    });
    for (const number of page.numbers) {
      if (options.crashAfter !== undefined && progress.companies >= options.crashAfter) {
        throw new Error(`daily check stopped after ${progress.companies} companies (test hook)`);
      }
      const outcome = await checkCompany(ports, environment, number, runId);
      progress.companies += 1;
      progress.events += outcome.events;
      progress.registryCalls += outcome.registryCalls;
    }
    after = page.next;
  } while (after);
  return progress;
}

/** The whole run in one process (the local stack; in AWS each shard is a message of the fan-out). */
export async function runDailyCheck(
  ports: DailyCheckPorts,
  environment: Environment,
  runId: string,
  options: ShardRunOptions = {},
): Promise<ShardRunOutcome> {
  const progress: ShardRunOutcome = { companies: 0, events: 0, registryCalls: 0 };
  for (let shard = 0; shard < MONITOR_SHARDS; shard++) {
    await runDailyShard(ports, environment, shard, runId, options, progress);
  }
  return progress;
}
