/**
 * Company monitoring's jobs (docs/monitoring.md, docs/architecture.md "Company monitoring"): two
 * EventBridge Scheduler schedules (the daily check, the weekly job) invoke StartMonitoringRuns,
 * which puts a run's messages on the fan-out queue (with its DLQ and alarms); RunMonitoring
 * consumes it one message at a time with a reserved share of the registry's capacity. Alarms fire
 * on dead letters and on the functions' errors and throttles.
 *
 * Not yet added to the API stack (lib/api-stack.ts): joining it changes the stack's resource
 * counts, dashboard, registry shares and alarm documentation, which the infrastructure tests
 * check; the missed-run alarms (`MonitoringPartsFinished` by job) are still to be added with it.
 */
import { join } from 'node:path';
import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type Alias, EventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  DAILY_CHECK_SCHEDULE,
  MONITORING_ENV,
  MONITORING_RUN,
  MONITORING_RUN_TIMEOUT_SECONDS,
  MONITORING_START,
  WEEKLY_JOB_SCHEDULE,
} from '../../shared/kernel/infra/monitoring.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { ORDER_ENV } from '../../shared/kernel/infra/workflow.ts';
import type { StageAlarms } from '../alarms.ts';
import { acknowledgements } from '../nag.ts';
import { type EntryFor, PROJECT_ROOT } from '../routes.ts';
import { ApiFunction } from './api-function.ts';
import type { FailedEvents } from './failed-events.ts';
import type { LiveAliases } from './live-alias.ts';
import { queueWithDeadLetters } from './queue-with-dead-letters.ts';

export const MONITORING_QUEUE_VISIBILITY = Duration.seconds(6 * MONITORING_RUN_TIMEOUT_SECONDS);

export interface CompanyMonitoringProps {
  readonly mainTable: ITable;
  readonly eventBus: IEventBus;
  readonly registryUrl: string;
  readonly registryCredentialSecret: ISecret;
  readonly entryFor: EntryFor;
  readonly alarms: StageAlarms;
  readonly failedEvents: FailedEvents;
  /** RunMonitoring's share of the registry's capacity (lib/registry-capacity.ts); unset, none. */
  readonly registryConcurrency?: number;
  /** Makes each function's `live` alias (and deployment group), which the schedules and the queue invoke. */
  readonly liveAliases: LiveAliases;
}

export class CompanyMonitoring extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  readonly start: ApiFunction;
  readonly run: ApiFunction;
  /** The functions' `live` aliases: what the schedules and the queue invoke. */
  readonly startAlias: Alias;
  readonly runAlias: Alias;
  readonly dailySchedule: CfnSchedule;
  readonly weeklySchedule: CfnSchedule;

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
    }));

    [this.start, this.startAlias] = this.createFunction(
      MONITORING_START,
      'puts a monitoring run on the fan-out queue',
      props,
      60,
      false,
    );
    this.start.bindQueueSender(this.queue, MONITORING_ENV.queueUrl);
    props.failedEvents.keepFailedInvocations(this.start, this.startAlias);

    [this.run, this.runAlias] = this.createFunction(
      MONITORING_RUN,
      'checks a page of watched companies, matches a weekly summary',
      props,
      MONITORING_RUN_TIMEOUT_SECONDS,
      true,
    );
    this.run.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    this.run.bindRegistry(props.registryUrl, props.registryCredentialSecret);
    this.run.bindQueueSender(this.queue, MONITORING_ENV.queueUrl);
    this.run.addEnvironment(ORDER_ENV.eventBus, props.eventBus.eventBusName);
    props.eventBus.grantPutEventsTo(this.run);
    const queueSource = new EventSourceMapping(this, 'RunQueueSource', {
      target: this.runAlias,
      eventSourceArn: this.queue.queueArn,
      batchSize: 1,
      reportBatchItemFailures: true,
    });
    Validations.of(queueSource).acknowledge(acknowledgements.sqsEventSourceDestination);
    this.queue.grantConsumeMessages(this.run);
    Validations.of(this.run).acknowledge(acknowledgements.synchronousInvocation);

    const role = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
      description:
        'EventBridge Scheduler: invokes StartMonitoringRuns, dead-letters to the failed-events queue',
    });
    role.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.startAlias.functionArn] }),
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
          arn: this.startAlias.functionArn,
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

    const stack = Stack.of(this);
    new CfnOutput(stack, 'MonitoringQueueUrl', { value: this.queue.queueUrl });
    new CfnOutput(stack, 'MonitoringDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
  }

  private createFunction(
    module: { readonly name: string; readonly handler: string },
    what: string,
    props: CompanyMonitoringProps,
    timeoutSeconds: number,
    registry: boolean,
  ): [ApiFunction, Alias] {
    const fn = new ApiFunction(this, `${module.name}Function`, {
      entry: props.entryFor(module),
      description: `${module.name}: ${what} (functions/${module.handler}.ts)`,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      timeout: Duration.seconds(timeoutSeconds),
      readsSecrets: registry,
      ...(registry && props.registryConcurrency !== undefined
        ? { reservedConcurrentExecutions: props.registryConcurrency }
        : {}),
    });
    Validations.of(fn).acknowledge(acknowledgements.runtimeVersion, acknowledgements.latestRuntime);
    Validations.of(fn.role ?? fn).acknowledge(acknowledgements.xrayWildcard);
    const { errors } = props.alarms.forFunction(module.name, fn);
    return [fn, props.liveAliases.aliasOf(module.name, fn, errors)];
  }
}
