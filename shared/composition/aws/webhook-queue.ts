import { required } from '../../kernel/config.ts';
import { SqsWebhookQueue } from '../../webhooks/adapters/sqs-queue.ts';
import { WEBHOOK_ENV } from '../../webhooks/infra.ts';
import type { CapabilityFactory } from './root.ts';

// Webhooks' own setting, which the kernel's configuration does not know (shared/webhooks/infra.ts).
export const webhookQueue: CapabilityFactory<'webhookQueue'> = () =>
  new SqsWebhookQueue(required(process.env[WEBHOOK_ENV.queueUrl], WEBHOOK_ENV.queueUrl));
