import { StepFunctionsStarter } from '../../adapters/aws/sfn-starter.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { WorkflowStarter } from '../../ports/orders.ts';
import { overrides, requiredEnv } from './overrides.ts';

let built: WorkflowStarter | undefined;

export const workflowStarter = (): WorkflowStarter => {
  if (overrides.starter) return overrides.starter;
  built ??= new StepFunctionsStarter(requiredEnv(ORDER_ENV.stateMachineArn));
  return built;
};
