/** The fulfilment workflow's starter, on Step Functions (the local stack runs its own workflow, shared/orders/local/). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { required } from '../../kernel/config.ts';
import { StepFunctionsStarter } from '../adapters/sfn-starter.ts';

export const starter: PortFactory<'starter'> = (root) =>
  new StepFunctionsStarter(required(root.config.stateMachineArn, 'FULFILMENT_STATE_MACHINE_ARN'));
