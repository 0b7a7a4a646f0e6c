/**
 * How long a request may run, from one source: CDK deploys each route's function with
 * `functionTimeoutMs(route)`, the local stack gives its handlers a context with the same time, and
 * the pipeline turns what is left of it into a deadline for the registry, keeping back enough to
 * record a purchase and answer. So a slow registry ends in a 503 that says what happened, never in
 * the function being cut off after the registry has sold us something.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** API Gateway REST's integration timeout (the maximum without a quota increase). */
export const INTEGRATION_TIMEOUT_MS = 29_000;
/** Functions that never call the registry. */
export const DEFAULT_FUNCTION_TIMEOUT_MS = 10_000;
/**
 * Functions that call the registry run as long as API Gateway waits: a longer one would keep
 * running (and possibly buy) after the client got a 504, a shorter one leaves less time to buy.
 */
export const REGISTRY_FUNCTION_TIMEOUT_MS = INTEGRATION_TIMEOUT_MS;

/**
 * Kept back from the registry for what follows its answer: storing the draft, the commit with its
 * retries (three transactions and 600 ms of backoff) and the response.
 */
export const COMMIT_RESERVE_MS = 3_500;

export const functionTimeoutMs = (route: { usesRegistry?: boolean; longRunning?: boolean }): number =>
  route.usesRegistry || route.longRunning ? REGISTRY_FUNCTION_TIMEOUT_MS : DEFAULT_FUNCTION_TIMEOUT_MS;

const deadlines = new AsyncLocalStorage<number>();

/** Runs `work` with a deadline (epoch ms) that registry calls made inside it respect. */
export const withDeadline = <T>(deadlineMs: number, work: () => Promise<T>): Promise<T> =>
  deadlines.run(deadlineMs, work);

/** Milliseconds left before the current request's deadline; undefined outside a request (workflow steps). */
export function remainingMs(nowMs = Date.now()): number | undefined {
  const deadline = deadlines.getStore();
  return deadline === undefined ? undefined : deadline - nowMs;
}

/** The registry deadline of a request whose function has `remainingMs` left. */
export const registryDeadline = (functionRemainingMs: number, nowMs = Date.now()): number =>
  nowMs + functionRemainingMs - COMMIT_RESERVE_MS;
