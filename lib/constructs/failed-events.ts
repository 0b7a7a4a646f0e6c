import { Validations } from 'aws-cdk-lib';
import { Stats } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { periodOf, type StageAlarms } from '../alarms.ts';
import { acknowledgements } from '../nag.ts';
import { type ApiFunction, QUEUE_SEND_ACTION } from './api-function.ts';
import { DLQ_RETENTION } from './queue-with-dead-letters.ts';

/**
 * Where an event the service could not deliver ends up, instead of being dropped: the dead-letter
 * queue of every EventBridge rule target (the schedules and the webhook forwarding), the
 * on-failure destination of every asynchronously invoked function (the scheduled sweeper and
 * webhook retry), and the redrive queue of the alarm email subscription. One queue, kept 14 days,
 * with an alarm on its first message (docs/operations.md says how to read and redrive each kind).
 */
export class FailedEvents extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string, props: { alarms: StageAlarms }) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DLQ_RETENTION,
    });
    Validations.of(this.queue).acknowledge(
      acknowledgements.deadLetterQueueRedrive,
      acknowledgements.failedEventsQueue,
    );
    props.alarms.add('FailedEvents', {
      metric: this.queue.metricApproximateNumberOfMessagesVisible({
        period: periodOf('deadLetters'),
        statistic: Stats.MAXIMUM,
      }),
      threshold: 'deadLetters',
      summary:
        'An event or invocation could not be delivered (a schedule, the webhook forwarding, a scheduled ' +
        'function that failed all its attempts, or an alarm email).',
    });
  }

  /**
   * A function invoked asynchronously (by a schedule) through its live alias: a failed invocation
   * is kept here with its error. The configuration is the alias's (Lambda keeps one per qualifier,
   * and the schedule invokes the alias). The role gets `sqs:SendMessage` on this queue alone
   * (`SqsDestination` would add `GetQueueAttributes` and `GetQueueUrl`, which Lambda does not need
   * to deliver the record).
   */
  keepFailedInvocations(fn: ApiFunction, alias: Alias): void {
    const queue = this.queue;
    alias.configureAsyncInvoke({
      onFailure: {
        bind: () => {
          fn.addToRolePolicy(
            new PolicyStatement({ actions: [QUEUE_SEND_ACTION], resources: [queue.queueArn] }),
          );
          return { destination: queue.queueArn };
        },
      },
    });
    Validations.of(fn).acknowledge(acknowledgements.asyncFailureDestination);
  }
}
