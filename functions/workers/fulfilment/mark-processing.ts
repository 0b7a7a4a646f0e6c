import { awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { orders } from '../../../shared/orders/composition.ts';
import { workflowTask } from '../../../shared/orders/instrumented.ts';
import type { WorkflowInput } from '../../../shared/orders/steps/common.ts';
import { type MarkProcessingPorts, markProcessing } from '../../../shared/orders/steps/mark-processing.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: MarkProcessingPorts) =>
  workflowTask('MarkProcessing', (input: WorkflowInput) => markProcessing(ports, input));

export const handler = createHandler(awsPorts({ orders, now }));
