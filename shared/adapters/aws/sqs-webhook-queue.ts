import type { WebhookMessage, WebhookQueue } from '../../webhooks/store-port.ts';
import { sendJsonBatches } from './sqs-api.ts';

/** The dispatcher's queue: attempts (retries, resends, tests), ten messages per `SendMessageBatch`. */
export class SqsWebhookQueue implements WebhookQueue {
  constructor(private readonly queueUrl: string) {}

  send(messages: readonly WebhookMessage[]): Promise<void> {
    return sendJsonBatches(this.queueUrl, messages, 'webhook messages');
  }
}
