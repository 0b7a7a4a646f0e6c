import { SqsFulfilmentQueue } from '../../adapters/aws/sqs-queue.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { FulfilmentQueue } from '../../ports/orders.ts';
import { requiredEnv } from './env.ts';

/** The fulfilment queue (`FULFILMENT_QUEUE_URL`), its adapter built on first use. */
export function sqsFulfilmentQueue(): FulfilmentQueue {
  let built: FulfilmentQueue | undefined;
  return {
    send: (message) => {
      built ??= new SqsFulfilmentQueue(requiredEnv(ORDER_ENV.queueUrl));
      return built.send(message);
    },
  };
}
