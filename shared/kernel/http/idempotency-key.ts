/**
 * The light half of idempotency, shared by the pipeline: the header's rules and the names a
 * purchase is known by. The Powertools half (`idempotency.ts`) is bundled only by purchases.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { ApiError } from '../errors/api-error.ts';

const MAX_KEY_LENGTH = 255;

export interface IdempotentCall<T> {
  /** Who and where: account, environment, route and path, so keys never collide across them. */
  scope: string;
  key: string | undefined;
  /** What must match for a replay: the path and the parsed body. */
  request: unknown;
  context: Context;
  run: () => Promise<T>;
  /**
   * What is kept for a replay, when the result itself is too large for the idempotency record
   * (a DynamoDB item): `pack` reduces it to references, `unpack` rebuilds it from the store.
   */
  replay?: ReplayCodec<T>;
}

export interface ReplayCodec<T> {
  pack(result: T): unknown;
  unpack(packed: unknown): Promise<T>;
}

/** Names one purchase across its retries: the key, who sent it, where, and what they asked. */
export const recoveryKeyFor = (scope: string, key: string, request: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([scope, key, request]))
    .digest('hex');

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError('validation_error', {
      param: 'Idempotency-Key',
      message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters without spaces.`,
    });
  }
  return key;
}

/** Runs a purchase at most once per key; purchase handlers pass `runIdempotently` to the pipeline. */
export type IdempotencyRunner = <T>(call: IdempotentCall<T>) => Promise<T>;
