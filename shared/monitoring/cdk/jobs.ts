/**
 * Company monitoring's jobs (docs/monitoring.md,
 * docs/decisions/0069-monitoring-jobs-and-capacity.md), in the API stack's `CompanyMonitoring`
 * nested stack: two EventBridge Scheduler schedules (the daily check, the weekly job) invoke
 * StartMonitoringRuns, which puts a run's messages on the fan-out queue (with its DLQ and alarms);
 * RunMonitoring consumes it one message at a time, at most `CONSUMER_CONCURRENCY.monitoringRun`
 * instances, within its reserved share of the registry's capacity. Alarms fire on dead letters, on
 * a message waiting a day, on the functions' errors and throttles, on a daily run missed (no shard
 * finished for 30 hours, missing data breaching), on a weekly run missed (a summary of the due run
 * unmatched when the daily job looks, the next day) and on a run late (a part finishing too long
 * after its run's start, `MonitoringRunSeconds`).
 */
import { Duration } from 'aws-cdk-lib';
import { type Alarm, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { RecursiveLoop } from 'aws-cdk-lib/aws-lambda';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { periodOf, serviceMetric } from '../../../lib/alarms.ts';
import { workflowFunctionDescription } from '../../../lib/constructs/api-function.ts';
import type { FailedEvents } from '../../../lib/constructs/failed-events.ts';
import { consumeOnAlias, queueWithDeadLetters } from '../../../lib/constructs/queue-with-dead-letters.ts';
import { accountServicePrincipal } from '../../../lib/constructs/service-principal.ts';
import { byModuleName, WorkerFunction, type WorkerScope } from '../../../lib/constructs/worker-function.ts';
import { CONSUMER_CONCURRENCY } from '../../../lib/settings.ts';
import { PLATFORM_ENV } from '../../kernel/infra/platform-env.ts';
import { tableDefinitions } from '../../kernel/infra/tables.ts';
import {
  DAILY_CHECK_SCHEDULE,
  MONITORING_ENV,
  MONITORING_RUN,
  MONITORING_RUN_TIMEOUT_SECONDS,
  MONITORING_START,
  WEEKLY_JOB_SCHEDULE,
} from '../infra.ts';
import { MONITORING_METRICS } from '../metrics.ts';
import { MONITORING_ALARM_THRESHOLDS } from './alarms.ts';

export const MONITORING_QUEUE_VISIBILITY = Duration.seconds(6 * MONITORING_RUN_TIMEOUT_SECONDS);

/** The figures of a monitoring job (`daily`, `weekly`) the alarms and the dashboard read. */
export const monitoringMetric = (
  metric: 'monitoringParts' | 'monitoringEvents' | 'monitoringChecked' | 'monitoringRunAge',
  job: 'daily' | 'weekly',
  period: Duration,
  statistic: string = Stats.SUM,
) => serviceMetric(MONITORING_METRICS[metric].name, { job }, period, statistic);

/** Summaries of the weekly run due by then not matched yet, written once a day (no dimensions). */
export const weeklyOverdueMetric = (period: Duration) =>
  serviceMetric(MONITORING_METRICS.monitoringWeeklyOverdue.name, {}, period, Stats.MAXIMUM);

/**
 * RunMonitoring's event source cap: `CONSUMER_CONCURRENCY.monitoringRun`, which must fit in its
 * reserved registry share (more instances than the reservation would be throttled, and the
 * messages retried towards the DLQ).
 */
export function monitoringConsumerConcurrency(registryConcurrency: number | undefined): number {
  const cap = CONSUMER_CONCURRENCY.monitoringRun;
  if (registryConcurrency !== undefined && registryConcurrency < cap) {
    throw new Error(
      `RunMonitoring's registry share (${registryConcurrency}) is below its consumer concurrency (${cap}): ` +
        'raise registryConcurrency in lib/stages.ts or lower CONSUMER_CONCURRENCY.monitoringRun',
    );
  }
  return cap;
}

/** `registryConcurrency`: RunMonitoring's share of the registry's capacity; the schedules and the queue invoke the live aliases. */
export interface CompanyMonitoringProps extends WorkerScope {
  readonly mainTable: ITable;
  readonly eventBus: IEventBus;
  readonly registryUrl: string;
  readonly registryCredentialSecret: ISecret;
  readonly failedEvents: FailedEvents;
}

export class CompanyMonitoring extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  /** Each with its `live` alias: what the schedules and the queue invoke. */
  readonly start: WorkerFunction;
  readonly run: WorkerFunction;
  readonly dailySchedule: CfnSchedule;
  readonly weeklySchedule: CfnSchedule;
  /** Both functions by name (the dashboard's errors and throttles). */
  readonly functions: ReadonlyMap<string, WorkerFunction>;

  constructor(scope: Construct, id: string, props: CompanyMonitoringProps) {
    super(scope, id);
    ({
      queue: this.queue,
      deadLetterQueue: this.deadLetterQueue,
      deadLetterAlarm: this.deadLetterAlarm,
    } = queueWithDeadLetters(this, {
      name: 'Monitoring',
      visibilityTimeout: MONITORING_QUEUE_VISIBILITY,
      alarms: props.alarms,
      whatWaits:
        'parts of a monitoring run were not done (a shard of the daily check, a weekly summary): inspect the DLQ and redrive it; the events they emit are deduplicated.',
      ageThreshold: MONITORING_ALARM_THRESHOLDS.monitoringQueueAgeSeconds,
    }));

    this.start = new WorkerFunction(this, MONITORING_START, props, {
      description: workflowFunctionDescription(
        MONITORING_START,
        'puts a monitoring run on the fan-out queue',
      ),
      timeout: Duration.seconds(60),
      invocation: 'asynchronous',
    });
    this.start.bindQueueSender(this.queue, MONITORING_ENV.queueUrl);
    props.failedEvents.keepFailedInvocations(this.start, this.start.alias);

    this.run = new WorkerFunction(this, MONITORING_RUN, props, {
      description: workflowFunctionDescription(
        MONITORING_RUN,
        'checks a page of watched companies, matches a weekly summary',
      ),
      timeout: Duration.seconds(MONITORING_RUN_TIMEOUT_SECONDS),
      callsRegistry: true,
      invocation: 'synchronous',
      // A shard is checked a page per message, each page sending the next to this same queue: a
      // chain of 125 messages per shard at 1,000,000 companies (docs/decisions/
      // 0081-monitoring-page-chain.md), which the loop detection's Terminate would stop at ~16.
      recursiveLoop: RecursiveLoop.ALLOW,
    });
    this.run.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    this.run.bindRegistry(props.registryUrl, props.registryCredentialSecret);
    this.run.bindQueueSender(this.queue, MONITORING_ENV.queueUrl);
    this.run.addEnvironment(PLATFORM_ENV.eventBus, props.eventBus.eventBusName);
    props.eventBus.grantPutEventsTo(this.run);
    consumeOnAlias(this, 'RunQueueSource', {
      queue: this.queue,
      fn: this.run,
      alias: this.run.alias,
      batchSize: 1,
      maxConcurrency: monitoringConsumerConcurrency(props.registryConcurrency),
    });

    const role = new Role(this, 'SchedulerRole', {
      assumedBy: accountServicePrincipal(this, 'scheduler.amazonaws.com'),
      description:
        'EventBridge Scheduler: invokes StartMonitoringRuns, dead-letters to the failed-events queue',
    });
    role.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.start.alias.functionArn] }),
    );
    role.addToPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [props.failedEvents.queue.queueArn] }),
    );
    const schedule = (name: string, expression: string, job: string, description: string) =>
      new CfnSchedule(this, name, {
        description,
        scheduleExpression: expression,
        scheduleExpressionTimezone: 'UTC',
        flexibleTimeWindow: { mode: 'OFF' },
        target: {
          arn: this.start.alias.functionArn,
          roleArn: role.roleArn,
          input: JSON.stringify({ job }),
          retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 3600 },
          deadLetterConfig: { arn: props.failedEvents.queue.queueArn },
        },
      });
    this.dailySchedule = schedule(
      'DailySchedule',
      DAILY_CHECK_SCHEDULE,
      'daily',
      'Company monitoring: the daily check',
    );
    this.weeklySchedule = schedule(
      'WeeklySchedule',
      WEEKLY_JOB_SCHEDULE,
      'weekly',
      'Company monitoring: the weekly job',
    );

    this.functions = byModuleName(this.start, this.run);

    // Missed: no shard of the daily check finished for 30 hours (no data is a miss).
    props.alarms.add('MonitoringDailyMissed', {
      metric: monitoringMetric(
        'monitoringParts',
        'daily',
        periodOf(MONITORING_ALARM_THRESHOLDS.monitoringDailyParts),
      ),
      threshold: MONITORING_ALARM_THRESHOLDS.monitoringDailyParts,
      summary: 'No shard of the daily monitoring check finished for 30 hours: a run was missed or is stuck.',
    });
    // Late: a part finished long after its run started (the weekly job's parts each buy a summary).
    props.alarms.add('MonitoringDailyLate', {
      metric: monitoringMetric(
        'monitoringRunAge',
        'daily',
        periodOf(MONITORING_ALARM_THRESHOLDS.monitoringDailyRunSeconds),
        Stats.MAXIMUM,
      ),
      threshold: MONITORING_ALARM_THRESHOLDS.monitoringDailyRunSeconds,
      summary: 'A shard of the daily monitoring check finished over a day after its run started.',
    });
    // Missed (weekly): read daily, since a weekly cadence is longer than any alarm window allows.
    props.alarms.add('MonitoringWeeklyMissed', {
      metric: weeklyOverdueMetric(periodOf(MONITORING_ALARM_THRESHOLDS.monitoringWeeklyOverdue)),
      threshold: MONITORING_ALARM_THRESHOLDS.monitoringWeeklyOverdue,
      summary:
        'A summary of the weekly monitoring job was still not matched 12 hours or more after the job started: the run never started or a part failed.',
    });
    props.alarms.add('MonitoringWeeklyLate', {
      metric: monitoringMetric(
        'monitoringRunAge',
        'weekly',
        periodOf(MONITORING_ALARM_THRESHOLDS.monitoringWeeklyRunSeconds),
        Stats.MAXIMUM,
      ),
      threshold: MONITORING_ALARM_THRESHOLDS.monitoringWeeklyRunSeconds,
      summary: 'A weekly summary was matched over six hours after the weekly job started.',
    });
  }
}
