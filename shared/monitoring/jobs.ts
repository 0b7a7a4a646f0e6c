/**
 * The monitoring jobs as the schedules start them and the fan-out queue runs them: a daily run is
 * one message per shard and environment, a weekly run one message per summary type. A shard is
 * checked a page of companies per message, and the message for the next page is sent before this
 * one is acknowledged, so a shard of any size fits the function's time limit and a message that
 * fails is retried by SQS (then its DLQ) from where it was.
 */

import type { Environment } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import type { FeeEntry } from '../kernel/ports/fee-ledger.ts';
import { recordedPrice } from '../kernel/prices.ts';
import { monitoringEventTypes } from '../webhooks/event-types.ts';
import { isWeeklySummaryType } from '../weekly-summaries/registry-port.ts';
import { mondayWeeksAgo } from '../weekly-summaries/weeks.ts';
import { checkCompany, type DailyCheckPorts, dailyRunId } from './daily-check.ts';
import { runImportMessage } from './import.ts';
import { WEEKLY_JOB_START } from './infra.ts';
import { recordSandboxEvent } from './sandbox.ts';
import { MONITORING_PRODUCT } from './settings.ts';
import {
  MONITOR_SHARDS,
  type MonitoringMessage,
  type MonitoringQueue,
  type MonitoringRuns,
} from './store-port.ts';
import { MONITORED_SUMMARIES, runWeeklySummary, type WeeklyJobPorts } from './weekly-job.ts';

export const MONITORING_ENVIRONMENTS: readonly Environment[] = ['live', 'test'];

/** Companies one daily message checks before it hands the rest of its shard to the next message. */
export const COMPANIES_PER_MESSAGE = 500;

export type MonitoringJob = 'daily' | 'weekly';

/** A weekly run's id: the week it matches (the week before the one it starts in). */
const weeklyRunId = (start: Date) => mondayWeeksAgo(start, 1);

/** The messages that start a run of `job` at `now`. */
export function runMessages(job: MonitoringJob, now: Date): MonitoringMessage[] {
  if (job === 'daily') {
    const runId = dailyRunId(now);
    return [
      ...MONITORING_ENVIRONMENTS.flatMap((environment) =>
        Array.from({ length: MONITOR_SHARDS }, (_, shard) => ({
          job: 'daily' as const,
          environment,
          shard,
          runId,
        })),
      ),
      // Then the day's usage, once (its key is the day).
      { job: 'billing' as const, day: runId },
    ];
  }
  const weekStarting = weeklyRunId(now);
  return MONITORED_SUMMARIES.map((type) => ({
    job: 'weekly' as const,
    type,
    weekStarting,
    runId: weekStarting,
  }));
}

/**
 * Counts a day's monitoring charge in the account's spend caps once it is on the ledger (composed
 * with shared/spend-caps/charges.ts): never refused, counted once however often the day is billed.
 */
export interface MonitoringSpend {
  count(entry: FeeEntry): Promise<void>;
}

export interface RunPorts extends DailyCheckPorts, WeeklyJobPorts {
  queue: MonitoringQueue;
  runs: MonitoringRuns;
  monitoringSpend: MonitoringSpend;
}

export function parseMonitoringMessage(body: string): MonitoringMessage {
  const message = JSON.parse(body) as MonitoringMessage;
  if (
    message.job === 'daily' &&
    Number.isInteger(message.shard) &&
    message.shard >= 0 &&
    message.shard < MONITOR_SHARDS
  ) {
    return message;
  }
  if (message.job === 'weekly' && isWeeklySummaryType(message.type)) return message;
  if (message.job === 'billing' && typeof message.day === 'string') return message;
  if (
    message.job === 'sandbox' &&
    typeof message.monitorId === 'string' &&
    (monitoringEventTypes as readonly string[]).includes(message.type) &&
    typeof message.key === 'string'
  ) {
    return message;
  }
  if (
    message.job === 'import' &&
    typeof message.importId === 'string' &&
    Number.isInteger(message.chunk) &&
    message.chunk >= 0
  ) {
    return message;
  }
  throw new Error(`not a monitoring message: ${body.slice(0, 200)}`);
}

/** Hours after the weekly job's start by which each of its summaries should have been matched. */
export const WEEKLY_RUN_DUE_HOURS = 12;

const HOUR_MS = 3_600_000;

/** The weekly job's latest scheduled start at or before `now` (Tuesday 18:00 UTC). */
export function lastWeeklyStart(now: Date): Date {
  const start = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), WEEKLY_JOB_START.hour),
  );
  start.setUTCDate(start.getUTCDate() - ((now.getUTCDay() - WEEKLY_JOB_START.weekday + 7) % 7));
  if (start.getTime() > now.getTime()) start.setUTCDate(start.getUTCDate() - 7);
  return start;
}

/** The part the billing message records for its day: proof that the daily job ran that day. */
const BILLING_PART = 'usage';

