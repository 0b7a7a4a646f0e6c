import { SqsFulfilmentQueue } from '../../adapters/aws/sqs-queue.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { FulfilmentQueue } from '../../ports/orders.ts';
import { overrides, requiredEnv } from './overrides.ts';

let built: FulfilmentQueue | undefined;

export const fulfilmentQueue = (): FulfilmentQueue => {
  if (overrides.queue) return overrides.queue;
  built ??= new SqsFulfilmentQueue(requiredEnv(ORDER_ENV.queueUrl));
  return built;
};
