import { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Stats,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { SERVICE_METRICS } from '../shared/kernel/metric-line.ts';
import { monitoringMetric, weeklyOverdueMetric } from '../shared/monitoring/cdk/jobs.ts';
import { periodOf, registryFailureRate, serviceMetric, webhookFailureRate } from './alarms.ts';
import { POWERTOOLS_ENVIRONMENT } from './constructs/api-function.ts';
import {
  type ApiMetricNames,
  apiGatewayMetric,
  latencyGroups,
  serverErrorRate,
  slowestP99,
  unsettledPurchases,
} from './monitoring-stack.ts';
import type { RouteArea } from './routes.ts';

/** The most alarms one alarm status widget shows (CloudWatch's limit). */
const MAX_STATUS_ALARMS = 100;
const FULL_WIDTH = 24;
const HALF_WIDTH = 12;

export interface StageDashboardProps {
  readonly stage: string;
  readonly api: ApiMetricNames;
  readonly areas: readonly RouteArea[];
  /** Functions by area name (routes) and by tier (`Fulfilment workers`, `Webhook workers`), each by its name. */
  readonly functions: ReadonlyMap<string, ReadonlyMap<string, IFunction>>;
  readonly stateMachine: StateMachine;
  /** Work queues (`queue`) and the dead-letter queues (`deadLetters`) to graph. */
  readonly queues: readonly { readonly name: string; readonly queue?: Queue; readonly deadLetters: Queue }[];
  /** The alarms the status widget shows (the stage-wide ones; per-function alarms are graphed). */
  readonly alarms: readonly Alarm[];
}

const graph = (title: string, left: IMetric[], width = HALF_WIDTH, right: IMetric[] = []): GraphWidget =>
  new GraphWidget({ title, left, right, width, height: 6 });

/**
 * The stage's dashboard (`company-register-<stage>`): the state of its alarms, then the figures they
 * watch: API traffic, 5xx share and p99 latency by area, each area's and tier's function errors and
 * throttles, the workflow, the queues, the registry, the webhooks and the money at risk. Built
 * from the route areas and the tiers' functions, so a new route or area appears without an edit.
 */
export function stageDashboard(scope: Construct, props: StageDashboardProps): Dashboard {
  const dashboard = new Dashboard(scope, 'Dashboard', { dashboardName: `company-register-${props.stage}` });
  dashboard.addWidgets(
    new TextWidget({
      markdown: `# Company Register Data Service (${props.stage})\nWhat each alarm means and what to do: docs/operations.md.`,
      width: FULL_WIDTH,
      height: 2,
    }),
  );
  dashboard.addWidgets(
    new AlarmStatusWidget({
      title: 'Alarms',
      alarms: props.alarms.slice(0, MAX_STATUS_ALARMS),
      width: FULL_WIDTH,
      height: 6,
    }),
  );

  const requests = apiGatewayMetric(props.api, 'Count', Stats.SUM, 'apiServerErrorRate');
  dashboard.addWidgets(
    graph('API requests and 5xx share', [requests], HALF_WIDTH, [serverErrorRate(props.api)]),
    graph(
      'p99 latency by area (ms, slowest route)',
      props.areas.flatMap((area) => latencyGroups(area).map((group) => slowestP99(props.api, group))),
    ),
  );

  const functionWidgets = [...props.functions].map(([group, functions]) =>
    graph(
      `${group}: function errors and throttles`,
      [...functions].map(([name, fn]) =>
        fn.metricErrors({
          label: `${name} errors`,
          period: periodOf('functionErrors'),
          statistic: Stats.SUM,
        }),
      ),
      HALF_WIDTH,
      [...functions].map(([name, fn]) =>
        fn.metricThrottles({
          label: `${name} throttles`,
          period: periodOf('functionThrottles'),
          statistic: Stats.SUM,
        }),
      ),
    ),
  );
  for (let index = 0; index < functionWidgets.length; index += 2) {
    dashboard.addWidgets(...functionWidgets.slice(index, index + 2));
  }

  const period = periodOf('workflowFailures');
  dashboard.addWidgets(
    graph('Fulfilment executions', [
      props.stateMachine.metricStarted({ period, statistic: Stats.SUM }),
      props.stateMachine.metricSucceeded({ period, statistic: Stats.SUM }),
      props.stateMachine.metricFailed({ period, statistic: Stats.SUM }),
    ]),
    graph(
      'Queues: oldest message (s) and dead letters',
      props.queues.flatMap(({ name, queue }) =>
        (queue ? [queue] : []).map((queue) =>
          queue.metricApproximateAgeOfOldestMessage({
            label: `${name} oldest (s)`,
            period: periodOf('queueAgeSeconds'),
            statistic: Stats.MAXIMUM,
          }),
        ),
      ),
      HALF_WIDTH,
      props.queues.map(({ name, deadLetters }) =>
        deadLetters.metricApproximateNumberOfMessagesVisible({
          label: `${name} dead letters`,
          period: periodOf('deadLetters'),
          statistic: Stats.MAXIMUM,
        }),
      ),
    ),
  );

  const byOutcome = (name: string, outcomes: readonly string[], rate: MathExpression) =>
    graph(
      `${name} by outcome, and failed share`,
      outcomes.map((outcome) => serviceMetric(name, { outcome }, rate.period).with({ label: outcome })),
      HALF_WIDTH,
      [rate],
    );
  dashboard.addWidgets(
    byOutcome(
      SERVICE_METRICS.registryCalls.name,
      ['ok', 'rejected', 'maintenance', 'failed'],
      registryFailureRate(),
    ),
    byOutcome(SERVICE_METRICS.webhookAttempts.name, ['succeeded', 'failed'], webhookFailureRate()),
  );
  dashboard.addWidgets(
    graph('Dependency latency p99 (ms), by dependency', [dependencySearch('dependencyLatency', 'p99')]),
    graph('Dependency calls failed, by dependency', [dependencySearch('dependencyErrors', 'Sum')]),
  );
  dashboard.addWidgets(
    graph('Purchases unsettled for over an hour (money at risk)', [unsettledPurchases()], FULL_WIDTH),
  );

  // Company monitoring's runs (docs/monitoring.md): what each job checked and emitted per hour,
  // how long its parts took from the run's start, and its fan-out queue's dead letters.
  const hour = Duration.hours(1);
  const monitoringQueue = props.queues.find((queue) => queue.name === 'Monitoring');
  dashboard.addWidgets(
    new TextWidget({
      markdown:
        '## Company monitoring\nThe daily check (15:00 UTC) and the weekly job (Tuesdays 18:00 UTC); runbook: docs/operations.md.',
      width: FULL_WIDTH,
      height: 2,
    }),
  );
  dashboard.addWidgets(
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
        monitoringMetric('monitoringRunAge', 'weekly', hour, Stats.MAXIMUM).with({ label: 'weekly run (s)' }),
      ],
      HALF_WIDTH,
      [
        monitoringMetric('monitoringParts', 'daily', hour).with({ label: 'daily shards finished' }),
        monitoringMetric('monitoringParts', 'weekly', hour).with({ label: 'weekly summaries finished' }),
        weeklyOverdueMetric(hour).with({ label: 'weekly summaries overdue (read daily)' }),
        ...(monitoringQueue
          ? [
              monitoringQueue.deadLetters.metricApproximateNumberOfMessagesVisible({
                label: 'Monitoring dead letters',
                period: periodOf('deadLetters'),
                statistic: Stats.MAXIMUM,
              }),
            ]
          : []),
      ],
    ),
  );
  return dashboard;
}

/**
 * One line per dependency the functions have called (DynamoDB, Registry, S3, SQS…): a search, so
 * a dependency appears on the graph as soon as a function records a call to it.
 */
const dependencySearch = (metric: 'dependencyLatency' | 'dependencyErrors', statistic: string) =>
  new MathExpression({
    expression: `SEARCH('{${POWERTOOLS_ENVIRONMENT.POWERTOOLS_METRICS_NAMESPACE},Dependency} MetricName="${SERVICE_METRICS[metric].name}"', '${statistic}', 300)`,
    usingMetrics: {},
    period: Duration.minutes(5),
    label: '',
  });
