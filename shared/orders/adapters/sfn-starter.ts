import { callJsonApi, type JsonApi } from '../../adapters/aws/json-call.ts';
import { AwsCallError } from '../../adapters/aws/signed-request.ts';
import type { FulfilmentMessage, WorkflowStarter } from '../store-port.ts';

const STEP_FUNCTIONS: JsonApi = {
  service: 'states',
  serviceId: 'SFN',
  targetPrefix: 'AWSStepFunctions',
  jsonVersion: '1.0',
  host: (region) => `states.${region}.amazonaws.com`,
};

/**
 * Starts the fulfilment state machine with `StartExecution` over Step Functions' JSON API
 * (shared/adapters/aws/json-call.ts, no SDK client). The execution name makes a start idempotent: Step Functions
 * answers a repeated name with the running execution (same input) or `ExecutionAlreadyExists`
 * (different input, or the execution has finished), and both mean the work was started already.
 */
export class StepFunctionsStarter implements WorkflowStarter {
  constructor(private readonly stateMachineArn: string) {}

  async start(name: string, input: FulfilmentMessage): Promise<void> {
    try {
      await callJsonApi(STEP_FUNCTIONS, 'StartExecution', {
        stateMachineArn: this.stateMachineArn,
        name,
        input: JSON.stringify(input),
      });
    } catch (error) {
      if (error instanceof AwsCallError && error.name === 'ExecutionAlreadyExists') return;
      throw error;
    }
  }
}
