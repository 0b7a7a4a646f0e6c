import { required } from '../../kernel/config.ts';
import { StepFunctionsStarter } from '../../orders/adapters/sfn-starter.ts';
import type { CapabilityFactory } from './root.ts';

export const starter: CapabilityFactory<'starter'> = (root) =>
  new StepFunctionsStarter(required(root.config.stateMachineArn, 'FULFILMENT_STATE_MACHINE_ARN'));
