/**
 * Webhooks' composition: a factory of each of its stores (shared/kernel/capability-ports.ts), which
 * functions give `awsRoutePorts`/`awsPorts`, and which the local stack builds the same way
 * (`localPorts`). The KMS sealer, the dispatcher queue and the deployed sender have a module each
 * under composition/, so that a function bundles only the adapter it names; the local stack's
 * sealer and sender are composition/local.ts, and its dispatcher queue a stand-in (its local/ folder).
 */

import type { PortFactory } from '../kernel/capability-ports.ts';
import { DynamoDeliveryStore, DynamoWebhookEndpointStore } from './adapters/dynamodb.ts';
import { WEBHOOK_LOCAL_ENV } from './infra.ts';

export const webhookEndpoints: PortFactory<'webhookEndpoints'> = (root) =>
  new DynamoWebhookEndpointStore(root.config.mainTable);
export const webhookDeliveries: PortFactory<'webhookDeliveries'> = (root) =>
  new DynamoDeliveryStore(root.config.mainTable);

/**
 * Whether the webhook routes accept loopback receivers: only where the local stack says so
 * (`WEBHOOK_LOCAL_ENV`, infra.ts), never when deployed (CDK does not set it).
 */
export const loopbackAllowed = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env[WEBHOOK_LOCAL_ENV.allowLoopback] === '1';

export const localPorts = { webhookEndpoints, webhookDeliveries };
