/**
 * The daily reference refresh (functions/workers/refresh-reference.ts): the function, its
 * EventBridge schedule, and the alarm raised when the form schedule and code tables have not been
 * refreshed for `REFERENCE_REFRESH_ALARM.missedDays` days in a row. The reference routes keep
 * serving the last good copy meanwhile, so the alarm asks an operator to look, not to act at once.
 */
import { Duration } from 'aws-cdk-lib';
import { type Alarm, MathExpression, Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { POWERTOOLS_ENVIRONMENT } from '../../../lib/constructs/api-function.ts';
import type { FailedEvents } from '../../../lib/constructs/failed-events.ts';
import { WorkerFunction, type WorkerScope } from '../../../lib/constructs/worker-function.ts';
import { tableDefinitions } from '../../kernel/infra/tables.ts';
import { REFERENCE_REFRESH, REFERENCE_REFRESH_TIMEOUT_SECONDS } from '../infra.ts';
import { REFERENCE_ALARM_THRESHOLDS } from './alarms.ts';

/**
 * When the refresh runs: 20:00 UTC is 06:00 or 07:00 in Australian Eastern time, after the
 * registry's overnight maintenance windows and before the business day.
 */
export const REFERENCE_REFRESH_CRON = { minute: '0', hour: '20' } as const;

/** The alarm on days without a successful refresh (`REFERENCE_ALARM_THRESHOLDS.referenceRefreshes`). */
export const REFERENCE_REFRESH_ALARM = {
  /** Days in a row without a successful refresh before the alarm fires. */
  missedDays: REFERENCE_ALARM_THRESHOLDS.referenceRefreshes.periods,
  reason: REFERENCE_ALARM_THRESHOLDS.referenceRefreshes.reason,
} as const;

export const REFERENCE_REFRESH_DESCRIPTION = `${REFERENCE_REFRESH.name}: daily, stores the registry's form schedule and code tables (functions/${REFERENCE_REFRESH.handler}.ts)`;

/** `registryConcurrency`: its share of the registry's capacity; the schedule invokes the live alias. */
export interface ReferenceRefreshProps extends WorkerScope {
  readonly mainTable: ITable;
  readonly registryUrl: string;
  readonly registryCredentialSecret: ISecret;
  /** Keeps what the schedule could not deliver and the function's failed invocations. */
  readonly failedEvents: FailedEvents;
}

export class ReferenceRefresh extends Construct {
  /** With its `live` alias: what the schedule invokes. */
  readonly function: WorkerFunction;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: ReferenceRefreshProps) {
    super(scope, id);
    this.function = new WorkerFunction(this, REFERENCE_REFRESH, props, {
      id: 'Function',
      description: REFERENCE_REFRESH_DESCRIPTION,
      timeout: Duration.seconds(REFERENCE_REFRESH_TIMEOUT_SECONDS),
      callsRegistry: true,
      invocation: 'asynchronous',
    });
    this.function.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    this.function.bindRegistry(props.registryUrl, props.registryCredentialSecret);
    props.failedEvents.keepFailedInvocations(this.function, this.function.alias);

    new Rule(this, 'Schedule', {
      description: "Daily: refreshes the registry's form schedule and code tables",
      schedule: Schedule.cron(REFERENCE_REFRESH_CRON),
      targets: [
        new LambdaFunction(this.function.alias, {
          retryAttempts: 0,
          deadLetterQueue: props.failedEvents.queue,
        }),
      ],
    });

    // A day's successful refreshes: invocations less failures (Lambda retries a failed one twice).
    const daily = (metricName: string) =>
      new Metric({
        namespace: POWERTOOLS_ENVIRONMENT.POWERTOOLS_METRICS_NAMESPACE,
        metricName,
        dimensionsMap: {
          function: REFERENCE_REFRESH.name,
          service: POWERTOOLS_ENVIRONMENT.POWERTOOLS_SERVICE_NAME,
        },
        period: Duration.days(1),
        statistic: Stats.SUM,
      });
    this.alarm = props.alarms.add('ReferenceRefreshMissed', {
      metric: new MathExpression({
        expression: 'FILL(invocations, 0) - FILL(failures, 0)',
        usingMetrics: { invocations: daily('Invocations'), failures: daily('Failures') },
        label: 'Successful reference refreshes',
        period: Duration.days(1),
      }),
      threshold: REFERENCE_ALARM_THRESHOLDS.referenceRefreshes,
      summary: `The reference data was not refreshed for ${REFERENCE_REFRESH_ALARM.missedDays} days in a row.`,
    });
  }
}
