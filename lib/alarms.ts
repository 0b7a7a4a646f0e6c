/**
 * Every alarm of a stage: one SNS topic, and each alarm's threshold a named entry of
 * `ALARM_THRESHOLDS` with the reason for its value. docs/operations.md says what each alarm means
 * and what to do; its alarm table is checked against these names by a test.
 */
import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { AlarmThreshold, CapabilityAlarm } from '../shared/kernel/capability.ts';
import { ROUTE_METRICS } from '../shared/kernel/infra/route-metrics.ts';
import { SERVICE_METRICS } from '../shared/kernel/metric-line.ts';
import { POWERTOOLS_ENVIRONMENT } from './constructs/api-function.ts';

export const ALARM_THRESHOLDS = {
  apiServerErrorRate: {
    value: 0.05,
    periodMinutes: 5,
    periods: 3,
    reason:
      'Share of API requests answered 5xx. The registry maintenance windows answer 503 registry_unavailable ' +
      'by design (spec 4.7), so a few percent for a while is expected; 5% for 15 minutes is not.',
  },
  localRouteLatencyP99: {
    value: 3_000,
    periodMinutes: 5,
    periods: 3,
    reason:
      'p99 in ms of routes that answer from our own tables: they take tens of milliseconds, so seconds ' +
      'for 15 minutes means DynamoDB throttling, cold starts at scale or a regression.',
  },
  registryRouteLatencyP99: {
    value: 15_000,
    periodMinutes: 5,
    periods: 3,
    reason:
      'p99 in ms of routes that call the registry: a lookup may take 5 s and a purchase 25 s at the ' +
      'registry (the 29 s gateway timeout caps both); 15 s for 15 minutes means the registry is slowing.',
  },
  functionErrors: {
    value: 5,
    periodMinutes: 5,
    periods: 1,
    reason:
      'Invocations that crashed or timed out in 5 minutes. Routes answer their own errors, so a route ' +
      'function erring is a fault; workflow tasks throw on registry failures the workflow retries, so ' +
      'a handful is tolerated.',
  },
  routeInternalErrors: {
    value: 5,
    periodMinutes: 5,
    periods: 1,
    reason:
      "A route's answers of 500 internal_error in 5 minutes (InternalErrors, by route): a fault of ours " +
      'that the route handled, so no Lambda error; the registry failing is 502/503/504, not this. As ' +
      "many as the function errors alarm allows, and like it, it rolls the route's canary back.",
  },
  functionThrottles: {
    value: 0,
    periodMinutes: 5,
    periods: 1,
    reason:
      'Any throttled invocation: a customer got 429/503 from the gateway or an event waited, because ' +
      'a reserved registry share or the account concurrency was used up.',
  },
  workflowFailures: {
    value: 0,
    periodMinutes: 5,
    periods: 1,
    reason:
      'Failed fulfilment executions: orders the registry rejects end in the workflow’s own failed ' +
      'outcome (a Succeed state), so an execution that fails is an order stuck in a fault.',
  },
  queueAgeSeconds: {
    value: 900,
    periodMinutes: 5,
    periods: 2,
    reason:
      'Oldest message in the fulfilment or webhook queue, in seconds: both are consumed within seconds, ' +
      'and the sweep and retry run every few minutes, so 15 minutes means the consumer is not running.',
  },
  deadLetters: {
    value: 0,
    periodMinutes: 5,
    periods: 1,
    reason: 'Any message in a dead-letter queue is work that failed five times and waits for an operator.',
  },
  registryErrorRate: {
    value: 0.2,
    periodMinutes: 5,
    periods: 3,
    reason:
      'Share of registry calls that failed (ZZ53, timeouts, connection, refused credential, bad answers; ' +
      'announced maintenance and ordinary rejections excluded), once at least 10 calls were made: one ' +
      'in five for 15 minutes means customers are being refused.',
  },
  webhookFailureRate: {
    value: 0.5,
    periodMinutes: 15,
    periods: 2,
    reason:
      'Share of webhook attempts that failed, once at least 20 were made: single customer endpoints ' +
      'fail on their own and are retried, but most attempts failing for 30 minutes points at our side ' +
      '(egress, signing, the dispatcher).',
  },
  unsettledPurchases: {
    value: 0,
    periodMinutes: 10,
    periods: 1,
    reason:
      'Purchases still unsettled an hour after they were made: the registry may have charged us and the ' +
      'customer holds no extract. Money at risk, so one is enough.',
  },
  referenceRefreshes: {
    value: 1,
    below: true,
    missingDataBreaches: true,
    periodMinutes: 24 * 60,
    periods: 2,
    reason:
      'One missed day is usually a registry maintenance window or a passing fault, and the routes keep ' +
      'serving the last good copy; two in a row means the registry changed its answer (refused as ' +
      'malformed or shrunken), the credential or the function broke, or the schedule stopped running.',
  },
  monitoringDailyParts: {
    value: 1,
    below: true,
    missingDataBreaches: true,
    periodMinutes: 60,
    periods: 30,
    reason:
      'Shards of the daily monitoring check finished per hour (MonitoringPartsFinished, job daily): a run ' +
      'starts at 15:00 UTC and finishes its 32 shards within the day, so 30 hours in a row without one ' +
      'means a run was missed (the schedule, the starter or the queue stopped) or is stuck.',
  },
  monitoringDailyRunSeconds: {
    value: 24 * 3600,
    periodMinutes: 60,
    periods: 1,
    reason:
      "Seconds from the daily check's start to a shard finishing: at 1,000,000 companies and 25 registry " +
      'reads a second a run takes about 22 hours; a shard finishing over 24 hours after its start ran ' +
      'into the next run (raise the registry allowance or look for retries).',
  },
  monitoringWeeklyOverdue: {
    value: 0,
    periodMinutes: 24 * 60,
    periods: 1,
    reason:
      'Summaries of the weekly job (Tuesdays 18:00 UTC) not matched when the daily job checks, at least 12 ' +
      'hours after its start (MonitoringWeeklySummariesOverdue, written by the daily billing message): a ' +
      'summary takes minutes, so one still missing means the weekly run never started or a part failed. ' +
      "A missing-data alarm cannot watch a weekly run itself: its 7-day cadence is CloudWatch's longest window.",
  },
  monitoringWeeklyRunSeconds: {
    value: 6 * 3600,
    periodMinutes: 60,
    periods: 1,
    reason:
      "Seconds from the weekly job's start to a summary matched: a 20,000-item summary is bought once and " +
      'matched in minutes, so six hours means purchases were retried for hours or the queue was blocked.',
  },
  monitoringQueueAgeSeconds: {
    value: 24 * 3600,
    periodMinutes: 60,
    periods: 1,
    reason:
      "Oldest message in the monitoring fan-out queue, in seconds: a run's 33 messages wait their turn " +
      "behind the capped consumers for up to a run's length, so a day means a part is not being run.",
  },
} as const satisfies Record<string, AlarmThreshold>;