/**
 * Summaries of the weekly run that should be finished by `now` (started at least
 * `WEEKLY_RUN_DUE_HOURS` ago) that no part has matched yet: what the weekly missed-run alarm
 * reads, from the daily job. `null` when the daily job did not run on that run's day either (a
 * stage deployed since, or one whose daily run is missing too, which its own alarm reports):
 * nothing could be said to be missed.
 */
export async function overdueWeeklySummaries(runs: MonitoringRuns, now: Date): Promise<number | null> {
  const start = lastWeeklyStart(new Date(now.getTime() - WEEKLY_RUN_DUE_HOURS * HOUR_MS));
  if (!(await runs.isDone('billing', dailyRunId(start), BILLING_PART))) return null;
  const runId = weeklyRunId(start);
  let overdue = 0;
  for (const type of MONITORED_SUMMARIES) {
    if (!(await runs.isDone('weekly', runId, type))) overdue += 1;
  }
  return overdue;
}

export interface MessageOutcome {
  job: string;
  companies?: number;
  /** Weekly: the summary's items read. */
  items?: number;
  events: number;
  registryCalls?: number;
  /** Billing: summaries of the weekly run due by now not matched yet (`overdueWeeklySummaries`). */
  weeklyOverdue?: number | null;
  finished: boolean;
}

/** Runs one message; `crashAfter` (tests) stops it half-way as a killed function would. */
export async function runMessage(
  ports: RunPorts,
  message: MonitoringMessage,
  options: { crashAfter?: number; pageSize?: number } = {},
): Promise<MessageOutcome> {
  if (message.job === 'daily') {
    const page = await ports.monitors.companies(message.environment, message.shard, {
      limit: options.pageSize ?? COMPANIES_PER_MESSAGE,
      ...(message.after ? { after: message.after } : {}),
    });
    let events = 0;
    let registryCalls = 0;
    let companies = 0;
    for (const number of page.numbers) {
      if (options.crashAfter !== undefined && companies >= options.crashAfter) {
        throw new Error(`daily check stopped after ${companies} companies (test hook)`);
      }
      const outcome = await checkCompany(ports, message.environment, number, message.runId);
      companies += 1;
      events += outcome.events;
      registryCalls += outcome.registryCalls;
    }
    if (page.next) {
      await ports.queue.send([{ ...message, after: page.next }]);
      return { job: 'daily', companies, events, registryCalls, finished: false };
    }
    await ports.runs.finishPart(
      'daily',
      message.runId,
      `${message.environment}#${message.shard}`,
      toTimestamp(ports.now()),
    );
    return { job: 'daily', companies, events, registryCalls, finished: true };
  }
  if (message.job === 'weekly') {
    if (!isWeeklySummaryType(message.type)) throw new Error(`unknown summary type ${message.type}`);
    const outcome = await runWeeklySummary(ports, message.type, message.weekStarting, options);
    await ports.runs.finishPart('weekly', message.runId, message.type, toTimestamp(ports.now()));
    return { job: 'weekly', items: outcome.items, events: outcome.events, finished: true };
  }
  if (message.job === 'sandbox') {
    const events = await recordSandboxEvent(ports, message);
    return { job: 'sandbox', events, finished: true };
  }
  if (message.job === 'import') {
    const outcome = await runImportMessage(ports.monitors, message, toTimestamp(ports.now()), options);
    return { job: 'import', events: 0, items: outcome.created, finished: true };
  }
  const recorded = await recordDailyUsage(ports, message.day);
  const now = ports.now();
  await ports.runs.finishPart('billing', message.day, BILLING_PART, toTimestamp(now));
  const weeklyOverdue = await overdueWeeklySummaries(ports.runs, now);
  return { job: 'billing', events: 0, items: recorded, weeklyOverdue, finished: true };
}

/**
 * A day of monitoring on each account's usage ledger: one entry per account and environment, its
 * quantity the monitors held when the day's run started it (monitor-days), product `monitoring`,
 * no registry fee code; billable for live keys only. Written once per day (its key is the day),
 * then counted in the account's spend caps (`monitoringSpend`), on a re-run of the day too, where
 * a run that stopped in between left it uncounted.
 */
export async function recordDailyUsage(
  ports: Pick<RunPorts, 'monitors' | 'monitoringSpend'>,
  day: string,
): Promise<number> {
  let recorded = 0;
  for (const environment of MONITORING_ENVIRONMENTS) {
    for (let shard = 0; shard < MONITOR_SHARDS; shard++) {
      for (const account of await ports.monitors.accounts(environment, shard)) {
        const entry: FeeEntry = {
          accountId: account.accountId,
          environment,
          at: `${day}T00:00:00Z`,
          product: MONITORING_PRODUCT,
          feeCode: null,
          quantity: account.monitors,
          billable: environment === 'live',
          ...recordedPrice(MONITORING_PRODUCT, null, `${day}T00:00:00Z`),
          clientReference: null,
          requestId: `mon_usage_${day}`,
          resourceId: `monitoring_${day}`,
        };
        if (await ports.monitors.recordUsage(entry)) recorded += 1;
        await ports.monitoringSpend.count(entry);
      }
    }
  }
  return recorded;
}
