/**
 * `Idempotency-Key` on purchase routes, with Powertools idempotency over the persistence layer
 * the composition gives (DynamoDB through the lean client, adapters/dynamodb/idempotency-persistence.ts):
 * the first request with a key runs and its response is kept 24 hours; the
 * same key with the same request gets that response again without running; a different
 * request gets 409 `idempotency_conflict` (never retried). A duplicate that arrives while the
 * first is still running gets 409 `idempotency_key_in_use` with Retry-After up to the moment the
 * first's in-progress record runs out (its function's remaining time when it began), after which
 * a retry takes the record over and runs: a request cut by a crash blocks its retries no longer
 * than that. A failed run keeps nothing, so it can be retried at once.
 */
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import { ApiError } from '../../kernel/errors/api-error.ts';
import type { IdempotencyRunner, IdempotentCall } from '../../kernel/ports/idempotency.ts';

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

/** A runner that runs `call.run` at most once per key and request within 24 hours, keeping its records in `persistenceStore`. */
export function createIdempotencyRunner(persistenceStore: BasePersistenceLayer): IdempotencyRunner {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
  });
  return (call) => runIdempotently(call, persistenceStore, config);
}

/**
 * Whole seconds (at least 1) until the in-progress record of `payload` can be taken over. Read
 * again because Powertools' error does not carry the record; if it is gone or finished by now,
 * a retry at once gets the result.
 */
async function secondsUntilTakeover(
  persistenceStore: BasePersistenceLayer,
  payload: { key: string; request: unknown },
): Promise<number> {
  const record = await persistenceStore
    .getRecord(payload as unknown as Parameters<BasePersistenceLayer['getRecord']>[0])
    .catch(() => undefined);
  const takeoverAt = record?.getStatus() === 'INPROGRESS' ? record.inProgressExpiryTimestamp : undefined;
  return takeoverAt === undefined ? 1 : Math.max(1, Math.ceil((takeoverAt - Date.now()) / 1000));
}

async function runIdempotently<T>(
  call: IdempotentCall<T>,
  persistenceStore: BasePersistenceLayer,
  config: IdempotencyConfig,
): Promise<T> {
  if (call.key === undefined) return call.run();
  config.registerLambdaContext(call.context);
  let fresh: { result: T } | undefined;
  const once = makeIdempotent(
    async (_payload: { key: string; request: unknown }) => {
      const result = await call.run();
      fresh = { result };
      return call.replay ? call.replay.pack(result) : result;
    },
    { persistenceStore, config },
  );
  const payload = { key: `${call.scope}#${call.key}`, request: call.request };
  try {
    const kept = await once(payload);
    if (fresh) return fresh.result;
    return call.replay ? call.replay.unpack(kept) : (kept as T);
  } catch (error) {
    if (error instanceof IdempotencyValidationError) {
      throw new ApiError('idempotency_conflict', { param: 'Idempotency-Key' });
    }
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new ApiError('idempotency_key_in_use', {
        param: 'Idempotency-Key',
        headers: { 'Retry-After': String(await secondsUntilTakeover(persistenceStore, payload)) },
      });
    }
    // Powertools wraps what the function threw; surface the original (an ApiError, say).
    const cause = (error as { cause?: unknown }).cause;
    throw error instanceof ApiError ? error : cause instanceof ApiError ? cause : error;
  }
}
