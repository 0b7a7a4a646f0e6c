/**
 * The light half of idempotency, shared by the pipeline: the header's rules and the names a
 * purchase is known by (the runner's port is kernel/ports/idempotency.ts). The Powertools half (`idempotency.ts`) is bundled only by purchases.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../errors/api-error.ts';

const MAX_KEY_LENGTH = 255;

/** An `Idempotency-Key`: 1 to 255 printable ASCII characters, no spaces (the contract's pattern too). */
export const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${MAX_KEY_LENGTH}}$`);

/** Names one purchase across its retries: the key, who sent it, where, and what they asked. */
export const recoveryKeyFor = (scope: string, key: string, request: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([scope, key, request]))
    .digest('hex');

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ApiError('validation_error', {
      param: 'Idempotency-Key',
      message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters without spaces.`,
    });
  }
  return key;
}
