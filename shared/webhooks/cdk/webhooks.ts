import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { workflowFunctionDescription } from '../../../lib/constructs/api-function.ts';
import type { FailedEvents } from '../../../lib/constructs/failed-events.ts';
import { consumeOnAlias, queueWithDeadLetters } from '../../../lib/constructs/queue-with-dead-letters.ts';
import { allowSecretUse } from '../../../lib/constructs/webhook-secrets-key.ts';
import { byModuleName, WorkerFunction, type WorkerScope } from '../../../lib/constructs/worker-function.ts';
import { CONSUMER_CONCURRENCY } from '../../../lib/settings.ts';
import { tableDefinitions } from '../../kernel/infra/tables.ts';
import { DISPATCHER_TIMEOUT_SECONDS, WEBHOOK_DISPATCHER, WEBHOOK_ENV, WEBHOOK_RETRY } from '../infra.ts';

export const DISPATCHER_TIMEOUT = Duration.seconds(DISPATCHER_TIMEOUT_SECONDS);
/** Six times the dispatcher's timeout, as AWS advises for an SQS event source. */
export const WEBHOOK_QUEUE_VISIBILITY = Duration.seconds(6 * DISPATCHER_TIMEOUT_SECONDS);
export const DISPATCHER_BATCH_SIZE = 10;
export const RETRY_INTERVAL = Duration.minutes(1);
export const RETRY_TIMEOUT = Duration.seconds(60);
export { OPEN_ACTIONS, SEAL_ACTIONS } from '../../../lib/constructs/webhook-secrets-key.ts';

export const DISPATCHER_DESCRIPTION = workflowFunctionDescription(
  WEBHOOK_DISPATCHER,
  'sends webhook deliveries (events from the bus, retries, resends)',
);
export const RETRY_DESCRIPTION = workflowFunctionDescription(
  WEBHOOK_RETRY,
  'every minute: queues the webhook deliveries whose retry is due',
);

/** The queue and the schedule invoke the functions' live aliases. */
export interface WebhooksProps extends WorkerScope {
  readonly mainTable: ITable;
  /** The stage's event bus (Fulfilment): every service event is forwarded to the dispatcher queue. */
  readonly eventBus: IEventBus;
  /** The key sealing endpoint signing secrets (data stack). */
  readonly key: IKey;
  /** Keeps what the rules could not deliver and the retry function's failed invocations. */
  readonly failedEvents: FailedEvents;
}

/**
 * The webhook tier (spec 6, docs/webhooks.md): a rule forwarding every event of the bus to the
 * dispatcher queue (with its DLQ and an alarm), the dispatcher (Powertools batch, partial
 * failures), and the retry function on a one-minute schedule, which puts the deliveries whose next
 * attempt is due back on the same queue. Deliveries and their schedule live in the main table.
 */
export class Webhooks extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  /** Each with its `live` alias: what the queue and the schedule invoke. */
  readonly dispatcher: WorkerFunction;
  readonly retry: WorkerFunction;
  readonly rule: Rule;
  /** Every function of the tier by its name. */
  readonly functions: ReadonlyMap<string, WorkerFunction>;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    ({
      queue: this.queue,
      deadLetterQueue: this.deadLetterQueue,
      deadLetterAlarm: this.deadLetterAlarm,
    } = queueWithDeadLetters(this, {
      name: 'Webhooks',
      visibilityTimeout: WEBHOOK_QUEUE_VISIBILITY,
      alarms: props.alarms,
      whatWaits:
        'events were not fanned out or attempts not made (pending deliveries are retried by RetryWebhooks; ' +
        'inspect the DLQ and redrive it).',
    }));

    this.rule = new Rule(this, 'EventsToDispatcher', {
      description: 'Every service event to the webhook dispatcher queue',
      eventBus: props.eventBus,
      eventPattern: { source: ['company-register'] },
      targets: [
        new SqsQueue(this.queue, {
          retryAttempts: 185,
          maxEventAge: Duration.hours(24),
          deadLetterQueue: props.failedEvents.queue,
        }),
      ],
    });

    this.dispatcher = new WorkerFunction(this, WEBHOOK_DISPATCHER, props, {
      description: DISPATCHER_DESCRIPTION,
      timeout: DISPATCHER_TIMEOUT,
      invocation: 'synchronous',
    });
    this.dispatcher.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    allowSecretUse(this.dispatcher, props.key, 'open');
    consumeOnAlias(this, 'DispatcherQueueSource', {
      queue: this.queue,
      fn: this.dispatcher,
      alias: this.dispatcher.alias,
      batchSize: DISPATCHER_BATCH_SIZE,
      maxConcurrency: CONSUMER_CONCURRENCY.webhookDispatcher,
    });

    this.retry = new WorkerFunction(this, WEBHOOK_RETRY, props, {
      description: RETRY_DESCRIPTION,
      timeout: RETRY_TIMEOUT,
      invocation: 'asynchronous',
    });
    props.failedEvents.keepFailedInvocations(this.retry, this.retry.alias);
    this.retry.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    this.retry.bindQueueSender(this.queue, WEBHOOK_ENV.queueUrl);
    new Rule(this, 'RetrySchedule', {
      description: 'Queues the webhook deliveries whose next attempt is due',
      schedule: Schedule.rate(RETRY_INTERVAL),
      targets: [
        new LambdaFunction(this.retry.alias, { retryAttempts: 0, deadLetterQueue: props.failedEvents.queue }),
      ],
    });

    this.functions = byModuleName(this.dispatcher, this.retry);
    const stack = Stack.of(this);
    new CfnOutput(stack, 'WebhookQueueUrl', { value: this.queue.queueUrl });
    new CfnOutput(stack, 'WebhookDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
  }
}
