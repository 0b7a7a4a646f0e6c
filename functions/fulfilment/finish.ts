import { type FinishInput, finish } from '../../shared/orders/fulfil.ts';
import { workflowStep } from '../../shared/orders/services/step.ts';

export const handler = workflowStep('finish', (deps, input: FinishInput) => finish(deps, input));
