/** Endpoint secrets sealed with KMS (the local stack's sealer is composition/local.ts). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { required } from '../../kernel/config.ts';
import { KmsSealer } from '../adapters/kms-sealer.ts';
import { WEBHOOK_ENV } from '../infra.ts';

// Webhooks' own setting, which the kernel's configuration does not know (infra.ts).
export const sealer: PortFactory<'sealer'> = () =>
  new KmsSealer(required(process.env[WEBHOOK_ENV.keyId], WEBHOOK_ENV.keyId));
