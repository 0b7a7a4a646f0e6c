import { sendEmail, type WorkflowInput } from '../../shared/orders/fulfil.ts';
import { workflowStep } from '../../shared/orders/services/step.ts';

export const handler = workflowStep('sendEmail', (deps, input: WorkflowInput) => sendEmail(deps, input));
