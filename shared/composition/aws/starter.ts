import { StepFunctionsStarter } from '../../adapters/aws/sfn-starter.ts';
import { required } from '../../kernel/config.ts';
import type { CapabilityFactory } from './root.ts';

export const starter: CapabilityFactory<'starter'> = (root) =>
  new StepFunctionsStarter(required(root.config.stateMachineArn, 'FULFILMENT_STATE_MACHINE_ARN'));
