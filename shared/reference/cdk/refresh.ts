/**
 * The daily reference refresh (functions/workers/refresh-reference.ts): the function, its
 * EventBridge schedule, and the alarm raised when the form schedule and code tables have not been
 * refreshed for `REFERENCE_REFRESH_ALARM.missedDays` days in a row. The reference routes keep
 * serving the last good copy meanwhile, so the alarm asks an operator to look, not to act at once.
 */
import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import { type Alarm, MathExpression, Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { StageAlarms } from '../../../lib/alarms.ts';
import { ApiFunction, POWERTOOLS_ENVIRONMENT } from '../../../lib/constructs/api-function.ts';
import type { FailedEvents } from '../../../lib/constructs/failed-events.ts';
import type { LiveAliases } from '../../../lib/constructs/live-alias.ts';
import { acknowledgements } from '../../../lib/nag.ts';
import { type EntryFor, PROJECT_ROOT } from '../../../lib/routes.ts';
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

export interface ReferenceRefreshProps {
  readonly mainTable: ITable;
  readonly registryUrl: string;
  readonly registryCredentialSecret: ISecret;
  readonly entryFor: EntryFor;
  /** Where its alarms go (missed refreshes, the function's errors and throttles). */
  readonly alarms: StageAlarms;
  /** Keeps what the schedule could not deliver and the function's failed invocations. */
  readonly failedEvents: FailedEvents;
  /** Its share of the registry's capacity as reserved concurrency (lib/registry-capacity.ts); unset, none. */
  readonly registryConcurrency?: number;
  /** Makes the function's `live` alias (and deployment group), which the schedule invokes. */
  readonly liveAliases: LiveAliases;
}

export class ReferenceRefresh extends Construct {
  readonly function: ApiFunction;
  /** The function's `live` alias: what the schedule invokes. */
  readonly alias: Alias;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: ReferenceRefreshProps) {
    super(scope, id);
    this.function = new ApiFunction(this, 'Function', {
      entry: props.entryFor(REFERENCE_REFRESH),
      description: REFERENCE_REFRESH_DESCRIPTION,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      timeout: Duration.seconds(REFERENCE_REFRESH_TIMEOUT_SECONDS),
      readsSecrets: true,
      ...(props.registryConcurrency === undefined
        ? {}
        : { reservedConcurrentExecutions: props.registryConcurrency }),
    });
    this.function.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    this.function.bindRegistry(props.registryUrl, props.registryCredentialSecret);
    Validations.of(this.function).acknowledge(
      acknowledgements.runtimeVersion,
      acknowledgements.latestRuntime,
    );
    Validations.of(this.function.role ?? this.function).acknowledge(acknowledgements.xrayWildcard);
    const { errors } = props.alarms.forFunction(REFERENCE_REFRESH.name, this.function);
    this.alias = props.liveAliases.aliasOf(REFERENCE_REFRESH.name, this.function, errors);
    props.failedEvents.keepFailedInvocations(this.function, this.alias);

    new Rule(this, 'Schedule', {
      description: "Daily: refreshes the registry's form schedule and code tables",
      schedule: Schedule.cron(REFERENCE_REFRESH_CRON),
      targets: [
        new LambdaFunction(this.alias, { retryAttempts: 0, deadLetterQueue: props.failedEvents.queue }),
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
