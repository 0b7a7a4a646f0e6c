import { EventBridgePublisher } from '../../adapters/aws/eventbridge-publisher.ts';
import { required } from '../../kernel/config.ts';
import type { CapabilityFactory } from './root.ts';

export const events: CapabilityFactory<'events'> = (root) =>
  new EventBridgePublisher(required(root.config.eventBusName, 'EVENT_BUS_NAME'));
