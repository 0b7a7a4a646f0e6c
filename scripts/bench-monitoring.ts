/**
 * Company monitoring at scale, part of `npm run bench` (BENCH_ONLY_MONITORING=1 runs it alone):
 * `BENCH_MONITORS` monitors (default 100,000) over half as many companies (each watched by two
 * accounts) on DynamoDB Local, seeded by the store's own batch import (`createMany`, not HTTP);
 * then the daily check as the fan-out queue runs it (every shard's messages, drained in order),
 * three times: the first records each monitor's baseline, the second finds nothing changed (the
 * steady state), the third finds every company renamed (two events each). Per company: the
 * DynamoDB calls by command and the registry calls (through instrumented ports: the registry is an
 * in-process stand-in answering for any number, so its calls are counted, not timed); events
 * created per second. Then the weekly match of the simulator's 20,000-item summary, bought once:
 * DynamoDB commands by type, at most one indexed read (Query) per item and never a Scan.
 *
 * At the full size the section takes about 26 minutes on this machine
 * (docs/decisions/0069-monitoring-jobs-and-capacity.md has the figures): `BENCH_MONITORS=10000`
 * measures the same per-company figures at a tenth of the size (they do not depend on it: each
 * company is read once through its own partition, and a shard's page through its own).
 */

import { randomBytes } from 'node:crypto';
import { CONSUMER_CONCURRENCY } from '../lib/settings.ts';
import { WEEKLY_CASES } from '../local/generated-weekly-summaries.ts';
import type { LocalStack } from '../local/stack.ts';
import type { CompanyRegistry } from '../shared/companies/registry-port.ts';
import type { Environment } from '../shared/kernel/api-keys.ts';
import { toTimestamp } from '../shared/kernel/clock.ts';
import type { RegistryCompany, RegistryDocument } from '../shared/kernel/registry-port.ts';
import { type RunPorts, runMessage, runMessages } from '../shared/monitoring/jobs.ts';
import { eventTypesOf } from '../shared/monitoring/monitors.ts';
import { runPortsOver } from '../shared/monitoring/run-ports.ts';
import { MONITORING_REGISTRY_CALLS_PER_SECOND } from '../shared/monitoring/settings.ts';
import { hasDocumentList } from '../shared/monitoring/snapshot.ts';
import type { MonitoringMessage, MonitorRecord } from '../shared/monitoring/store-port.ts';
import { runWeeklySummary } from '../shared/monitoring/weekly-job.ts';
import { accountCharges } from '../shared/spend-caps/charges.ts';
import { mondayWeeksAgo } from '../shared/weekly-summaries/weeks.ts';
import { onDynamoCall } from './dynamo-calls.ts';

/** The issue's scale: 100,000 monitors over 50,000 companies. */
const DEFAULT_MONITORS = 100_000;
const WATCHERS_PER_COMPANY = 2;
/** Monitors per account (so that no account's partitions take the whole seeding). */
const MONITORS_PER_ACCOUNT = 5_000;

export const MONITORING_TARGETS = {
  /** Steady state: the shard page (shared by 500) and one watchers query per company. */
  dynamoPerCompany: 1.1,
  /** The lookup, and the document list where the type has one: at most two free reads. */
  registryPerCompany: 2,
  /**
   * Events one consumer must write a second so that writing never holds the run back when every
   * watched company changes: the run reads 12.5 companies a second (25 registry reads, two each),
   * two watchers each, over `CONSUMER_CONCURRENCY.monitoringRun` (4) consumers: 25 / 4.
   */
  eventsPerSecond:
    ((MONITORING_REGISTRY_CALLS_PER_SECOND / 2) * WATCHERS_PER_COMPANY) / CONSUMER_CONCURRENCY.monitoringRun,
  /** The weekly match: at most one indexed read per item. */
  queriesPerItem: 1,
};

const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');

/** A nine-digit number (ACN check digit) from a serial below 29,999,999, apart from the simulator's companies. */
function acnOf(serial: number): string {
  const base = String(70_000_000 + serial);
  const weights = [8, 7, 6, 5, 4, 3, 2, 1];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(base[i]), 0);
  return `${base}${(10 - (sum % 10)) % 10}`;
}

