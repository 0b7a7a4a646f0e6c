import { EventBridgePublisher } from '../../adapters/aws/eventbridge-publisher.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { EventPublisher } from '../../ports/orders.ts';
import { overrides, requiredEnv } from './overrides.ts';

let built: EventPublisher | undefined;

export const eventPublisher = (): EventPublisher => {
  if (overrides.events) return overrides.events;
  built ??= new EventBridgePublisher(requiredEnv(ORDER_ENV.eventBus));
  return built;
};
