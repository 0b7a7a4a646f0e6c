/**
 * A CloudWatch metric written as one line in the embedded metric format (EMF): CloudWatch Logs
 * extracts the metric from the function's log, with no client, no API call and nothing to load at
 * start. For the figures the alarms watch that adapters and use cases produce outside a handler's
 * Powertools `Metrics` (registry calls, the sweeper's findings, a capability's own such as the
 * webhook attempts); the names and dimensions are those of `SERVICE_METRICS` or of a capability's
 * `metrics.ts`, which lib/ builds the alarms from.
 *
 * Off where Powertools metrics are off (`POWERTOOLS_METRICS_DISABLED=true`, the local stack).
 */

/** A metric written as a metric line: its name, and the dimensions it is written with. */
export interface MetricSpec {
  readonly name: string;
  readonly dimensions: readonly string[];
  readonly unit?: 'Milliseconds' | 'Seconds';
}

/**
 * The metrics every capability shares, written as metric lines. A capability's own are in its
 * `metrics.ts` (`satisfies Record<string, MetricSpec>`), listed by its capability module.
 */
export const SERVICE_METRICS = {
  /** One per registry call (retries included in the one call), by operation and outcome. */
  registryCalls: { name: 'RegistryCalls', dimensions: ['operation', 'outcome'] },
  /** Per sweep: purchases still unsettled an hour after they were made (money at risk). */
  unsettledPurchases: { name: 'UnsettledPurchasesOverAnHour', dimensions: [] },
  /** Each call to a dependency (DynamoDB, the registry, an AWS service): its latency (dependency-calls.ts). */
  dependencyLatency: { name: 'DependencyLatency', dimensions: ['Dependency'], unit: 'Milliseconds' },
  /** Calls to a dependency that failed (after their retries). */
  dependencyErrors: { name: 'DependencyErrors', dimensions: ['Dependency'] },
} as const satisfies Record<string, MetricSpec>;

/**
 * What a registry call came to: `ok` an answer; `rejected` a registry code (the registry worked and
 * said no: not found, insufficient data…); `maintenance` ZZ51 (a window the registry announced);
 * `failed` anything else (ZZ53, timeout, connection, refused credential, an answer that is not
 * the protocol).
 */
export type RegistryCallOutcome = 'ok' | 'rejected' | 'maintenance' | 'failed';

type DimensionsOf<M extends MetricSpec> = Record<M['dimensions'][number], string>;

export type MetricSink = (line: string) => void;

/** In Lambda, stdout (elsewhere, such as tests and scripts, nowhere unless a sink is set). */
const lambdaStdout: MetricSink = (line) => {
  if (process.env.AWS_LAMBDA_FUNCTION_NAME === undefined) return;
  // Not console.log: Lambda prefixes its lines (time, request id, level), and CloudWatch only
  // extracts metrics from a log event that is one JSON object.
  process.stdout.write(`${line}\n`);
};
let sink: MetricSink = lambdaStdout;

/** Where metric lines go (tests capture them); `undefined` restores the default. */
export function setMetricSink(next: MetricSink | undefined): void {
  sink = next ?? lambdaStdout;
}

export const metricsNamespace = (): string => process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'CompanyRegister';

/**
 * Writes `value` of `metric` (or several values, at most 100, as EMF allows in one line). A metric with several dimensions is written under all of them and
 * under the last one alone, so an alarm can read the service-wide figure (every registry call by
 * outcome) without a search expression, which alarms cannot use.
 */
export function putMetric<M extends MetricSpec>(
  metric: M,
  dimensions: DimensionsOf<M>,
  value: number | readonly number[] = 1,
  now: Date = new Date(),
): void {
  // A sink a caller set (tests) gets every line; the default one follows Powertools' switch.
  if (sink === lambdaStdout && process.env.POWERTOOLS_METRICS_DISABLED === 'true') return;
  const names: readonly string[] = metric.dimensions;
  const dimensionSets = names.length > 1 ? [[...names], names.slice(-1)] : [[...names]];
  sink(
    JSON.stringify({
      _aws: {
        Timestamp: now.getTime(),
        CloudWatchMetrics: [
          {
            Namespace: metricsNamespace(),
            Dimensions: dimensionSets,
            Metrics: [{ Name: metric.name, Unit: metric.unit ?? 'Count' }],
          },
        ],
      },
      ...dimensions,
      [metric.name]: value,
    }),
  );
}
