import { SqsWebhookQueue } from '../../adapters/aws/sqs-webhook-queue.ts';
import { required } from '../../kernel/config.ts';
import type { CapabilityFactory } from './root.ts';

export const webhookQueue: CapabilityFactory<'webhookQueue'> = (root) =>
  new SqsWebhookQueue(required(root.config.webhookQueueUrl, 'WEBHOOK_QUEUE_URL'));
