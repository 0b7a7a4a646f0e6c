import { Duration, Validations } from 'aws-cdk-lib';
import { type Alarm, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import { type Alias, EventSourceMapping, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type NamedThreshold, periodOf, type StageAlarms } from '../alarms.ts';
import { acknowledgements } from '../nag.ts';

/** A dead letter is kept this long, time enough to inspect and redrive it. */
export const DLQ_RETENTION = Duration.days(14);
/** A message is tried this often before it is moved to the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

export interface QueueWithDeadLetters {
  queue: Queue;
  deadLetterQueue: Queue;
  deadLetterAlarm: Alarm;
  queueAgeAlarm: Alarm;
}

/**
 * A work queue (encrypted, TLS only) whose messages move to a dead-letter queue after
 * MAX_RECEIVE_COUNT receives, with two alarms: a dead letter (`<name>DeadLetters`) and the oldest
 * message waiting too long (`<name>QueueAge`). The queues are made in `scope` as `Queue` and
 * `DeadLetterQueue`, the alarms by `alarms`.
 */
export function queueWithDeadLetters(
  scope: Construct,
  props: {
    name: string;
    visibilityTimeout: Duration;
    alarms: StageAlarms;
    whatWaits: string;
    /** The oldest message's alarm threshold (default `queueAgeSeconds`, for queues consumed within seconds): a capability's own. */
    ageThreshold?: NamedThreshold;
  },
): QueueWithDeadLetters {
  const ageThreshold = props.ageThreshold ?? 'queueAgeSeconds';
  const deadLetterQueue = new Queue(scope, 'DeadLetterQueue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: DLQ_RETENTION,
  });
  Validations.of(deadLetterQueue).acknowledge(acknowledgements.deadLetterQueueRedrive);
  const queue = new Queue(scope, 'Queue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: props.visibilityTimeout,
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
  });
  const deadLetterAlarm = props.alarms.add(`${props.name}DeadLetters`, {
    metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: periodOf('deadLetters'),
      statistic: Stats.MAXIMUM,
    }),
    threshold: 'deadLetters',
    summary: `${props.name} messages reached the dead-letter queue: ${props.whatWaits}`,
  });
  const queueAgeAlarm = props.alarms.add(`${props.name}QueueAge`, {
    metric: queue.metricApproximateAgeOfOldestMessage({
      period: periodOf(ageThreshold),
      statistic: Stats.MAXIMUM,
    }),
    threshold: ageThreshold,
    summary: `${props.name} messages are waiting unconsumed.`,
  });
  return { queue, deadLetterQueue, deadLetterAlarm, queueAgeAlarm };
}

/**
 * `queue` feeding a function's `live` alias (what `SqsEventSource` makes, on the alias: a deployment
 * shifts the queue's work too), reporting each failed message on its own, at most `maxConcurrency`
 * instances; the function may consume the queue.
 */
export function consumeOnAlias(
  scope: Construct,
  id: string,
  props: { queue: IQueue; fn: IFunction; alias: Alias; batchSize: number; maxConcurrency: number },
): EventSourceMapping {
  const source = new EventSourceMapping(scope, id, {
    target: props.alias,
    eventSourceArn: props.queue.queueArn,
    batchSize: props.batchSize,
    reportBatchItemFailures: true,
    maxConcurrency: props.maxConcurrency,
  });
  Validations.of(source).acknowledge(acknowledgements.sqsEventSourceDestination);
  props.queue.grantConsumeMessages(props.fn);
  return source;
}
