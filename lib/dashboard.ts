import { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  type IWidget,
  MathExpression,
  Stats,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { SERVICE_METRICS } from '../shared/kernel/metric-line.ts';
import { periodOf, registryFailureRate, serviceMetric } from './alarms.ts';
import type { DashboardQueue } from './capability-construct.ts';
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
export const FULL_WIDTH = 24;
export const HALF_WIDTH = 12;

export interface StageDashboardProps {
  readonly stage: string;
  readonly api: ApiMetricNames;
  readonly areas: readonly RouteArea[];
  /** Functions by area name (routes) and by tier (`Fulfilment workers`, `Webhook workers`), each by its name. */
  readonly functions: ReadonlyMap<string, ReadonlyMap<string, IFunction>>;
  /** Work queues (`queue`) and the dead-letter queues (`deadLetters`) to graph. */
  readonly queues: readonly DashboardQueue[];
  /** The capabilities' own rows (lib/capability-constructs.ts), after the stage's. */
  readonly rows: readonly (readonly IWidget[])[];
  /** The alarms the status widget shows (the stage-wide ones; per-function alarms are graphed). */
  readonly alarms: readonly Alarm[];
}

/** A graph of the dashboard's height: half the width unless told. */
export const graph = (
  title: string,
  left: IMetric[],
  width = HALF_WIDTH,
  right: IMetric[] = [],
): GraphWidget => new GraphWidget({ title, left, right, width, height: 6 });

/**
 * The stage's dashboard (`company-register-<stage>`): the state of its alarms, then the figures they
 * watch: API traffic, 5xx share and p99 latency by area, each area's and tier's function errors and
 * throttles, the queues, the registry and the money at risk, then each capability's own rows (the
 * workflow, the webhooks, company monitoring's runs). Built from the route areas and what the
 * capabilities' constructs give, so a new route, area or capability appears without an edit.
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

  const registryCalls = byOutcome(
    SERVICE_METRICS.registryCalls.name,
    ['ok', 'rejected', 'maintenance', 'failed'],
    registryFailureRate(),
  );
  dashboard.addWidgets(
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
    registryCalls,
  );

  dashboard.addWidgets(
    graph('Dependency latency p99 (ms), by dependency', [dependencySearch('dependencyLatency', 'p99')]),
    graph('Dependency calls failed, by dependency', [dependencySearch('dependencyErrors', 'Sum')]),
  );
  dashboard.addWidgets(
    graph('Purchases unsettled for over an hour (money at risk)', [unsettledPurchases()], FULL_WIDTH),
  );

  for (const row of props.rows) dashboard.addWidgets(...row);
  return dashboard;
}

/** A counted metric by outcome, and its failed share on the right axis. */
export const byOutcome = (name: string, outcomes: readonly string[], rate: MathExpression): GraphWidget =>
  graph(
    `${name} by outcome, and failed share`,
    outcomes.map((outcome) => serviceMetric(name, { outcome }, rate.period).with({ label: outcome })),
    HALF_WIDTH,
    [rate],
  );

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
