import { awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { toTimestamp } from '../../../shared/kernel/clock.ts';
import { monitoringQueue } from '../../../shared/monitoring/composition.ts';
import { MONITORING_START } from '../../../shared/monitoring/infra.ts';
import { type MonitoringJob, runMessages } from '../../../shared/monitoring/jobs.ts';
import type { MonitoringQueue } from '../../../shared/monitoring/store-port.ts';
import { instrumented } from '../../../shared/orders/instrumented.ts';

export interface StartPorts {
  queue: MonitoringQueue;
  now(): Date;
}

/**
 * On the schedules (EventBridge Scheduler, input `{"job":"daily"}` or `{"job":"weekly"}`): the
 * run's messages to the fan-out queue, one per shard and environment (daily) or per summary
 * (weekly), each stamped with the run's start (its parts' run-age metric, the late-run alarms). A
 * run started twice sends the same messages, which find nothing left to do.
 */
export const createHandler = (ports: StartPorts) =>
  instrumented<{ job?: string }, { job: MonitoringJob; messages: number }>(
    MONITORING_START.name,
    async (event) => {
      const job: MonitoringJob = event.job === 'weekly' ? 'weekly' : 'daily';
      const now = ports.now();
      const startedAt = toTimestamp(now);
      const messages = runMessages(job, now).map((message) =>
        message.job === 'billing' ? message : { ...message, startedAt },
      );
      await ports.queue.send(messages);
      return { job, messages: messages.length };
    },
    { summary: (result) => result as Record<string, unknown> },
  );

export const handler = createHandler(awsPorts({ queue: monitoringQueue, now }));
