/** Factories of the webhook ports on Lambda (see root.ts); the sender is in webhook-sender.ts. */
import { DynamoDeliveryStore, DynamoWebhookEndpointStore } from '../../adapters/dynamodb/webhooks.ts';
import type { CapabilityFactory } from './root.ts';

export const webhookEndpoints: CapabilityFactory<'webhookEndpoints'> = (root) =>
  new DynamoWebhookEndpointStore(root.config.mainTable);
export const webhookDeliveries: CapabilityFactory<'webhookDeliveries'> = (root) =>
  new DynamoDeliveryStore(root.config.mainTable);
