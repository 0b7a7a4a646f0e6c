import type { OrderStore } from '../store-port.ts';
import {
  callerOf,
  IMAGE_POLLING,
  imageBatches,
  loadOrder,
  type PollState,
  type RegistryFor,
  type WorkflowInput,
} from './common.ts';
import { SIMULATED_FAILURE, STEP_ERRORS, StepFailure } from './failure.ts';
import { registryCall } from './registry-call.ts';

export interface RequestImagesPorts {
  orders: Pick<OrderStore, 'get' | 'recordImageRequest'>;
  registryFor: RegistryFor;
}

/** One image request per 10 documents, each recorded under its batch index before the next. */
export async function requestImages(ports: RequestImagesPorts, input: WorkflowInput): Promise<PollState> {
  const order = await loadOrder(ports.orders, input.id);
  if (order.simulateFailure) throw new StepFailure(STEP_ERRORS.rejected, SIMULATED_FAILURE);
  const registry = ports.registryFor(order.environment);
  const batches = imageBatches(order);
  for (const [index, batch] of batches.entries()) {
    if (order.imageRequests[String(index)]) continue;
    const { registryRequestId } = await registryCall(() =>
      registry.requestImages(
        {
          clientKey: `${order.id}#${index}`,
          documents: batch.map((document) => ({
            documentNumber: document.documentNumber,
            pages: document.pages,
          })),
        },
        callerOf(order),
      ),
    );
    await ports.orders.recordImageRequest(order.id, index, registryRequestId);
  }
  return {
    state: batches.length === 0 ? 'ready' : 'waiting',
    attempt: 0,
    waitSeconds: IMAGE_POLLING.firstWaitSeconds,
    waitedSeconds: 0,
    unavailable: [],
  };
}
