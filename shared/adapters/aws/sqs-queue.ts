import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { tracer } from '../../kernel/observability.ts';
import type { FulfilmentMessage, FulfilmentQueue } from '../../orders/store-port.ts';

let client: SQSClient | undefined;

/** One client per process, created on first use. */
const sqs = (): SQSClient => {
  client ??= tracer.captureAWSv3Client(new SQSClient({}));
  return client;
};

/** Sends accepted orders and offline searches (and the sweeper's restarts) to the fulfilment queue. */
export class SqsFulfilmentQueue implements FulfilmentQueue {
  constructor(private readonly queueUrl: string) {}

  async send(message: FulfilmentMessage): Promise<void> {
    await sqs().send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) }),
    );
  }
}
