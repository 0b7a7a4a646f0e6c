import { requestImages, type WorkflowInput } from '../../shared/orders/fulfil.ts';
import { workflowStep } from '../../shared/orders/services/step.ts';

export const handler = workflowStep('requestImages', (deps, input: WorkflowInput) =>
  requestImages(deps, input),
);
