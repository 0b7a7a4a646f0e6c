import { sendJsonBatches } from '../../adapters/aws/sqs-api.ts';
import type { WebhookMessage, WebhookQueue } from '../store-port.ts';

/** The dispatcher's queue: attempts (retries, resends, tests), ten messages per `SendMessageBatch`. */
export class SqsWebhookQueue implements WebhookQueue {
  constructor(private readonly queueUrl: string) {}

  send(messages: readonly WebhookMessage[]): Promise<void> {
    return sendJsonBatches(this.queueUrl, messages, 'webhook messages');
  }
}
