import { join } from 'node:path';
import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StageAlarms } from '../../../lib/alarms.ts';
import { ApiFunction, workflowFunctionDescription } from '../../../lib/constructs/api-function.ts';
import type { FailedEvents } from '../../../lib/constructs/failed-events.ts';
import type { LiveAliases } from '../../../lib/constructs/live-alias.ts';
import { consumeOnAlias, queueWithDeadLetters } from '../../../lib/constructs/queue-with-dead-letters.ts';
import { allowSecretUse } from '../../../lib/constructs/webhook-secrets-key.ts';
import { acknowledgements } from '../../../lib/nag.ts';
import { type EntryFor, PROJECT_ROOT } from '../../../lib/routes.ts';
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

export interface WebhooksProps {
  readonly mainTable: ITable;
  /** The stage's event bus (Fulfilment): every service event is forwarded to the dispatcher queue. */
  readonly eventBus: IEventBus;
  /** The key sealing endpoint signing secrets (data stack). */
  readonly key: IKey;
  readonly entryFor: EntryFor;
  /** Where the tier's alarms go (queue age, dead letters, its functions). */
  readonly alarms: StageAlarms;
  /** Keeps what the rules could not deliver and the retry function's failed invocations. */
  readonly failedEvents: FailedEvents;
  /** Makes each function's `live` alias (and deployment group), which the queue and schedule invoke. */
  readonly liveAliases: LiveAliases;
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
  readonly dispatcher: ApiFunction;
  readonly retry: ApiFunction;
  readonly rule: Rule;
  /** Every function of the tier by its name. */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  /** The `live` alias of every function of the tier, by the function's name: what its invokers call. */
  readonly aliases: ReadonlyMap<string, Alias>;
  private readonly made = new Map<string, ApiFunction>();
  private readonly madeAliases = new Map<string, Alias>();

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

    this.dispatcher = this.createFunction(
      WEBHOOK_DISPATCHER,
      DISPATCHER_DESCRIPTION,
      props,
      DISPATCHER_TIMEOUT,
    );
    this.dispatcher.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    allowSecretUse(this.dispatcher, props.key, 'open');
    consumeOnAlias(this, 'DispatcherQueueSource', {
      queue: this.queue,
      fn: this.dispatcher,
      alias: this.aliasOf(WEBHOOK_DISPATCHER.name),
      batchSize: DISPATCHER_BATCH_SIZE,
      maxConcurrency: CONSUMER_CONCURRENCY.webhookDispatcher,
    });

    Validations.of(this.dispatcher).acknowledge(acknowledgements.synchronousInvocation);

    this.retry = this.createFunction(WEBHOOK_RETRY, RETRY_DESCRIPTION, props, RETRY_TIMEOUT);
    const retryAlias = this.aliasOf(WEBHOOK_RETRY.name);
    props.failedEvents.keepFailedInvocations(this.retry, retryAlias);
    this.retry.bindTable(props.mainTable, tableDefinitions.main, 'readWrite');
    this.retry.bindQueueSender(this.queue, WEBHOOK_ENV.queueUrl);
    new Rule(this, 'RetrySchedule', {
      description: 'Queues the webhook deliveries whose next attempt is due',
      schedule: Schedule.rate(RETRY_INTERVAL),
      targets: [
        new LambdaFunction(retryAlias, { retryAttempts: 0, deadLetterQueue: props.failedEvents.queue }),
      ],
    });

    this.functions = this.made;
    this.aliases = this.madeAliases;
    const stack = Stack.of(this);
    new CfnOutput(stack, 'WebhookQueueUrl', { value: this.queue.queueUrl });
    new CfnOutput(stack, 'WebhookDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
  }

  private createFunction(
    module: { readonly name: string; readonly handler: string },
    description: string,
    props: WebhooksProps,
    timeout: Duration,
  ): ApiFunction {
    const fn = new ApiFunction(this, `${module.name}Function`, {
      entry: props.entryFor(module),
      description,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      timeout,
      readsSecrets: false,
    });
    Validations.of(fn).acknowledge(acknowledgements.runtimeVersion, acknowledgements.latestRuntime);
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
