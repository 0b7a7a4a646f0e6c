import { required } from '../../kernel/config.ts';
import { SqsFulfilmentQueue } from '../../orders/adapters/sqs-queue.ts';
import type { CapabilityFactory } from './root.ts';

export const queue: CapabilityFactory<'queue'> = (root) =>
  new SqsFulfilmentQueue(required(root.config.fulfilmentQueueUrl, 'FULFILMENT_QUEUE_URL'));
