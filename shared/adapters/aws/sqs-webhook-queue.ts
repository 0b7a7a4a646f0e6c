import type { WebhookMessage, WebhookQueue } from '../../webhooks/store-port.ts';
import { callJsonApi } from './json-call.ts';
import { SQS } from './sqs-api.ts';

interface SendMessageBatchOutput {
  Failed?: { Id: string; Code?: string; Message?: string }[];
}

/** The dispatcher's queue: attempts (retries, resends, tests), ten messages per `SendMessageBatch`. */
export class SqsWebhookQueue implements WebhookQueue {
  constructor(private readonly queueUrl: string) {}

  async send(messages: readonly WebhookMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      const output = await callJsonApi<SendMessageBatchOutput>(SQS, 'SendMessageBatch', {
        QueueUrl: this.queueUrl,
        Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
      });
      if (output.Failed?.length) {
        throw new Error(
          `SQS refused ${output.Failed.length} webhook messages: ${output.Failed[0]?.Code ?? ''}`,
        );
      }
    }
  }
}
