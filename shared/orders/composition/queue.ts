/** The fulfilment queue an accepted order or offline search is sent to, on SQS (the local stack's stand-in is in shared/orders/local/). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { required } from '../../kernel/config.ts';
import { SqsFulfilmentQueue } from '../adapters/sqs-queue.ts';
import { ORDERS_ENV } from '../env.ts';

export const queue: PortFactory<'queue'> = () =>
  new SqsFulfilmentQueue(required(process.env[ORDERS_ENV.queueUrl], ORDERS_ENV.queueUrl));
