import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** A dead letter is kept this long, time enough to inspect and redrive it. */
export const DLQ_RETENTION = Duration.days(14);
/** A message is tried this often before it is moved to the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

export interface QueueWithDeadLetters {
  queue: Queue;
  deadLetterQueue: Queue;
  deadLetterAlarm: Alarm;
}

/**
 * A work queue (encrypted, TLS only) whose messages move to a dead-letter queue after
 * MAX_RECEIVE_COUNT receives, and an alarm on the first dead letter. Made in `scope` as
 * `Queue`, `DeadLetterQueue` and `DeadLetterAlarm`.
 */
export function queueWithDeadLetters(
  scope: Construct,
  props: { visibilityTimeout: Duration; alarmDescription: string },
): QueueWithDeadLetters {
  const deadLetterQueue = new Queue(scope, 'DeadLetterQueue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: DLQ_RETENTION,
  });
  const queue = new Queue(scope, 'Queue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: props.visibilityTimeout,
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
  });
  const deadLetterAlarm = new Alarm(scope, 'DeadLetterAlarm', {
    alarmDescription: props.alarmDescription,
    metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: Stats.MAXIMUM,
    }),
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  return { queue, deadLetterQueue, deadLetterAlarm };
}
