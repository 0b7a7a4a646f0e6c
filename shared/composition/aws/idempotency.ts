import { createIdempotencyRunner } from '../../adapters/dynamodb/idempotency.ts';
import { JsonDynamoPersistenceLayer } from '../../adapters/dynamodb/idempotency-persistence.ts';
import { required } from '../../kernel/config.ts';
import type { CapabilityFactory } from './root.ts';

export const idempotency: CapabilityFactory<'idempotency'> = (root) =>
  createIdempotencyRunner(
    new JsonDynamoPersistenceLayer(required(root.config.idempotencyTable, 'IDEMPOTENCY_TABLE')),
  );