export type AlarmThresholdName = keyof typeof ALARM_THRESHOLDS;

/** Fewest registry calls or webhook attempts in a period for their failure rates to count. */
export const MIN_RATE_SAMPLES = { registryCalls: 10, webhookAttempts: 20 } as const;

/** The figure an alarm watches, its threshold's name, and what it means in a sentence. */
export interface AlarmSpec {
  readonly metric: IMetric;
  readonly threshold: AlarmThresholdName;
  readonly summary: string;
}

const thresholdOf = (name: AlarmThresholdName): AlarmThreshold => ALARM_THRESHOLDS[name];

/** `… Threshold <name> (> <value>): <reason>`: the description says which constant set the alarm. */
export const alarmDescription = (spec: Pick<AlarmSpec, 'threshold' | 'summary'>): string =>
  describeAlarm(spec.summary, spec.threshold, thresholdOf(spec.threshold));

const describeAlarm = (summary: string, name: string, threshold: AlarmThreshold) =>
  `${summary} Threshold ${name} (${threshold.below ? '<' : '>'} ${threshold.value}): ${threshold.reason}`;

const kebab = (pascal: string): string =>
  pascal
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

/**
 * Makes the stage's alarms: each named `company-register-<stage>-<id in kebab case>`, notifying the
 * stage's topic when it fires and when it clears, missing data counting as fine (no traffic is
 * not an incident) unless the threshold says otherwise. `in(scope)` makes alarms in another construct (a nested stack) for the same topic.
 */
export class StageAlarms {
  private readonly made: Alarm[];

  constructor(
    readonly scope: Construct,
    readonly topic: ITopic,
    readonly stage: string,
    made: Alarm[] = [],
  ) {
    this.made = made;
  }

  /** The same topic and stage, alarms made in `scope` (and listed with the others). */
  in(scope: Construct): StageAlarms {
    return new StageAlarms(scope, this.topic, this.stage, this.made);
  }

  /** Every alarm made so far, in every scope. */
  get alarms(): readonly Alarm[] {
    return this.made;
  }

  add(id: string, spec: AlarmSpec): Alarm {
    return this.make(id, spec.metric, thresholdOf(spec.threshold), alarmDescription(spec));
  }

  /** A capability's alarm (its capability module): its threshold is its own, named by the alarm's id. */
  forCapability(id: string, spec: CapabilityAlarm): Alarm {
    const { metric, threshold } = spec;
    const period = Duration.minutes(threshold.periodMinutes);
    return this.make(
      id,
      serviceMetric(metric.name, { ...spec.dimensions }, period),
      threshold,
      describeAlarm(spec.summary, id, threshold),
    );
  }