/**
 * The registry for the daily check, answering for any number: proprietary and public companies
 * (both types with a document list, so two reads each: the worst case, and most watched
 * companies). `renamed` turns every name into a new one. Counts its calls by method.
 */
function countingRegistry(state: { renamed: boolean; calls: Record<string, number> }) {
  const count = (method: string) => {
    state.calls[method] = (state.calls[method] ?? 0) + 1;
  };
  const document: RegistryDocument = {
    documentNumber: '0E1234567',
    formCode: '484',
    subForms: [],
    receivedAt: '2026-01-05',
    processedAt: '2026-01-05',
    effectiveAt: null,
    qualifier: null,
    pageCount: 2,
    imaged: true,
    underRequisition: false,
    xbrlDocumentNumber: null,
    status: null,
    priced: false,
  };
  const registry: Pick<CompanyRegistry, 'getCompany' | 'listCompanyDocuments'> = {
    async getCompany(number) {
      count('getCompany');
      const proprietary = Number(number.slice(-2)) % 2 === 0;
      const company: RegistryCompany = {
        number,
        numberType: 'ACN',
        name: `${state.renamed ? 'RENAMED ' : ''}BENCH COMPANY ${number} PTY LTD`,
        type: proprietary ? 'APTY' : 'APUB',
        class: 'LMSH',
        subClass: proprietary ? 'PROP' : 'LISN',
        status: 'REGD',
        abn: null,
        registeredCharity: false,
        registeredAt: '2001-07-01',
        governanceType: null,
        schemeCategories: [],
        deregistration: null,
        formerNames: [],
        chargesExtractPages: 0,
      };
      return company;
    },
    async listCompanyDocuments() {
      count('listCompanyDocuments');
      return [document];
    },
  };
  if (!hasDocumentList('APTY') || !hasDocumentList('APUB')) {
    throw new Error('the bench expects document lists for APTY and APUB: check the code tables');
  }
  return registry;
}

type Counts = Record<string, number>;
let dynamoCounts: Counts | undefined;
async function dynamoCounter(): Promise<() => Counts> {
  if (!dynamoCounts) {
    const counted: Counts = {};
    dynamoCounts = counted;
    await onDynamoCall((command) => {
      counted[command] = (counted[command] ?? 0) + 1;
    });
  }
  const current = dynamoCounts;
  return () => ({ ...current });
}
const since = (before: Counts, after: Counts): Counts =>
  Object.fromEntries(
    Object.entries(after)
      .map(([command, calls]) => [command, calls - (before[command] ?? 0)] as const)
      .filter(([, calls]) => calls > 0),
  );
const total = (counts: Counts) => Object.values(counts).reduce((sum, calls) => sum + calls, 0);
const show = (counts: Counts, per: number) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([command, calls]) => `${command} ${(calls / per).toFixed(2)}`)
    .join(', ');

/** Accounts seeded at once: one (an import is itself 16 writes in flight; more time DynamoDB Local out on a loaded machine). */
const SEED_PARALLEL = 1;

/**
 * Seeds the monitors through the store's batch import: accounts in pairs, each pair watching its
 * own band of companies, so every company has two watchers of two accounts.
 */
async function seed(stack: LocalStack, monitors: number, environment: Environment) {
  const companies = monitors / WATCHERS_PER_COMPANY;
  const perAccount = Math.min(MONITORS_PER_ACCOUNT, companies);
  const accounts = monitors / perAccount;
  const at = toTimestamp(stack.clock.now());
  const started = performance.now();
  let created = 0;
  const seedAccount = async (account: number) => {
    const first = Math.floor(account / WATCHERS_PER_COMPANY) * perAccount;
    const accountId = `acct_bench_mon_${String(account).padStart(4, '0')}`;
    const records: MonitorRecord[] = Array.from({ length: perAccount }, (_, i) => ({
      id: `mon_${randomBytes(12).toString('hex')}`,
      accountId,
      environment,
      kind: 'company',
      subjectKey: acnOf(first + i),
      company: null,
      person: null,
      eventTypes: [...eventTypesOf.company],
      baseline: null,
      known: null,
      sequence: 0,
      version: 1,
      createdAt: at,
      updatedAt: at,
    }));
    const outcomes = await stack.ports.monitors.createMany(records, DEFAULT_MONITORS);
    created += outcomes.filter((outcome) => outcome.created).length;
  };
  for (let account = 0; account < accounts; account += SEED_PARALLEL) {
    await Promise.all(
      Array.from({ length: Math.min(SEED_PARALLEL, accounts - account) }, (_, i) => seedAccount(account + i)),
    );
  }
  return { created, companies, accounts, seconds: (performance.now() - started) / 1000 };
}

