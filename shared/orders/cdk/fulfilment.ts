import { join } from 'node:path';
import { Arn, ArnFormat, Aws, CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import { type Alarm, Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { periodOf, type StageAlarms } from '../../../lib/alarms.ts';
import { ApiFunction, workflowFunctionDescription } from '../../../lib/constructs/api-function.ts';
import type { FailedEvents } from '../../../lib/constructs/failed-events.ts';
import type { LiveAliases } from '../../../lib/constructs/live-alias.ts';
import { perCreationLogGroupName } from '../../../lib/constructs/log-retention.ts';
import { consumeOnAlias, queueWithDeadLetters } from '../../../lib/constructs/queue-with-dead-letters.ts';
import { accountServicePrincipal } from '../../../lib/constructs/service-principal.ts';
import { ORDER_BLOB_PREFIXES } from '../../../lib/data-stack.ts';
import { acknowledgements } from '../../../lib/nag.ts';
import { type EntryFor, PROJECT_ROOT } from '../../../lib/routes.ts';
import { CONSUMER_CONCURRENCY, type Settings } from '../../../lib/settings.ts';
import { PLATFORM_ENV } from '../../kernel/infra/platform-env.ts';
import { tableDefinitions } from '../../kernel/infra/tables.ts';
import {
  FULFILMENT_STARTER,
  FULFILMENT_SWEEPER,
  ORDERS_ENV,
  WORKFLOW_DEFINITION,
  type WorkflowTask,
  workflowTasks,
} from '../infra.ts';
import { ORDERS_ALARM_THRESHOLDS } from './alarms.ts';
import { WORKFLOW_TIMEOUT_SECONDS } from './workflow.ts';

/** The starter only starts executions (a batch of 10 at most); 30 s is ample. */
export const STARTER_TIMEOUT = Duration.seconds(30);
/**
 * Six times the starter's timeout, as AWS advises for an SQS event source: a message stays
 * invisible while a batch is retried after throttling, instead of being received twice.
 */
export const QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(6 * STARTER_TIMEOUT.toSeconds());
export const STARTER_BATCH_SIZE = 10;
export const SWEEP_INTERVAL = Duration.minutes(5);
/**
 * The longest an execution may run (`WORKFLOW_TIMEOUT_SECONDS`, shared/orders/cdk/workflow.ts): the
 * definition's top-level `TimeoutSeconds`, since CDK's `timeout` prop is ignored for a definition
 * read from a file.
 */
export const WORKFLOW_TIMEOUT = Duration.seconds(WORKFLOW_TIMEOUT_SECONDS);
export const SWEEPER_TIMEOUT = Duration.seconds(60);

export const taskDescription = (task: WorkflowTask): string =>
  workflowFunctionDescription(task, `fulfilment task ${task.substitution}`);
export const STARTER_DESCRIPTION = workflowFunctionDescription(
  FULFILMENT_STARTER,
  'starts the fulfilment workflow from the queue',
);
export const SWEEPER_DESCRIPTION = workflowFunctionDescription(
  FULFILMENT_SWEEPER,
  'every 5 minutes: requeues stalled fulfilment, finishes purchases left uncommitted',
);

/** The keys table's index an account's members are listed by (shared/console/adapters/dynamodb-members.ts). */
export const MEMBERS_INDEX = 'byAccount';

export interface FulfilmentProps {
  readonly settings: Settings;
  readonly mainTable: ITable;
  /** The keys table: the sweeper lists an account's members to mail its spend alerts. */
  readonly keysTable: ITable;
  readonly registryCredentialSecret: ISecret;
  readonly ordersBucket: IBucket;
  /** Base URL of the API without a trailing `/` (`API_BASE_URL`, for `downloadUrl`). */
  readonly apiBaseUrl: string;
  readonly entryFor: EntryFor;
  /** Where the tier's alarms go (queue age, dead letters, failed executions, its functions). */
  readonly alarms: StageAlarms;
  /** Keeps what the sweep schedule could not deliver and the sweeper's failed invocations. */
  readonly failedEvents: FailedEvents;
  /** Reserved concurrency of each function that calls the registry (lib/registry-capacity.ts); unset, none. */
  readonly registryConcurrency?: number;
  /** Makes each function's `live` alias (and deployment group), which the queue, workflow and schedule invoke. */
  readonly liveAliases: LiveAliases;
}

/**
 * The asynchronous tier (spec 2.5, 3.1, 6): the fulfilment queue and its dead-letter queue (with an
 * alarm), the starter that turns messages into executions, the Step Functions workflow of
 * `shared/orders/fulfilment.asl.json` with one function per Task substitution, the stage's event
 * bus, and the sweeper that requeues stalled work. Stateless: the orders live in the main table,
 * from which the sweeper restarts anything a lost message or execution left behind.
 */
export class Fulfilment extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  readonly eventBus: EventBus;
  readonly stateMachine: StateMachine;
  /** Task functions by `substitution`. */
  readonly taskFunctions: ReadonlyMap<string, ApiFunction>;
  readonly starter: ApiFunction;
  readonly sweeper: ApiFunction;
  /** Every function of the tier by its name (tasks, starter, sweeper). */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  /** The `live` alias of every function of the tier, by the function's name: what its invokers call. */
  readonly aliases: ReadonlyMap<string, Alias>;
  private readonly made = new Map<string, ApiFunction>();
  private readonly madeAliases = new Map<string, Alias>();

  constructor(scope: Construct, id: string, props: FulfilmentProps) {
    super(scope, id);
    const { settings } = props;
    const stack = Stack.of(this);

    ({
      queue: this.queue,
      deadLetterQueue: this.deadLetterQueue,
      deadLetterAlarm: this.deadLetterAlarm,
    } = queueWithDeadLetters(this, {
      name: 'Fulfilment',
      visibilityTimeout: QUEUE_VISIBILITY_TIMEOUT,
      alarms: props.alarms,
      whatWaits:
        'orders or offline searches were not started (the sweeper retries stalled ones; inspect and redrive the DLQ).',
    }));

    this.eventBus = new EventBus(this, 'EventBus', { eventBusName: `company-register-${settings.stage}` });

    const tasks = new Map<string, ApiFunction>();
    // The task functions' live aliases by substitution: the definition invokes those.
    const taskAliases = new Map<string, Alias>();
    for (const task of workflowTasks) {
      if (tasks.has(task.substitution))
        throw new Error(`duplicate workflow substitution ${task.substitution}`);
      tasks.set(task.substitution, this.createTask(task, props));
      taskAliases.set(task.substitution, this.aliasOf(task.name));
    }
    this.taskFunctions = tasks;

    const stateMachineName = `company-register-${settings.stage}-fulfilment`;
    // The state machine's ARN built from its name, for what must not reference the state machine:
    // it references the task functions' live aliases, which sit in the Monitoring nested stack
    // beside the alarms, and that stack references the starter (its alias) and the alarm's metric;
    // a reference back would be a cycle.
    const stateMachineArn = Arn.format({
      partition: Aws.PARTITION,
      region: Aws.REGION,
      account: Aws.ACCOUNT_ID,
      service: 'states',
      resource: 'stateMachine',
      resourceName: stateMachineName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const workflowLogs = new LogGroup(this, 'WorkflowLogs', {
      logGroupName: perCreationLogGroupName(this, `/aws/vendedlogs/states/${stateMachineName}`),
    });
    const workflowRole = new Role(this, 'WorkflowRole', {
      assumedBy: accountServicePrincipal(this, 'states.amazonaws.com'),
      description: 'Execution role of the fulfilment state machine',
    });
    // The task functions' live aliases, which the definition invokes, and nothing else
    // (`grantInvoke` would add `<arn>:*` for every version and alias).
    workflowRole.addToPolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [...taskAliases.values()].map((alias) => alias.functionArn),
      }),
    );
    this.stateMachine = new StateMachine(this, 'Workflow', {
      stateMachineName,
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromFile(join(PROJECT_ROOT, WORKFLOW_DEFINITION)),
      definitionSubstitutions: Object.fromEntries(
        [...taskAliases].map(([substitution, alias]) => [substitution, alias.functionArn]),
      ),
      role: workflowRole,
      tracingEnabled: true,
      // Execution data is ids, statuses and error causes (the steps return no personal data).
      logs: { destination: workflowLogs, level: LogLevel.ALL, includeExecutionData: true },
    });
    Validations.of(workflowRole).acknowledge(acknowledgements.stateMachineWildcards);
    // `metricFailed`, on the ARN built from the name.
    props.alarms.add('WorkflowFailures', {
      metric: new Metric({
        namespace: 'AWS/States',
        metricName: 'ExecutionsFailed',
        dimensionsMap: { StateMachineArn: stateMachineArn },
        period: periodOf(ORDERS_ALARM_THRESHOLDS.workflowFailures),
        statistic: Stats.SUM,
      }),
      threshold: ORDERS_ALARM_THRESHOLDS.workflowFailures,
      summary: 'Fulfilment executions failed: orders or offline searches stopped in a fault.',
    });

    this.starter = this.createFunction(FULFILMENT_STARTER, STARTER_DESCRIPTION, props, {
      timeout: STARTER_TIMEOUT,
    });
    // What `grantStartExecution` grants, on the ARN built from the name.
    this.starter.addEnvironment(ORDERS_ENV.stateMachineArn, stateMachineArn);
    this.starter.addToRolePolicy(
      new PolicyStatement({ actions: ['states:StartExecution'], resources: [stateMachineArn] }),
    );
    consumeOnAlias(this, 'StarterQueueSource', {
      queue: this.queue,
      fn: this.starter,
      alias: this.aliasOf(FULFILMENT_STARTER.name),
      batchSize: STARTER_BATCH_SIZE,
      maxConcurrency: CONSUMER_CONCURRENCY.fulfilmentStarter,
    });

    this.sweeper = this.createFunction(FULFILMENT_SWEEPER, SWEEPER_DESCRIPTION, props, {
      timeout: SWEEPER_TIMEOUT,
      readsSecrets: true,
      callsRegistry: true,
      invokedAsynchronously: true,
    });
    const sweeperAlias = this.aliasOf(FULFILMENT_SWEEPER.name);
    props.failedEvents.keepFailedInvocations(this.sweeper, sweeperAlias);
    // It commits purchases a request left unfinished, asking the registry what became of them, and
    // forgets those the registry refused (deletes their records).
    this.sweeper.bindTable(props.mainTable, tableDefinitions.main, 'readWriteDelete');
    this.sweeper.bindRegistry(props.settings.registryUrl, props.registryCredentialSecret);
    this.sweeper.bindQueueSender(this.queue, ORDERS_ENV.queueUrl);
    // It publishes events recorded but never published (their run stopped in between).
    this.sweeper.addEnvironment(PLATFORM_ENV.eventBus, this.eventBus.eventBusName);
    this.eventBus.grantPutEventsTo(this.sweeper);
    // It mails a spend alert's billing recipients before it publishes the alert's event.
    this.sweeper.bindMail(PLATFORM_ENV.mailFrom, props.settings.mailFrom);
    // Those are the account's billing and admin members: a query of the keys table's byAccount
    // index, and nothing else of that table (no key, session or link item is read by its key).
    this.sweeper.bindIndexQuery(props.keysTable, tableDefinitions.keys, MEMBERS_INDEX);
    new Rule(this, 'SweepSchedule', {
      description: 'Requeues stalled orders and offline searches, and finishes purchases left uncommitted',
      schedule: Schedule.rate(SWEEP_INTERVAL),
      targets: [
        new LambdaFunction(sweeperAlias, { retryAttempts: 0, deadLetterQueue: props.failedEvents.queue }),
      ],
    });

    this.functions = this.made;
    this.aliases = this.madeAliases;
    new CfnOutput(stack, 'FulfilmentQueueUrl', { value: this.queue.queueUrl });
    new CfnOutput(stack, 'FulfilmentDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
    new CfnOutput(stack, 'FulfilmentStateMachineArn', { value: this.stateMachine.stateMachineArn });
    new CfnOutput(stack, 'EventBusName', { value: this.eventBus.eventBusName });
  }

  private createTask(task: WorkflowTask, props: FulfilmentProps): ApiFunction {
    const needs = new Set(task.needs);
    const fn = this.createFunction(task, taskDescription(task), props, {
      timeout: Duration.seconds(task.timeoutSeconds),
      memorySize: task.memoryMb,
      readsSecrets: needs.has('registry'),
      callsRegistry: needs.has('registry'),
    });
    fn.bindTable(
      props.mainTable,
      tableDefinitions.main,
      needs.has('deletes') ? 'readWriteDelete' : 'readWrite',
    );
    if (needs.has('registry')) fn.bindRegistry(props.settings.registryUrl, props.registryCredentialSecret);
    if (needs.has('blobs')) {
      fn.bindBucket(props.ordersBucket, ORDERS_ENV.bucket, 'readWrite', ORDER_BLOB_PREFIXES);
    }
    if (needs.has('mail')) fn.bindMail(PLATFORM_ENV.mailFrom, props.settings.mailFrom);
    if (needs.has('events')) {
      fn.addEnvironment(PLATFORM_ENV.eventBus, this.eventBus.eventBusName);
      fn.addEnvironment(PLATFORM_ENV.apiBaseUrl, props.apiBaseUrl);
      this.eventBus.grantPutEventsTo(fn);
    }
    return fn;
  }

  private createFunction(
    module: { readonly name: string; readonly handler: string },
    description: string,
    props: FulfilmentProps,
    options: {
      timeout: Duration;
      memorySize?: number;
      readsSecrets?: boolean;
      /** Gets the registry's reserved concurrency share. */
      callsRegistry?: boolean;
      /** By a schedule (else by Step Functions or the queue, synchronously). */
      invokedAsynchronously?: boolean;
    },
  ): ApiFunction {
    const fn = new ApiFunction(this, `${module.name}Function`, {
      entry: props.entryFor(module),
      description,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      timeout: options.timeout,
      ...(options.memorySize ? { memorySize: options.memorySize } : {}),
      readsSecrets: options.readsSecrets ?? false,
      ...(options.callsRegistry && props.registryConcurrency !== undefined
        ? { reservedConcurrentExecutions: props.registryConcurrency }
        : {}),
    });
    Validations.of(fn).acknowledge(acknowledgements.runtimeVersion, acknowledgements.latestRuntime);
    if (!options.invokedAsynchronously)
      Validations.of(fn).acknowledge(acknowledgements.synchronousInvocation);
    Validations.of(fn.role ?? fn).acknowledge(acknowledgements.xrayWildcard);
    const { errors } = props.alarms.forFunction(module.name, fn);
    this.made.set(module.name, fn);
    this.madeAliases.set(module.name, props.liveAliases.aliasOf(module.name, fn, errors));
    return fn;
  }

  private aliasOf(name: string): Alias {
    const alias = this.madeAliases.get(name);
    if (!alias) throw new Error(`no live alias for ${name}`);
    return alias;
  }
}
