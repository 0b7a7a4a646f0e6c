import { markProcessing, type WorkflowInput } from '../../shared/orders/fulfil.ts';
import { workflowStep } from '../../shared/orders/services/step.ts';

export const handler = workflowStep('markProcessing', (deps, input: WorkflowInput) =>
  markProcessing(deps, input),
);
