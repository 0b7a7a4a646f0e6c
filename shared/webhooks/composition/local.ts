/**
 * The local stack's own sealer and sender (the webhooks local module builds them, local/stack.ts;
 * no function imports this module, so no Lambda bundle carries them): AES-256-GCM with the key the
 * stack generated, instead of KMS, and a sender that reaches loopback receivers (and trusts their
 * CA) only when the module's settings say so.
 */
import { AesGcmSealer } from '../adapters/aes-sealer.ts';
import { HttpsWebhookSender } from '../adapters/https-sender.ts';

/** Webhooks' local-only settings, which the service's configuration does not know. */
export interface WebhooksLocalConfig {
  /** The AES-256 key (hex) sealing signing secrets instead of KMS. */
  sealKey: string;
  /** Allow loopback receivers, and trust this CA (PEM) for them. */
  allowLoopback: boolean;
  ca?: string | undefined;
}

export const localSealer = (own: WebhooksLocalConfig) => new AesGcmSealer(Buffer.from(own.sealKey, 'hex'));

export const localWebhookSender = (own: WebhooksLocalConfig) =>
  new HttpsWebhookSender({ allowLoopback: own.allowLoopback, ca: own.ca });
