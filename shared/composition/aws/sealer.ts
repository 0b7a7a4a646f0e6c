import { required } from '../../kernel/config.ts';
import { KmsSealer } from '../../webhooks/adapters/kms-sealer.ts';
import { WEBHOOK_ENV } from '../../webhooks/infra.ts';
import type { CapabilityFactory } from './root.ts';

// Webhooks' own setting, which the kernel's configuration does not know (shared/webhooks/infra.ts).
export const sealer: CapabilityFactory<'sealer'> = () =>
  new KmsSealer(required(process.env[WEBHOOK_ENV.keyId], WEBHOOK_ENV.keyId));
