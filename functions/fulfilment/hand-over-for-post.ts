import { handOverForPost, type WorkflowInput } from '../../shared/orders/fulfil.ts';
import { workflowStep } from '../../shared/orders/services/step.ts';

export const handler = workflowStep('handOverForPost', (deps, input: WorkflowInput) =>
  handOverForPost(deps, input),
);
