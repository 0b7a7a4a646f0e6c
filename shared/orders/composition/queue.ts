/** The fulfilment queue an accepted order or offline search is sent to, on SQS (the local stack's stand-in is in shared/orders/local/). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { required } from '../../kernel/config.ts';
import { SqsFulfilmentQueue } from '../adapters/sqs-queue.ts';

export const queue: PortFactory<'queue'> = (root) =>
  new SqsFulfilmentQueue(required(root.config.fulfilmentQueueUrl, 'FULFILMENT_QUEUE_URL'));