/** A whole daily run as the fan-out queue runs it: every message, the next pages included. */
async function dailyRun(ports: RunPorts, now: Date, environment: Environment) {
  const pending: MonitoringMessage[] = runMessages('daily', now).filter(
    (message) => message.job === 'daily' && message.environment === environment,
  );
  const outcome = { messages: 0, companies: 0, events: 0, registryCalls: 0 };
  while (pending.length > 0) {
    const message = pending.shift() as MonitoringMessage;
    outcome.messages += 1;
    const done = await runMessage(
      { ...ports, queue: { send: async (next) => void pending.push(...next) } },
      message,
    );
    outcome.companies += done.companies ?? 0;
    outcome.events += done.events;
    outcome.registryCalls += done.registryCalls ?? 0;
  }
  return outcome;
}

export async function benchMonitoring(stack: LocalStack) {
  const monitors = Number(process.env.BENCH_MONITORS ?? DEFAULT_MONITORS);
  const companies = monitors / WATCHERS_PER_COMPANY;
  if (
    !Number.isInteger(companies) ||
    companies < 1 ||
    (companies > MONITORS_PER_ACCOUNT && companies % MONITORS_PER_ACCOUNT !== 0)
  ) {
    throw new Error(
      `BENCH_MONITORS must be even, and a multiple of ${2 * MONITORS_PER_ACCOUNT} above ${2 * MONITORS_PER_ACCOUNT}; got ${process.env.BENCH_MONITORS}`,
    );
  }
  const environment: Environment = 'live';
  const counter = await dynamoCounter();
  const registryState = { renamed: false, calls: {} as Counts };
  const registry = countingRegistry(registryState);
  const core = stack.ports;
  const ports = runPortsOver(core, {
    queue: { send: async () => {} },
    monitoringSpend: accountCharges(core.spendCaps, core.clock),
    registryFor: () => registry,
  });

  console.log(
    `\nCompany monitoring: ${monitors.toLocaleString('en')} monitors over ${(monitors / WATCHERS_PER_COMPANY).toLocaleString('en')} companies (BENCH_MONITORS; the issue's scale is ${DEFAULT_MONITORS.toLocaleString('en')}, ${((monitors / DEFAULT_MONITORS) * 100).toFixed(0)}% of it), DynamoDB Local`,
  );
  const seeded = await seed(stack, monitors, environment);
  console.log(
    `  seeded ${seeded.created.toLocaleString('en')} monitors of ${seeded.accounts} accounts by batch import in ${seeded.seconds.toFixed(0)} s (${(seeded.created / seeded.seconds).toFixed(0)} a second)`,
  );
  if (seeded.created !== monitors) throw new Error(`seeded ${seeded.created} of ${monitors} monitors`);

  const day = (offset: number) => new Date(core.clock.now().getTime() + offset * 24 * 3600_000);
  const runs: [string, number, boolean][] = [
    ['first check (records each baseline, no event)', 1, false],
    ['steady state (nothing changed)', 2, false],
    ['every company renamed (an event per monitor)', 3, true],
  ];
  let renamedRun: { events: number; seconds: number } | undefined;
  for (const [label, offset, renamed] of runs) {
    registryState.renamed = renamed;
    registryState.calls = {};
    const before = counter();
    const started = performance.now();
    const outcome = await dailyRun(ports, day(offset), environment);
    const seconds = (performance.now() - started) / 1000;
    const dynamo = since(before, counter());
    const perCompany = total(dynamo) / outcome.companies;
    const registryPerCompany = total(registryState.calls) / outcome.companies;
    if (outcome.companies !== seeded.companies) {
      throw new Error(`the run checked ${outcome.companies} companies of ${seeded.companies}`);
    }
    if (dynamo.Scan) throw new Error(`the daily check scanned (${dynamo.Scan} Scan calls)`);
    console.log(
      `  daily check, ${label}: ${outcome.companies.toLocaleString('en')} companies in ${outcome.messages} messages, ${seconds.toFixed(0)} s, ${outcome.events.toLocaleString('en')} events`,
    );
    console.log(
      `         DynamoDB per company: ${perCompany.toFixed(2)} (${show(dynamo, outcome.companies)})`,
    );
    console.log(
      `    ${offset === 2 ? mark(perCompany <= MONITORING_TARGETS.dynamoPerCompany) : '    '} ` +
        `registry per company: ${registryPerCompany.toFixed(2)} (${show(registryState.calls, outcome.companies)})   ` +
        `target ≤ ${MONITORING_TARGETS.registryPerCompany} registry${offset === 2 ? `, ≤ ${MONITORING_TARGETS.dynamoPerCompany} DynamoDB (steady state)` : ''}`,
    );
    if (registryPerCompany > MONITORING_TARGETS.registryPerCompany) {
      throw new Error(`${registryPerCompany} registry calls per company`);
    }
    if (renamed) renamedRun = { events: outcome.events, seconds };
  }
  if (renamedRun) {
    const perSecond = renamedRun.events / renamedRun.seconds;
    console.log(
      `  ${mark(perSecond >= MONITORING_TARGETS.eventsPerSecond)} events created per second: ${perSecond.toFixed(1)} (${renamedRun.events.toLocaleString('en')} in ${renamedRun.seconds.toFixed(0)} s, one consumer: each its monitor's transaction with the event and its feed copies, then its publication, whose local webhook tier's reads are among the DynamoDB calls above)   target ≥ ${MONITORING_TARGETS.eventsPerSecond.toFixed(2)} per consumer (the registry allowance's 12.5 companies a second × 2 watchers ÷ ${CONSUMER_CONCURRENCY.monitoringRun} consumers)`,
    );
    if (renamedRun.events !== monitors)
      throw new Error(`${renamedRun.events} events for ${monitors} monitors`);
  }

  // The weekly match: the simulator's 20,000-item summary, bought once for the platform.
  const now = core.clock.now();
  const weekStarting = mondayWeeksAgo(now, WEEKLY_CASES.largeWeeksAgo);
  const weekly = async () => {
    const before = counter();
    const started = performance.now();
    const outcome = await runWeeklySummary(ports, WEEKLY_CASES.largeType, weekStarting);
    return { outcome, dynamo: since(before, counter()), seconds: (performance.now() - started) / 1000 };
  };
  const bought = await weekly();
  const matched = await weekly();
  for (const [label, run] of [
    ['bought and matched', bought],
    ['matched again (held)', matched],
  ] as const) {
    const queries = run.dynamo.Query ?? 0;
    const perItem = queries / run.outcome.items;
    console.log(
      `  ${mark(perItem <= MONITORING_TARGETS.queriesPerItem && !run.dynamo.Scan)} weekly match, ${WEEKLY_CASES.largeType} ${weekStarting} ${label}: ${run.outcome.items.toLocaleString('en')} items, ${run.outcome.lookups.toLocaleString('en')} watcher lookups, ${run.seconds.toFixed(1)} s; DynamoDB ${show(run.dynamo, 1)}; Query per item ${perItem.toFixed(2)}, Scan ${run.dynamo.Scan ?? 0}   target ≤ ${MONITORING_TARGETS.queriesPerItem} Query per item, no Scan`,
    );
    if (run.dynamo.Scan) throw new Error('the weekly match scanned');
    if (run.outcome.lookups > run.outcome.items) throw new Error('more lookups than items');
  }
  if (bought.outcome.items !== WEEKLY_CASES.largeCount) {
    throw new Error(`the weekly summary had ${bought.outcome.items} items, not ${WEEKLY_CASES.largeCount}`);
  }
}
