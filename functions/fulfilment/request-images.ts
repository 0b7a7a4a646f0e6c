import { workflowTask } from '../../shared/orders/services/instrumented.ts';
import { registries } from '../../shared/orders/services/registry.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import type { WorkflowInput } from '../../shared/orders/steps/common.ts';
import { type RequestImagesPorts, requestImages } from '../../shared/orders/steps/request-images.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: RequestImagesPorts) =>
  workflowTask('RequestImages', (input: WorkflowInput) => requestImages(ports, input));

export const handler = createHandler({ orders: orderStore(), registryFor: registries() });
