/** The dispatcher queue, on SQS (the local stack's stand-in is in shared/webhooks/local/). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { required } from '../../kernel/config.ts';
import { SqsWebhookQueue } from '../adapters/sqs-queue.ts';
import { WEBHOOK_ENV } from '../infra.ts';

// Webhooks' own setting, which the kernel's configuration does not know (infra.ts).
export const webhookQueue: PortFactory<'webhookQueue'> = () =>
  new SqsWebhookQueue(required(process.env[WEBHOOK_ENV.queueUrl], WEBHOOK_ENV.queueUrl));
