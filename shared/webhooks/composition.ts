/**
 * Webhooks' composition: a factory of each of its ports (shared/kernel/capability-ports.ts), which
 * functions give `awsRoutePorts`/`awsPorts`, and the ones the local stack builds (`localPorts`).
 * The KMS sealer, the dispatcher queue and the deployed sender have a module each under
 * composition/, so that a function bundles only the adapter it names. The local stack builds the
 * same stores, its own sealer (AES-256-GCM with the key it generated, instead of KMS) and a sender
 * that reaches loopback receivers (and trusts their CA) when its configuration says so; its
 * dispatcher queue is a stand-in (local/webhooks.ts).
 */

import type { PortFactory } from '../kernel/capability-ports.ts';
import { AesGcmSealer } from './adapters/aes-sealer.ts';
import { DynamoDeliveryStore, DynamoWebhookEndpointStore } from './adapters/dynamodb.ts';
import { HttpsWebhookSender } from './adapters/https-sender.ts';

export const webhookEndpoints: PortFactory<'webhookEndpoints'> = (root) =>
  new DynamoWebhookEndpointStore(root.config.mainTable);
export const webhookDeliveries: PortFactory<'webhookDeliveries'> = (root) =>
  new DynamoDeliveryStore(root.config.mainTable);

const localSealer: PortFactory<'sealer'> = (root) =>
  new AesGcmSealer(Buffer.from(root.config.webhookSealKey ?? '', 'hex'));
const localSender: PortFactory<'webhookSender'> = (root) =>
  new HttpsWebhookSender({
    allowLoopback: root.config.webhookAllowLoopback === true,
    ca: root.config.webhookCa,
  });

export const localPorts = {
  webhookEndpoints,
  webhookDeliveries,
  sealer: localSealer,
  webhookSender: localSender,
};
