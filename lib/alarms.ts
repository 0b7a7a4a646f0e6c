/**
 * Every alarm of a stage: one SNS topic, and each alarm's threshold named, with the reason for its
 * value: the service's own are the entries of `ALARM_THRESHOLDS`; a capability's are its own, in
 * its capability module's `alarms` or, for an alarm on a resource only CDK knows (a state machine,
 * a queue, a schedule's function), in its `cdk/alarms.ts` (`namedThresholds`). docs/operations.md
 * says what each alarm means and what to do; its alarm table is checked against these names by a test.
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
import type { AlarmThreshold, CapabilityAlarm, FailureRate } from '../shared/kernel/capability.ts';
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
  unsettledPurchases: {
    value: 0,
    periodMinutes: 10,
    periods: 1,
    reason:
      'Purchases still unsettled an hour after they were made: the registry may have charged us and the ' +
      'customer holds no extract. Money at risk, so one is enough.',
  },
} as const satisfies Record<string, AlarmThreshold>;

export type AlarmThresholdName = keyof typeof ALARM_THRESHOLDS;

/** A threshold with the name the alarm's description and the runbook give it. */
export interface NamedThreshold extends AlarmThreshold {
  readonly name: string;
}

/** A capability's own thresholds (its `cdk/alarms.ts`), each named by its key. */
export const namedThresholds = <const T extends Readonly<Record<string, AlarmThreshold>>>(
  thresholds: T,
): { readonly [K in keyof T & string]: T[K] & { readonly name: K } } =>
  Object.fromEntries(
    Object.entries(thresholds).map(([name, threshold]) => [name, { ...threshold, name }]),
  ) as { readonly [K in keyof T & string]: T[K] & { readonly name: K } };

/** Fewest registry calls in a period for their failure rate to count. */
export const MIN_RATE_SAMPLES = { registryCalls: 10 } as const;

/** The figure an alarm watches, its threshold (the service's, by name, or a capability's own), and what it means in a sentence. */
export interface AlarmSpec {
  readonly metric: IMetric;
  readonly threshold: AlarmThresholdName | NamedThreshold;
  readonly summary: string;
}

const thresholdOf = (threshold: AlarmThresholdName | NamedThreshold): NamedThreshold =>
  typeof threshold === 'string' ? { ...ALARM_THRESHOLDS[threshold], name: threshold } : threshold;

/** `… Threshold <name> (> <value>): <reason>`: the description says which constant set the alarm. */
export const alarmDescription = (spec: Pick<AlarmSpec, 'threshold' | 'summary'>): string => {
  const { name, below, value, reason } = thresholdOf(spec.threshold);
  return `${spec.summary} Threshold ${name} (${below ? '<' : '>'} ${value}): ${reason}`;
};

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

  /** A capability's alarm (its capability module): its threshold is its own, named by the alarm's id in camel case. */
  forCapability(id: string, spec: CapabilityAlarm): Alarm {
    return this.add(id, {
      metric: capabilityAlarmMetric(spec),
      threshold: { ...spec.threshold, name: capabilityThresholdName(id) },
      summary: spec.summary,
    });
  }

  add(id: string, spec: AlarmSpec): Alarm {
    const threshold = thresholdOf(spec.threshold);
    const alarm = new Alarm(this.scope, `${id}Alarm`, {
      alarmName: `company-register-${this.stage}-${kebab(id)}`,
      alarmDescription: alarmDescription(spec),
      metric: spec.metric,
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

export const periodOf = (threshold: AlarmThresholdName | AlarmThreshold): Duration =>
  Duration.minutes((typeof threshold === 'string' ? ALARM_THRESHOLDS[threshold] : threshold).periodMinutes);

/** The name a capability alarm's threshold goes by: its id in camel case (`WebhookFailureRate`: `webhookFailureRate`). */
export const capabilityThresholdName = (id: string): string => `${id.charAt(0).toLowerCase()}${id.slice(1)}`;

/** The figure a capability's alarm watches, per its threshold's period. */
const capabilityAlarmMetric = (spec: CapabilityAlarm): IMetric =>
  spec.failureRate
    ? capabilityFailureRate({ ...spec, failureRate: spec.failureRate })
    : serviceMetric(spec.metric.name, { ...spec.dimensions }, periodOf(spec.threshold));

/** The failure rate a capability's alarm watches (its dashboard graphs the same). */
export const capabilityFailureRate = (
  spec: CapabilityAlarm & { readonly failureRate: FailureRate },
): MathExpression =>
  failureRate(spec.metric.name, spec.failureRate, periodOf(spec.threshold), spec.dimensions);

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
 * `failed / all` of a counted metric by the values of one dimension (under `dimensions` besides),
 * 0 while fewer than `minimumSamples` were counted in the period (a single failure among three
 * calls is not a rate).
 */
export function failureRate(
  metricName: string,
  rate: FailureRate,
  period: Duration,
  dimensions: Readonly<Record<string, string>> = {},
): MathExpression {
  const usingMetrics = Object.fromEntries(
    rate.outcomes.map((outcome) => [
      outcome,
      serviceMetric(metricName, { ...dimensions, [rate.dimension]: outcome }, period),
    ]),
  );
  // An outcome not seen in a period has no data point, which would blank the whole sum.
  const all = rate.outcomes.map((outcome) => `FILL(${outcome}, 0)`).join(' + ');
  const failed = rate.failed.map((outcome) => `FILL(${outcome}, 0)`).join(' + ');
  return new MathExpression({
    expression: `IF((${all}) >= ${rate.minimumSamples}, (${failed}) / (${all}), 0)`,
    usingMetrics,
    period,
    label: rate.label,
  });
}

/** The registry's failure rate (`RegistryCalls` by outcome, shared/kernel/metric-line.ts). */
export const registryFailureRate = (): MathExpression =>
  failureRate(
    SERVICE_METRICS.registryCalls.name,
    {
      dimension: 'outcome',
      outcomes: ['ok', 'rejected', 'maintenance', 'failed'],
      failed: ['failed'],
      minimumSamples: MIN_RATE_SAMPLES.registryCalls,
      label: 'Registry calls failed (share)',
    },
    periodOf('registryErrorRate'),
  );
