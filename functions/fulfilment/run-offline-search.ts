import { runOfflineSearch, type WorkflowInput } from '../../shared/orders/fulfil.ts';
import { workflowStep } from '../../shared/orders/services/step.ts';

export const handler = workflowStep('runOfflineSearch', (deps, input: WorkflowInput) =>
  runOfflineSearch(deps, input),
);
