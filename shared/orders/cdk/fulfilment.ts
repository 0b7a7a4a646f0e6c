import { join } from 'node:path';
import { Arn, ArnFormat, Aws, CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import { type Alarm, Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { periodOf } from '../../../lib/alarms.ts';
import { workflowFunctionDescription } from '../../../lib/constructs/api-function.ts';
import type { FailedEvents } from '../../../lib/constructs/failed-events.ts';
import { perCreationLogGroupName } from '../../../lib/constructs/log-retention.ts';
import { consumeOnAlias, queueWithDeadLetters } from '../../../lib/constructs/queue-with-dead-letters.ts';
import { accountServicePrincipal } from '../../../lib/constructs/service-principal.ts';
import { byModuleName, WorkerFunction, type WorkerScope } from '../../../lib/constructs/worker-function.ts';
import { ORDER_BLOB_PREFIXES } from '../../../lib/data-stack.ts';
import { acknowledgements } from '../../../lib/nag.ts';
import { PROJECT_ROOT } from '../../../lib/routes.ts';
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

/** `registryConcurrency`: of each function that calls the registry; the queue, workflow and schedule invoke the live aliases. */
export interface FulfilmentProps extends WorkerScope {
  readonly settings: Settings;
  readonly mainTable: ITable;
  /** The keys table: the sweeper lists an account's members to mail its spend alerts. */
  readonly keysTable: ITable;
  readonly registryCredentialSecret: ISecret;
  readonly ordersBucket: IBucket;
  /** Base URL of the API without a trailing `/` (`API_BASE_URL`, for `downloadUrl`). */
  readonly apiBaseUrl: string;
  /** Keeps what the sweep schedule could not deliver and the sweeper's failed invocations. */
  readonly failedEvents: FailedEvents;
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
  /** Task functions by `substitution`, each with the `live` alias the workflow invokes. */
  readonly taskFunctions: ReadonlyMap<string, WorkerFunction>;
  readonly starter: WorkerFunction;
  readonly sweeper: WorkerFunction;
  /** Every function of the tier by its name (tasks, starter, sweeper). */
  readonly functions: ReadonlyMap<string, WorkerFunction>;

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

    const tasks = new Map<string, WorkerFunction>();
    for (const task of workflowTasks) {
      if (tasks.has(task.substitution))
        throw new Error(`duplicate workflow substitution ${task.substitution}`);
      tasks.set(task.substitution, this.createTask(task, props));
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
        resources: [...tasks.values()].map((fn) => fn.alias.functionArn),
      }),
    );
    this.stateMachine = new StateMachine(this, 'Workflow', {
      stateMachineName,
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromFile(join(PROJECT_ROOT, WORKFLOW_DEFINITION)),
      definitionSubstitutions: Object.fromEntries(
        [...tasks].map(([substitution, fn]) => [substitution, fn.alias.functionArn]),
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

    this.starter = new WorkerFunction(this, FULFILMENT_STARTER, props, {
      description: STARTER_DESCRIPTION,
      timeout: STARTER_TIMEOUT,
      invocation: 'synchronous',
    });
    // What `grantStartExecution` grants, on the ARN built from the name.
    this.starter.addEnvironment(ORDERS_ENV.stateMachineArn, stateMachineArn);
    this.starter.addToRolePolicy(
      new PolicyStatement({ actions: ['states:StartExecution'], resources: [stateMachineArn] }),
    );
    consumeOnAlias(this, 'StarterQueueSource', {
      queue: this.queue,
      fn: this.starter,
      alias: this.starter.alias,
      batchSize: STARTER_BATCH_SIZE,
      maxConcurrency: CONSUMER_CONCURRENCY.fulfilmentStarter,
    });

    this.sweeper = new WorkerFunction(this, FULFILMENT_SWEEPER, props, {
      description: SWEEPER_DESCRIPTION,
      timeout: SWEEPER_TIMEOUT,
      callsRegistry: true,
      invocation: 'asynchronous',
    });
    props.failedEvents.keepFailedInvocations(this.sweeper, this.sweeper.alias);
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
        new LambdaFunction(this.sweeper.alias, {
          retryAttempts: 0,
          deadLetterQueue: props.failedEvents.queue,
        }),
      ],
    });

    this.functions = byModuleName(...tasks.values(), this.starter, this.sweeper);
    new CfnOutput(stack, 'FulfilmentQueueUrl', { value: this.queue.queueUrl });
    new CfnOutput(stack, 'FulfilmentDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
    new CfnOutput(stack, 'FulfilmentStateMachineArn', { value: this.stateMachine.stateMachineArn });
    new CfnOutput(stack, 'EventBusName', { value: this.eventBus.eventBusName });
  }

  private createTask(task: WorkflowTask, props: FulfilmentProps): WorkerFunction {
    const needs = new Set(task.needs);
    const fn = new WorkerFunction(this, task, props, {
      description: taskDescription(task),
      timeout: Duration.seconds(task.timeoutSeconds),
      memorySize: task.memoryMb,
      callsRegistry: needs.has('registry'),
      invocation: 'synchronous',
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
}
