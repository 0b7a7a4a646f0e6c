/**
 * The deployed webhook sender: public addresses only. The loopback allowance exists in the local
 * stack's configuration alone (its sender is composition/local.ts).
 */
import type { PortFactory } from '../../kernel/capability-ports.ts';
import { HttpsWebhookSender } from '../adapters/https-sender.ts';

export const webhookSender: PortFactory<'webhookSender'> = () => new HttpsWebhookSender({});
