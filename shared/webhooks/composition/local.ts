/**
 * The local stack's own sealer and sender (local/composition.ts builds them; no function imports
 * this module, so no Lambda bundle carries them): AES-256-GCM with the key the stack generated,
 * instead of KMS, and a sender that reaches loopback receivers (and trusts their CA) only when the
 * stack's configuration says so.
 */
import type { PortFactory } from '../../kernel/capability-ports.ts';
import { AesGcmSealer } from '../adapters/aes-sealer.ts';
import { HttpsWebhookSender } from '../adapters/https-sender.ts';

export const localSealer: PortFactory<'sealer'> = (root) =>
  new AesGcmSealer(Buffer.from(root.config.webhookSealKey ?? '', 'hex'));

export const localWebhookSender: PortFactory<'webhookSender'> = (root) =>
  new HttpsWebhookSender({
    allowLoopback: root.config.webhookAllowLoopback === true,
    ca: root.config.webhookCa,
  });
