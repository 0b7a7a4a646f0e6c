import { HttpsWebhookSender } from '../../webhooks/adapters/https-sender.ts';
import type { CapabilityFactory } from './root.ts';

/** Deployed, only public addresses: the loopback allowance exists in the local stack's configuration alone. */
export const webhookSender: CapabilityFactory<'webhookSender'> = () => new HttpsWebhookSender({});
