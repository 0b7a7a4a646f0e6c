/**
 * Webhooks' composition: a factory of each of its stores (shared/kernel/capability-ports.ts), which
 * functions give `awsRoutePorts`/`awsPorts`, and which the local stack builds the same way
 * (`localPorts`). The KMS sealer, the dispatcher queue and the deployed sender have a module each
 * under composition/, so that a function bundles only the adapter it names; the local stack's
 * sealer and sender are composition/local.ts, and its dispatcher queue a stand-in (its local/ folder).
 */

import type { PortFactory } from '../kernel/capability-ports.ts';
import { DynamoDeliveryStore, DynamoWebhookEndpointStore } from './adapters/dynamodb.ts';

export const webhookEndpoints: PortFactory<'webhookEndpoints'> = (root) =>
  new DynamoWebhookEndpointStore(root.config.mainTable);
export const webhookDeliveries: PortFactory<'webhookDeliveries'> = (root) =>
  new DynamoDeliveryStore(root.config.mainTable);

export const localPorts = { webhookEndpoints, webhookDeliveries };
