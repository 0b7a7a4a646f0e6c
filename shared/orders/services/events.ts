import { EventBridgePublisher } from '../../adapters/aws/eventbridge-publisher.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { EventPublisher } from '../../ports/orders.ts';
import { requiredEnv } from './env.ts';

/** The stage's event bus (`EVENT_BUS_NAME`), its adapter built on first use. */
export function eventBridgePublisher(): EventPublisher {
  let built: EventPublisher | undefined;
  return {
    publish: (event) => {
      built ??= new EventBridgePublisher(requiredEnv(ORDER_ENV.eventBus));
      return built.publish(event);
    },
  };
}
