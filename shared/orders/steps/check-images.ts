import { toTimestamp } from '../../kernel/clock.ts';
import { registryRequestIdsOf } from '../present.ts';
import type { OrderStore } from '../store-port.ts';
import {
  type Clock,
  callerOf,
  IMAGE_POLLING,
  loadOrder,
  type PollState,
  type RegistryFor,
  type WorkflowInput,
} from './common.ts';
import { registryCall } from './registry-call.ts';

export interface CheckImagesPorts extends Clock {
  orders: Pick<OrderStore, 'get' | 'update'>;
  registryFor: RegistryFor;
}

export type CheckImagesInput = WorkflowInput & { poll: PollState };

/** Asks the registry where each image request stands; waits longer each time, up to a day. */
export async function checkImages(ports: CheckImagesPorts, input: CheckImagesInput): Promise<PollState> {
  const order = await loadOrder(ports.orders, input.id);
  const registry = ports.registryFor(order.environment);
  const waitedSeconds = input.poll.waitedSeconds + input.poll.waitSeconds;
  // Touching the order tells the sweeper this run is alive (see shared/orders/sweep.ts).
  await ports.orders.update(order.id, { updatedAt: toTimestamp(ports.now()) });
  const statuses = await Promise.all(
    registryRequestIdsOf(order).map((id) =>
      registryCall(() => registry.getImageRequest(id, callerOf(order))),
    ),
  );
  const failed = statuses.find((status) => status.status === 'failed');
  const base = { attempt: input.poll.attempt + 1, waitedSeconds, unavailable: [] as string[] };
  const failure = (registryCode: string | null, message: string): PollState => ({
    ...base,
    state: 'failed',
    waitSeconds: 0,
    failure: { code: 'images_unavailable', registryCode, message },
  });
  if (failed) {
    return failure(
      failed.failure?.registryCode ?? null,
      failed.failure?.message ?? `The registry could not fulfil image request ${failed.registryRequestId}.`,
    );
  }
  if (statuses.every((status) => status.status === 'complete')) {
    const unavailable = statuses.flatMap((status) =>
      status.documents.filter((document) => !document.available).map((document) => document.documentNumber),
    );
    const notices = unavailable.map(
      (number) => `The registry could not produce the image of document ${number}; it is not included.`,
    );
    if (notices.length > 0)
      await ports.orders.update(order.id, { notices, updatedAt: toTimestamp(ports.now()) });
    return { ...base, state: 'ready', waitSeconds: 0, unavailable };
  }
  if (waitedSeconds >= IMAGE_POLLING.giveUpAfterSeconds) {
    return failure(null, 'The registry had not produced the images after 24 hours.');
  }
  return {
    ...base,
    state: 'waiting',
    waitSeconds: Math.min(IMAGE_POLLING.firstWaitSeconds * 2 ** base.attempt, IMAGE_POLLING.maxWaitSeconds),
  };
}
