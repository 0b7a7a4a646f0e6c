import { JsonDynamoPersistenceLayer } from '../../adapters/dynamodb/idempotency.ts';
import { required } from '../../config.ts';
import { createIdempotencyRunner } from '../../http/idempotency.ts';
import type { CapabilityFactory } from './root.ts';

export const idempotency: CapabilityFactory<'idempotency'> = (root) =>
  createIdempotencyRunner(
    new JsonDynamoPersistenceLayer(required(root.config.idempotencyTable, 'IDEMPOTENCY_TABLE')),
  );
