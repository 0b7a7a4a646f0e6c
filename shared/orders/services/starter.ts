import { StepFunctionsStarter } from '../../adapters/aws/sfn-starter.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { WorkflowStarter } from '../../ports/orders.ts';
import { requiredEnv } from './env.ts';

/** The fulfilment state machine (`FULFILMENT_STATE_MACHINE_ARN`), its adapter built on first use. */
export function stepFunctionsStarter(): WorkflowStarter {
  let built: WorkflowStarter | undefined;
  return {
    start: (name, input) => {
      built ??= new StepFunctionsStarter(requiredEnv(ORDER_ENV.stateMachineArn));
      return built.start(name, input);
    },
  };
}
