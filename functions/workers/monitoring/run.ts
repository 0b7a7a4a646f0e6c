import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { eventLog } from '../../../shared/composition/aws/event-log.ts';
import { events } from '../../../shared/composition/aws/events.ts';
import { registryFor } from '../../../shared/composition/aws/registry.ts';
import { awsPorts, type Factory, now } from '../../../shared/composition/aws/root.ts';
import { extractPurchases, heldExtracts, purchaseRecords } from '../../../shared/extracts/composition.ts';
import { putMetric } from '../../../shared/kernel/metric-line.ts';
import { monitoringQueue, monitoringRuns, monitors } from '../../../shared/monitoring/composition.ts';
import { MONITORING_RUN } from '../../../shared/monitoring/infra.ts';
import { parseMonitoringMessage, type RunPorts, runMessage } from '../../../shared/monitoring/jobs.ts';
import { MONITORING_METRICS } from '../../../shared/monitoring/metrics.ts';
import { instrumented } from '../../../shared/orders/instrumented.ts';
import { monitoringSpend } from '../../../shared/spend-caps/composition.ts';

/**
 * The fan-out queue's consumer: a page of a shard of the daily check, one weekly summary, or a
 * billing day. One message at a time (batch size 1): the registry's capacity is shared out by the
 * function's reserved concurrency. A message that fails is retried by SQS, then goes to the DLQ.
 * Each message writes its events and the subjects it checked; a part that finishes writes
 * `MonitoringPartsFinished` and its run's age, which the missed- and late-run alarms watch; the
 * daily billing message writes how many summaries of the weekly run due by then are unmatched.
 */
export function createHandler(ports: RunPorts) {
  const processor = new BatchProcessor(EventType.SQS);
  const handle = async (record: SQSRecord) => {
    const message = parseMonitoringMessage(record.body);
    const outcome = await runMessage(ports, message);
    const job = { job: outcome.job };
    putMetric(MONITORING_METRICS.monitoringEvents, job, outcome.events);
    const checked = outcome.companies ?? outcome.items;
    if (checked !== undefined) putMetric(MONITORING_METRICS.monitoringChecked, job, checked);
    if (outcome.weeklyOverdue != null)
      putMetric(MONITORING_METRICS.monitoringWeeklyOverdue, {}, outcome.weeklyOverdue);
    if (!outcome.finished) return;
    putMetric(MONITORING_METRICS.monitoringParts, job);
    const startedAt = message.job === 'daily' || message.job === 'weekly' ? message.startedAt : undefined;
    if (startedAt !== undefined) {
      const seconds = Math.max(0, Math.round((ports.now().getTime() - Date.parse(startedAt)) / 1000));
      putMetric(MONITORING_METRICS.monitoringRunAge, job, seconds);
    }
  };
  return instrumented(
    MONITORING_RUN.name,
    (event: SQSEvent, context) => processPartialResponse(event, handle, processor, { context }),
    { keysOf: (event) => ({ messages: String(event.Records.length) }) },
  );
}

const registry: Factory<RunPorts['registry']> = (root) => registryFor(root)('live');

export const handler = createHandler(
  awsPorts({
    monitors,
    runs: monitoringRuns,
    queue: monitoringQueue,
    registryFor,
    registry,
    eventLog,
    events,
    heldExtracts,
    extractPurchases,
    purchaseRecords,
    monitoringSpend,
    now,
  }),
);
