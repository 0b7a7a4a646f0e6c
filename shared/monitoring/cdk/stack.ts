/**
 * Company monitoring in the stage's API stack (lib/capability-constructs.ts): its jobs in a nested
 * stack of their own (two functions, two schedules, queues and their alarms: the API stack's
 * template keeps its room for the REST API's path resources), its queues' URLs as the stack's
 * outputs, and
 * its runs on the dashboard.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import { Stats, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { periodOf } from '../../../lib/alarms.ts';
import { defineCapabilityConstructs, sharedResource } from '../../../lib/capability-construct.ts';
import { LiveAliases } from '../../../lib/constructs/live-alias.ts';
import { workerScopeOf } from '../../../lib/constructs/worker-function.ts';
import { FULL_WIDTH, graph, HALF_WIDTH } from '../../../lib/dashboard.ts';
import { MONITORING_ENV } from '../infra.ts';
import { MONITORING_ALARM_THRESHOLDS } from './alarms.ts';
import { CompanyMonitoring, monitoringMetric, weeklyOverdueMetric } from './jobs.ts';

declare module '../../../lib/capability-construct.ts' {
  interface SharedResources {
    /** Company monitoring's fan-out queue (`uses: monitoringQueue`: a committed import's chunks, a sandbox event). */
    readonly monitoringQueue: IQueue;
  }
}

export default defineCapabilityConstructs({
  after: ['orders'],
  alarmThresholds: MONITORING_ALARM_THRESHOLDS,
  routeBindings: {
    uses: {
      monitoringQueue: (fn, { shared }) =>
        fn.bindQueueSender(sharedResource(shared, 'monitoringQueue'), MONITORING_ENV.queueUrl),
    },
  },
  // RunMonitoring.
  registryCallers: { scheduled: 1 },
  build: (scope) => {
    const { settings, stack } = scope;
    const nested = new NestedStack(stack, 'CompanyMonitoring', {
      description: `Company Register Data Service: company monitoring's jobs (${settings.stage})`,
    });
    const monitoring = new CompanyMonitoring(nested, 'Jobs', {
      ...workerScopeOf(scope),
      mainTable: scope.tables.main,
      eventBus: sharedResource(scope.shared, 'eventBus'),
      registryUrl: settings.registryUrl,
      registryCredentialSecret: scope.registryCredentialSecret,
      alarms: scope.stageAlarms.in(nested),
      failedEvents: scope.failedEvents,
      // Its aliases in its own nested stack, beside its functions and their alarms.
      liveAliases: LiveAliases.in(nested, 'MonitoringJobs', {
        stage: settings.stage,
        strategy: settings.deployment,
        alarmTopic: scope.stageAlarms.topic,
      }),
    });
    return {
      construct: monitoring,
      shares: { monitoringQueue: monitoring.queue },
      functions: [['Company monitoring', monitoring.functions]],
      queues: [{ name: 'Monitoring', queue: monitoring.queue, deadLetters: monitoring.deadLetterQueue }],
      alarmScopes: [nested],
      outputs: {
        MonitoringQueueUrl: monitoring.queue.queueUrl,
        MonitoringDeadLetterQueueUrl: monitoring.deadLetterQueue.queueUrl,
      },
      dashboardRows: runRows(monitoring),
    };
  },
});

/**
 * Its runs (docs/monitoring.md): what each job checked and emitted per hour, how long its parts
 * took from the run's start, and its fan-out queue's dead letters.
 */
function runRows(monitoring: CompanyMonitoring) {
  const hour = Duration.hours(1);
  return [
    [
      new TextWidget({
        markdown:
          '## Company monitoring\nThe daily check (15:00 UTC) and the weekly job (Tuesdays 18:00 UTC); runbook: docs/operations.md.',
        width: FULL_WIDTH,
        height: 2,
      }),
    ],
    [
      graph(
        'Monitoring: companies checked (daily), summary items matched (weekly), per hour',
        [
          monitoringMetric('monitoringChecked', 'daily', hour).with({ label: 'companies checked (daily)' }),
          monitoringMetric('monitoringChecked', 'weekly', hour).with({ label: 'summary items (weekly)' }),
        ],
        HALF_WIDTH,
        [
          monitoringMetric('monitoringEvents', 'daily', hour).with({ label: 'events (daily)' }),
          monitoringMetric('monitoringEvents', 'weekly', hour).with({ label: 'events (weekly)' }),
        ],
      ),
      graph(
        'Monitoring: run duration (s from start to a part finished), parts finished, overdue, dead letters',
        [
          monitoringMetric('monitoringRunAge', 'daily', hour, Stats.MAXIMUM).with({ label: 'daily run (s)' }),
          monitoringMetric('monitoringRunAge', 'weekly', hour, Stats.MAXIMUM).with({
            label: 'weekly run (s)',
          }),
        ],
        HALF_WIDTH,
        [
          monitoringMetric('monitoringParts', 'daily', hour).with({ label: 'daily shards finished' }),
          monitoringMetric('monitoringParts', 'weekly', hour).with({ label: 'weekly summaries finished' }),
          weeklyOverdueMetric(hour).with({ label: 'weekly summaries overdue (read daily)' }),
          monitoring.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            label: 'Monitoring dead letters',
            period: periodOf('deadLetters'),
            statistic: Stats.MAXIMUM,
          }),
        ],
      ),
    ],
  ];
}
