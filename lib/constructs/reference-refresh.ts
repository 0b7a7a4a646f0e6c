/**
 * The daily reference refresh (functions/workers/refresh-reference.ts): the function, its
 * EventBridge schedule, and the alarm raised when the form schedule and code tables have not been
 * refreshed for `REFERENCE_REFRESH_ALARM.missedDays` days in a row. The reference routes keep
 * serving the last good copy meanwhile, so the alarm asks an operator to look, not to act at once.
 */
import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { REFERENCE_REFRESH, REFERENCE_REFRESH_TIMEOUT_SECONDS } from '../../shared/infra/reference.ts';
import { tableDefinitions } from '../../shared/infra/tables.ts';
import { acknowledgements } from '../nag.ts';
import { type EntryFor, PROJECT_ROOT } from '../routes.ts';
import { ApiFunction, POWERTOOLS_ENVIRONMENT } from './api-function.ts';

/**
 * When the refresh runs: 20:00 UTC is 06:00 or 07:00 in Australian Eastern time, after the
 * registry's overnight maintenance windows and before the business day.
 */
export const REFERENCE_REFRESH_CRON = { minute: '0', hour: '20' } as const;

/** The alarm on days without a successful refresh. */
export const REFERENCE_REFRESH_ALARM = {
  /** Days in a row without a successful refresh before the alarm fires. */
  missedDays: 2,
  reason:
    'One missed day is usually a registry maintenance window or a passing fault, and the routes keep ' +
    'serving the last good copy; two in a row means the registry changed its answer (refused as ' +
    'malformed or shrunken), the credential or the function broke, or the schedule stopped running.',
} as const;

export const REFERENCE_REFRESH_DESCRIPTION = `${REFERENCE_REFRESH.name}: daily, stores the registry's form schedule and code tables (functions/${REFERENCE_REFRESH.handler}.ts)`;

export interface ReferenceRefreshProps {
  readonly mainTable: ITable;
  readonly registryUrl: string;
  readonly registryCredentialSecret: ISecret;
  readonly entryFor: EntryFor;
  /** Notified when the alarm fires and when it clears. */
  readonly alarmTopic?: ITopic;
}

export class ReferenceRefresh extends Construct {
  readonly function: ApiFunction;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: ReferenceRefreshProps) {
    super(scope, id);
    this.function = new ApiFunction(this, 'Function', {
      entry: props.entryFor(REFERENCE_REFRESH),
      description: REFERENCE_REFRESH_DESCRIPTION,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      timeout: Duration.seconds(REFERENCE_REFRESH_TIMEOUT_SECONDS),
      readsSecrets: true,
    });
    this.function.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    this.function.bindRegistry(props.registryUrl, props.registryCredentialSecret);
    Validations.of(this.function).acknowledge(acknowledgements.runtimeVersion);
    Validations.of(this.function.role ?? this.function).acknowledge(acknowledgements.xrayWildcard);

    new Rule(this, 'Schedule', {
      description: "Daily: refreshes the registry's form schedule and code tables",
      schedule: Schedule.cron(REFERENCE_REFRESH_CRON),
      targets: [new LambdaFunction(this.function, { retryAttempts: 0 })],
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
    this.alarm = new Alarm(this, 'MissedAlarm', {
      alarmDescription: `The reference data was not refreshed for ${REFERENCE_REFRESH_ALARM.missedDays} days in a row. ${REFERENCE_REFRESH_ALARM.reason}`,
      metric: new MathExpression({
        expression: 'FILL(invocations, 0) - FILL(failures, 0)',
        usingMetrics: { invocations: daily('Invocations'), failures: daily('Failures') },
        label: 'Successful reference refreshes',
        period: Duration.days(1),
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: REFERENCE_REFRESH_ALARM.missedDays,
      datapointsToAlarm: REFERENCE_REFRESH_ALARM.missedDays,
      // No data at all is a day the refresh did not run: a miss.
      treatMissingData: TreatMissingData.BREACHING,
    });
    if (props.alarmTopic) {
      const action = new SnsAction(props.alarmTopic);
      this.alarm.addAlarmAction(action);
      this.alarm.addOkAction(action);
    }
  }
}
