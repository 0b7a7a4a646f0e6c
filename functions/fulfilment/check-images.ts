import { checkImages, type PollState, type WorkflowInput } from '../../shared/orders/fulfil.ts';
import { workflowStep } from '../../shared/orders/services/step.ts';

export const handler = workflowStep('checkImages', (deps, input: WorkflowInput & { poll: PollState }) =>
  checkImages(deps, input),
);