  private make(id: string, metric: IMetric, threshold: AlarmThreshold, description: string): Alarm {
    const alarm = new Alarm(this.scope, `${id}Alarm`, {
      alarmName: `company-register-${this.stage}-${kebab(id)}`,
      alarmDescription: description,
      metric,
      threshold: threshold.value,
      comparisonOperator: threshold.below
        ? ComparisonOperator.LESS_THAN_THRESHOLD
        : ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: threshold.periods,
      datapointsToAlarm: threshold.periods,
      treatMissingData: threshold.missingDataBreaches
        ? TreatMissingData.BREACHING
        : TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.made.push(alarm);
    return alarm;
  }

  /**
   * A function's errors and throttles, as `<name>Errors` and `<name>Throttles`. The errors alarm is
   * also what rolls back a deployment of the function (lib/constructs/live-alias.ts).
   */
  forFunction(name: string, fn: IFunction): FunctionAlarms {
    const errors = this.add(`${name}Errors`, {
      metric: fn.metricErrors({ period: periodOf('functionErrors'), statistic: Stats.SUM }),
      threshold: 'functionErrors',
      summary: `${name} crashed or timed out.`,
    });
    const throttles = this.add(`${name}Throttles`, {
      metric: fn.metricThrottles({ period: periodOf('functionThrottles'), statistic: Stats.SUM }),
      threshold: 'functionThrottles',
      summary: `${name} was throttled.`,
    });
    return { errors, throttles };
  }

  /** A route function's alarms: `forFunction`'s, and its answers of 500 `internal_error`. */
  forRoute(name: string, fn: IFunction): RouteAlarms {
    const alarms = this.forFunction(name, fn);
    const internalErrors = this.add(`${name}InternalErrors`, {
      metric: serviceMetric(
        ROUTE_METRICS.internalErrors,
        { service: POWERTOOLS_ENVIRONMENT.POWERTOOLS_SERVICE_NAME, route: name },
        periodOf('routeInternalErrors'),
      ),
      threshold: 'routeInternalErrors',
      summary: `${name} answered 500 internal_error.`,
    });
    return { ...alarms, internalErrors };
  }
}

/** The two alarms every function has. */
export interface FunctionAlarms {
  readonly errors: Alarm;
  readonly throttles: Alarm;
}

/** A route's alarms: its function's two, and its handled faults (`<name>InternalErrors`). */
export interface RouteAlarms extends FunctionAlarms {
  readonly internalErrors: Alarm;
}

export const periodOf = (name: AlarmThresholdName): Duration =>
  Duration.minutes(ALARM_THRESHOLDS[name].periodMinutes);

/** A metric the service writes as a metric line (shared/kernel/metric-line.ts), summed per period. */
export const serviceMetric = (
  name: string,
  dimensionsMap: Record<string, string>,
  period: Duration,
  statistic: string = Stats.SUM,
): Metric =>
  new Metric({
    namespace: POWERTOOLS_ENVIRONMENT.POWERTOOLS_METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap,
    period,
    statistic,
  });

/**
 * `failed / all` of a counted metric by outcome, 0 while fewer than `minimum` were counted in the
 * period (a single failure among three calls is not a rate).
 */
export function failureRate(
  metricName: string,
  outcomes: readonly string[],
  failedOutcomes: readonly string[],
  minimum: number,
  period: Duration,
  label: string,
): MathExpression {
  const usingMetrics = Object.fromEntries(
    outcomes.map((outcome) => [outcome, serviceMetric(metricName, { outcome }, period)]),
  );
  // An outcome not seen in a period has no data point, which would blank the whole sum.
  const all = outcomes.map((outcome) => `FILL(${outcome}, 0)`).join(' + ');
  const failed = failedOutcomes.map((outcome) => `FILL(${outcome}, 0)`).join(' + ');
  return new MathExpression({
    expression: `IF((${all}) >= ${minimum}, (${failed}) / (${all}), 0)`,
    usingMetrics,
    period,
    label,
  });
}

/** The registry's failure rate (`RegistryCalls` by outcome, shared/kernel/metric-line.ts). */
export const registryFailureRate = (): MathExpression =>
  failureRate(
    SERVICE_METRICS.registryCalls.name,
    ['ok', 'rejected', 'maintenance', 'failed'],
    ['failed'],
    MIN_RATE_SAMPLES.registryCalls,
    periodOf('registryErrorRate'),
    'Registry calls failed (share)',
  );

/** The webhook failure rate (`WebhookAttempts` by outcome). */
export const webhookFailureRate = (): MathExpression =>
  failureRate(
    SERVICE_METRICS.webhookAttempts.name,
    ['succeeded', 'failed'],
    ['failed'],
    MIN_RATE_SAMPLES.webhookAttempts,
    periodOf('webhookFailureRate'),
    'Webhook attempts failed (share)',
  );
