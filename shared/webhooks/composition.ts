/**
 * Webhooks' composition: a factory of each of its stores (shared/kernel/capability-ports.ts), which
 * functions give `awsRoutePorts`/`awsPorts`, and which the local stack builds the same way
 * (`localPorts`). The event log, the event bus, the queue, the KMS sealer and the sender keep a
 * module each in shared/composition/aws/ (a function bundles only the adapter it names); the local
 * stack has its own sealer and sender (local/composition.ts) and stand-ins for the bus and queue.
 */

import type { PortFactory } from '../kernel/capability-ports.ts';
import { DynamoDeliveryStore, DynamoWebhookEndpointStore } from './adapters/dynamodb.ts';

export const webhookEndpoints: PortFactory<'webhookEndpoints'> = (root) =>
  new DynamoWebhookEndpointStore(root.config.mainTable);
export const webhookDeliveries: PortFactory<'webhookDeliveries'> = (root) =>
  new DynamoDeliveryStore(root.config.mainTable);

export const localPorts = { webhookEndpoints, webhookDeliveries };
