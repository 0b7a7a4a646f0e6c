/**
 * `Idempotency-Key` on purchase routes, with Powertools idempotency over the persistence layer
 * the composition gives (DynamoDB through the lean client, adapters/dynamodb/idempotency-persistence.ts):
 * the first request with a key runs and its response is kept 24 hours; the same key with the same
 * request gets that response again without running; a different request gets 409
 * `idempotency_conflict` (never retried). A failed run keeps nothing, so it can be retried at once.
 *
 * The first request holds the key with a short lease (`leaseMs`, 6 s), renewed every `renewMs`
 * while it runs and never beyond its function's own end: a request cut off by a crash stops
 * renewing, and its key can be taken over `leaseMs` after its last renewal at most, rather than
 * when its whole function time (29 s) would have run out. A duplicate that arrives while the first
 * runs waits for it (at most `maxWaitMs`, 14 s, and half its own time), reading the record every
 * `pollMs`: it answers the first's result once kept, runs itself once the record is gone (the first
 * failed) or its lease lapsed (taken over), and only if the first is still running at the end of
 * its wait answers 429 `idempotency_key_in_use` with Retry-After
 * (docs/decisions/0041-duplicate-purchase-waits.md). A takeover is safe even if the first was alive
 * after all: a purchase keeps its registry client key and extract id, so it is bought and billed
 * once.
 */
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context } from 'aws-lambda';
import { ApiError } from '../../kernel/errors/api-error.ts';
import type { IdempotencyRunner, IdempotentCall } from '../../kernel/ports/idempotency.ts';

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

type Payload = { key: string; request: unknown };
type StorePayload = Parameters<BasePersistenceLayer['getRecord']>[0];

/** A persistence layer whose in-progress records can be renewed (JsonDynamoPersistenceLayer). */
export interface LeasedPersistenceLayer extends BasePersistenceLayer {
  renewInProgress(payload: StorePayload, untilMs: number): Promise<boolean>;
}

export interface IdempotencyTiming {
  /** How long an in-progress record holds the key without a renewal. */
  leaseMs: number;
  /** How often a running request renews it. */
  renewMs: number;
  /** How often a waiting duplicate reads the record. */
  pollMs: number;
  /** The longest a duplicate waits (also at most half its function's remaining time). */
  maxWaitMs: number;
}

export const IDEMPOTENCY_TIMING: IdempotencyTiming = {
  leaseMs: 6_000,
  renewMs: 2_000,
  pollMs: 250,
  maxWaitMs: 14_000,
};

/** A runner that runs `call.run` at most once per key and request within 24 hours, keeping its records in `persistenceStore`. */
export function createIdempotencyRunner(
  persistenceStore: LeasedPersistenceLayer,
  timing: IdempotencyTiming = IDEMPOTENCY_TIMING,
): IdempotencyRunner {
  return (call) => runIdempotently(call, persistenceStore, timing);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** What the record of `payload` says now: done (kept, or gone), or in progress until `leaseEndsAt`. */
async function recordState(
  persistenceStore: BasePersistenceLayer,
  payload: Payload,
): Promise<{ inProgress: false } | { inProgress: true; leaseEndsAt: number }> {
  try {
    const record = await persistenceStore.getRecord(payload as unknown as StorePayload);
    if (record.getStatus() !== IdempotencyRecordStatus.INPROGRESS) return { inProgress: false };
    // A record without an expiry (written with no function time) is never taken over: wait for it.
    return { inProgress: true, leaseEndsAt: record.inProgressExpiryTimestamp ?? Number.POSITIVE_INFINITY };
  } catch (error) {
    if (error instanceof IdempotencyItemNotFoundError) return { inProgress: false };
    throw error;
  }
}

async function runIdempotently<T>(
  call: IdempotentCall<T>,
  persistenceStore: LeasedPersistenceLayer,
  timing: IdempotencyTiming,
): Promise<T> {
  if (call.key === undefined) return call.run();
  const functionEndsAt = Date.now() + call.context.getRemainingTimeInMillis();
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
  });
  // Powertools sets the in-progress expiry from the remaining time: here, the lease.
  config.registerLambdaContext({
    getRemainingTimeInMillis: () => Math.max(1, Math.min(timing.leaseMs, functionEndsAt - Date.now())),
  } as Context);
  const payload: Payload = { key: `${call.scope}#${call.key}`, request: call.request };
  let fresh: { result: T } | undefined;
  const once = makeIdempotent(
    async (_payload: Payload) => {
      const stopRenewing = renewWhileRunning(persistenceStore, payload, timing, functionEndsAt);
      try {
        const result = await call.run();
        fresh = { result };
        return call.replay ? call.replay.pack(result) : result;
      } finally {
        stopRenewing();
      }
    },
    { persistenceStore, config },
  );
  const waitEndsAt = Date.now() + Math.min(timing.maxWaitMs, call.context.getRemainingTimeInMillis() / 2);
  for (;;) {
    try {
      const kept = await once(payload);
      if (fresh) return fresh.result;
      return call.replay ? call.replay.unpack(kept) : (kept as T);
    } catch (error) {
      if (error instanceof IdempotencyValidationError) {
        throw new ApiError('idempotency_conflict', { param: 'Idempotency-Key' });
      }
      if (!(error instanceof IdempotencyAlreadyInProgressError)) {
        // Powertools wraps what the function threw; surface the original (an ApiError, say).
        const cause = (error as { cause?: unknown }).cause;
        throw error instanceof ApiError ? error : cause instanceof ApiError ? cause : error;
      }
    }
    // The first is still running: wait until it is done or its lease lapses, then try again.
    for (;;) {
      const state = await recordState(persistenceStore, payload);
      if (!state.inProgress || state.leaseEndsAt <= Date.now()) break;
      if (Date.now() + timing.pollMs > waitEndsAt) {
        throw new ApiError('idempotency_key_in_use', {
          param: 'Idempotency-Key',
          headers: { 'Retry-After': String(retryAfterSeconds(state.leaseEndsAt, timing.leaseMs)) },
        });
      }
      await sleep(timing.pollMs);
    }
  }
}

/** Whole seconds until a lease ends (at least 1; one lease when it has no end). */
const retryAfterSeconds = (leaseEndsAt: number, leaseMs: number) =>
  Math.max(1, Math.ceil((Number.isFinite(leaseEndsAt) ? leaseEndsAt - Date.now() : leaseMs) / 1000));

/**
 * Renews the lease on `payload`'s in-progress record every `renewMs` until stopped, never past
 * the function's end. A failed renewal is left to the next one: at worst the lease lapses and a
 * duplicate takes over, which the purchase's own record makes safe.
 */
function renewWhileRunning(
  persistenceStore: LeasedPersistenceLayer,
  payload: Payload,
  timing: IdempotencyTiming,
  functionEndsAt: number,
): () => void {
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    const until = Math.min(Date.now() + timing.leaseMs, functionEndsAt);
    persistenceStore.renewInProgress(payload as unknown as StorePayload, until).catch(() => undefined);
  }, timing.renewMs);
  timer.unref?.();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
