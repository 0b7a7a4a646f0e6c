import { KmsSealer } from '../../adapters/aws/kms-sealer.ts';
import { required } from '../../kernel/config.ts';
import type { CapabilityFactory } from './root.ts';

export const sealer: CapabilityFactory<'sealer'> = (root) =>
  new KmsSealer(required(root.config.webhookKeyId, 'WEBHOOK_KEY_ID'));
