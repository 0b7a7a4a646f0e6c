/** The fulfilment workflow's starter, on Step Functions (the local stack runs its own workflow, shared/orders/local/). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { required } from '../../kernel/config.ts';
import { StepFunctionsStarter } from '../adapters/sfn-starter.ts';
import { ORDERS_ENV } from '../env.ts';

export const starter: PortFactory<'starter'> = () =>
  new StepFunctionsStarter(required(process.env[ORDERS_ENV.stateMachineArn], ORDERS_ENV.stateMachineArn));
