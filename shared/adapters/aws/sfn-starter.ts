import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { tracer } from '../../kernel/observability.ts';
import type { FulfilmentMessage, WorkflowStarter } from '../../orders/store-port.ts';

let client: SFNClient | undefined;

/** One client per process, created on first use. */
const sfn = (): SFNClient => {
  client ??= tracer.captureAWSv3Client(new SFNClient({}));
  return client;
};

/**
 * Starts the fulfilment state machine. The execution name makes a start idempotent: Step Functions
 * answers a repeated name with the running execution (same input) or `ExecutionAlreadyExists`
 * (different input, or the execution has finished), and both mean the work was started already.
 */
export class StepFunctionsStarter implements WorkflowStarter {
  constructor(private readonly stateMachineArn: string) {}

  async start(name: string, input: FulfilmentMessage): Promise<void> {
    try {
      await sfn().send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          name,
          input: JSON.stringify(input),
        }),
      );
    } catch (error) {
      if (error instanceof Error && error.name === 'ExecutionAlreadyExists') return;
      throw error;
    }
  }
}
