/**
 * Answers API Gateway gives itself when a route's capacity is used up, shared by the gateway
 * responses in the templates (lib/gateway-responses.ts) and the local stack, which models them
 * (local/server.ts), so that both answer a throttled route alike.
 */
import type { ErrorCode, ErrorType } from '../errors/catalogue.ts';

export interface CapacityAnswer {
  readonly code: ErrorCode;
  readonly status: 429 | 503;
  /** Spec 7.2's type for the status (the catalogue's `service_unavailable` is still typed `api_error`). */
  readonly type: ErrorType;
  readonly retryAfterSeconds: number;
}

/**
 * A route's function could not be invoked: a Lambda throttle (its reserved registry share, or the
 * account's concurrency, in use), or no answer within the integration timeout. A throttle clears
 * as soon as one of the route's requests finishes, typically within seconds.
 */
export const FUNCTION_UNAVAILABLE: CapacityAnswer = {
  code: 'service_unavailable',
  status: 503,
  type: 'registry_unavailable_error',
  retryAfterSeconds: 2,
};

/** The key authorizer could not be invoked or answered nonsense: retry at once. */
export const AUTHORIZER_UNAVAILABLE: CapacityAnswer = { ...FUNCTION_UNAVAILABLE, retryAfterSeconds: 1 };
