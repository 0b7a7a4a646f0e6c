/**
 * Company monitoring on the local stack: the same use cases the monitoring functions run
 * (shared/monitoring/jobs.ts), with the fan-out queue in memory and drained in order. The jobs run
 * on the local clock (`intervalMs`: the daily check once the clock passes 15:00 UTC of a new day,
 * the weekly job once it passes Tuesday 18:00 UTC of a new week) and at once through
 * `POST /__local/monitoring/run` with `{"job":"daily"|"weekly","crashAfter":n}`; `crashAfter`
 * stops the run after n companies (weekly: once n events are written), as a function killed
 * half-way would.
 */
import type { AppPorts } from '../shared/app/ports.ts';
import { dailyRunId } from '../shared/monitoring/daily-check.ts';
import { type MonitoringJob, type RunPorts, runMessage, runMessages } from '../shared/monitoring/jobs.ts';
import type { MonitoringMessage, MonitoringQueue } from '../shared/monitoring/store-port.ts';
import { mondayOf } from '../shared/weekly-summaries/weeks.ts';

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
  AppPorts,
  | 'monitors'
  | 'monitoringRuns'
  | 'registryFor'
  | 'eventLog'
  | 'events'
  | 'heldExtracts'
  | 'extractPurchases'
  | 'purchaseRecords'
  | 'clock'
>;

export function startLocalMonitoring(core: LocalMonitoringPorts, intervalMs = 0): LocalMonitoring {
  const pending: MonitoringMessage[] = [];
  const port: MonitoringQueue = {
    send: async (messages) => {
      pending.push(...messages);
    },
  };
  const ports: RunPorts = {
    monitors: core.monitors,
    runs: core.monitoringRuns,
    queue: port,
    registryFor: core.registryFor,
    registry: core.registryFor('live'),
    eventLog: core.eventLog,
    events: core.events,
    heldExtracts: core.heldExtracts,
    extractPurchases: core.extractPurchases,
    purchaseRecords: core.purchaseRecords,
    now: () => core.clock.now(),
  };
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
          if (day !== lastDaily && now.getUTCHours() >= 15) {
            lastDaily = day;
            run('daily').catch((error) => console.error('monitoring daily check failed', error));
          }
          const week = mondayOf(now);
          if (
            week !== lastWeekly &&
            (now.getUTCDay() > 2 || (now.getUTCDay() === 2 && now.getUTCHours() >= 18))
          ) {
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
    },
  };
}
