import { registryFor } from '../../../shared/composition/aws/registry.ts';
import { awsPorts } from '../../../shared/composition/aws/root.ts';
import { orders } from '../../../shared/orders/composition.ts';
import { workflowTask } from '../../../shared/orders/instrumented.ts';
import type { WorkflowInput } from '../../../shared/orders/steps/common.ts';
import { type RequestImagesPorts, requestImages } from '../../../shared/orders/steps/request-images.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: RequestImagesPorts) =>
  workflowTask('RequestImages', (input: WorkflowInput) => requestImages(ports, input));

export const handler = createHandler(awsPorts({ orders, registryFor }));
