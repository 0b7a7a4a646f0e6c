import { compilePdf, type PollState, type WorkflowInput } from '../../shared/orders/fulfil.ts';
import { workflowStep } from '../../shared/orders/services/step.ts';

export const handler = workflowStep('compilePdf', (deps, input: WorkflowInput & { poll?: PollState }) =>
  compilePdf(deps, input),
);
