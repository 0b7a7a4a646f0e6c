/**
 * Company monitoring on the local stack: the same use cases the monitoring functions run
 * (shared/monitoring/jobs.ts), with the fan-out queue in memory and drained in order. The jobs run
 * on the local clock (`intervalMs`: the daily check once the clock passes 15:00 UTC of a new day,
 * the weekly job once it passes Tuesday 18:00 UTC of a new week) and at once through
 * `POST /__local/monitoring/run` with `{"job":"daily"|"weekly","crashAfter":n}`; `crashAfter`
 * stops the run after n companies (weekly: once n events are written), as a function killed
 * half-way would. An import's chunks (the import route's messages) run in the background as soon
 * as they are sent.
 */
import type { LocalContext } from '../../../local/capability-local.ts';
import { accountCharges } from '../../spend-caps/charges.ts';
import { mondayOf } from '../../weekly-summaries/weeks.ts';
import { dailyRunId } from '../daily-check.ts';
import { DAILY_CHECK_HOUR } from '../infra.ts';
import { lastWeeklyStart, type MonitoringJob, runMessage, runMessages } from '../jobs.ts';
import { runPortsOver } from '../run-ports.ts';
import type { MonitoringMessage, MonitoringQueue } from '../store-port.ts';

export interface LocalRunOutcome {
  job: MonitoringJob;
  messages: number;
  companies: number;
  items: number;
  events: number;
  registryCalls: number;
  /** Set when the run stopped half-way (`crashAfter`, or an error). */
  stopped: string | null;
}

export interface LocalMonitoring {
  port: MonitoringQueue;
  run(job: MonitoringJob, options?: { crashAfter?: number }): Promise<LocalRunOutcome>;
  stop(): Promise<void>;
}

type LocalMonitoringPorts = Pick<
  LocalContext['ports'],
  | 'monitors'
  | 'monitoringRuns'
  | 'registryFor'
  | 'eventLog'
  | 'events'
  | 'heldExtracts'
  | 'extractPurchases'
  | 'purchaseRecords'
  | 'spendCaps'
  | 'clock'
>;

export function startLocalMonitoring(core: LocalMonitoringPorts, intervalMs = 0): LocalMonitoring {
  const pending: MonitoringMessage[] = [];
  // An import's chunks and sandbox events, sent by their routes, run at once in the background, a chunk at a
  // time, as the worker runs them from the queue in AWS (a failed chunk is tried again, up to 3 times).
  const imports: { message: MonitoringMessage; tries: number }[] = [];
  let importing: Promise<void> | undefined;
  const drainImports = async () => {
    while (imports.length > 0) {
      const next = imports.shift() as (typeof imports)[number];
      try {
        await runMessage(ports, next.message);
      } catch (error) {
        if (next.tries < 2) imports.push({ message: next.message, tries: next.tries + 1 });
        else console.error('monitoring import chunk failed', error);
      }
    }
    importing = undefined;
  };
  const port: MonitoringQueue = {
    send: async (messages) => {
      for (const message of messages) {
        if (message.job === 'import' || message.job === 'sandbox') imports.push({ message, tries: 0 });
        else pending.push(message);
      }
      importing ??= new Promise<void>((done) => setImmediate(done)).then(drainImports);
    },
  };
  const ports = runPortsOver(core, {
    queue: port,
    monitoringSpend: accountCharges(core.spendCaps, core.clock),
  });
  let running: Promise<unknown> = Promise.resolve();
  const drain = async (job: MonitoringJob, crashAfter: number | undefined): Promise<LocalRunOutcome> => {
    pending.length = 0;
    pending.push(...runMessages(job, ports.now()));
    const outcome: LocalRunOutcome = {
      job,
      messages: 0,
      companies: 0,
      items: 0,
      events: 0,
      registryCalls: 0,
      stopped: null,
    };
    while (pending.length > 0) {
      const message = pending.shift() as MonitoringMessage;
      outcome.messages += 1;
      const left =
        crashAfter === undefined
          ? undefined
          : crashAfter - (job === 'daily' ? outcome.companies : outcome.events);
      try {
        const done = await runMessage(ports, message, {
          ...(left === undefined ? {} : { crashAfter: Math.max(0, left) }),
          ...(crashAfter === undefined ? {} : { pageSize: 1 }),
        });
        outcome.companies += done.companies ?? 0;
        outcome.items += done.items ?? 0;
        outcome.events += done.events;
        outcome.registryCalls += done.registryCalls ?? 0;
      } catch (error) {
        pending.length = 0;
        outcome.stopped = (error as Error).message;
      }
    }
    return outcome;
  };
  const run = (job: MonitoringJob, options: { crashAfter?: number } = {}) => {
    const result = running.then(() => drain(job, options.crashAfter));
    running = result.catch(() => undefined);
    return result;
  };
  let lastDaily = dailyRunId(ports.now());
  let lastWeekly = mondayOf(ports.now());
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          const now = ports.now();
          const day = dailyRunId(now);
          if (day !== lastDaily && now.getUTCHours() >= DAILY_CHECK_HOUR) {
            lastDaily = day;
            run('daily').catch((error) => console.error('monitoring daily check failed', error));
          }
          const week = mondayOf(now);
          // This week's start has passed (the latest start is in this week).
          if (week !== lastWeekly && mondayOf(lastWeeklyStart(now)) === week) {
            lastWeekly = week;
            run('weekly').catch((error) => console.error('monitoring weekly job failed', error));
          }
        }, intervalMs)
      : undefined;
  timer?.unref();
  return {
    port,
    run,
    stop: async () => {
      if (timer) clearInterval(timer);
      await running;
      await importing;
    },
  };
}
