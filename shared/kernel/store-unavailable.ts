/**
 * The database could not be reached: every attempt a store client makes (three for ours, the
 * SDK's own for Powertools idempotency) failed on the connection, timed out, was throttled or
 * met a server error. The pipeline answers it with 503 `service_unavailable` and Retry-After,
 * never 500: the request may be retried.
 */
import { ApiError } from '../errors/api-error.ts';

export class StoreUnavailable extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`DynamoDB ${operation} failed on every attempt: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = 'StoreUnavailable';
  }
}

/** Errors of the SDK's transport (Node's and smithy's names) that mean the service was not reached. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

interface SdkError {
  name?: string;
  code?: string;
  $fault?: string;
  $retryable?: unknown;
  $metadata?: unknown;
  cause?: unknown;
}

const isSdkUnreachable = (error: SdkError) =>
  UNREACHABLE.has(error.code ?? '') ||
  (error.$metadata !== undefined &&
    (error.$fault === 'server' || error.$retryable !== undefined || UNREACHABLE.has(error.name ?? '')));

/**
 * Whether `error`, or what it wraps (Powertools wraps the store's failure; a use case may too),
 * says the database could not be reached. Follows at most five causes.
 */
export function isStoreUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof StoreUnavailable || isSdkUnreachable(current as SdkError)) return true;
    current = (current as SdkError).cause;
  }
  return false;
}

/** Seconds a client waits before retrying after the database could not be reached. */
export const STORE_RETRY_AFTER_SECONDS = 5;

const NOTHING_CHANGED =
  'The service could not reach its database. Nothing was changed or charged; retry after the Retry-After delay, with backoff.';
const PURCHASE_NOT_KNOWN =
  'The service could not reach its database while it handled this purchase, so whether the purchase was made is not known yet. Retry after the Retry-After delay with the same Idempotency-Key: you get the purchase if it was made, and are never charged twice.';
const CHANGE_NOT_KNOWN =
  'The service could not reach its database while it made this change, so whether the change was made is not known. Read the resource before making the change again.';

/**
 * The answer to an unreachable database: 503 `service_unavailable` with Retry-After. The outcome
 * is known (nothing happened) when the request only reads, or when the database failed before the
 * route's own work began (authentication, limits, the idempotency record); otherwise a purchase
 * is retried with its key, and another change is read back first.
 */
export function storeUnavailableAnswer(
  route: { method: string; idempotent?: boolean },
  workBegan: boolean,
): ApiError {
  const message =
    !workBegan || route.method === 'GET'
      ? NOTHING_CHANGED
      : route.idempotent
        ? PURCHASE_NOT_KNOWN
        : CHANGE_NOT_KNOWN;
  return new ApiError('service_unavailable', {
    message,
    headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
  });
}
