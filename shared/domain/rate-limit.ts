/**
 * Per-key limits: 600 requests per sliding minute and 20 requests in flight.
 *
 * The sliding window is the two-bucket approximation: the previous fixed minute's count is
 * weighted by how much of it still overlaps the last 60 seconds. It needs two counters per key,
 * so one DynamoDB update can count a request atomically however many Lambdas serve the key.
 */

export const LIMITS = {
  requestsPerMinute: 600,
  concurrentRequests: 20,
  windowMs: 60_000,
  /** A lease outlives any request (API Gateway gives up after 29 s), so a crashed one frees itself. */
  leaseMs: 30_000,
} as const;

export type RateLimitHeader = 'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset';

/**
 * The headers of a response to a request with no usable key (401, or a path with no route): the
 * limits a key has, with the whole window left.
 */
export function unkeyedRateHeaders(): Record<RateLimitHeader, string> {
  return {
    'RateLimit-Limit': String(LIMITS.requestsPerMinute),
    'RateLimit-Remaining': String(LIMITS.requestsPerMinute),
    'RateLimit-Reset': String(LIMITS.windowMs / 1000),
  };
}

export interface WindowCounts {
  /** Start of the current fixed window, epoch ms. */
  windowStart: number;
  /** Requests counted in the current fixed window, this one included. */
  current: number;
  /** Requests counted in the fixed window just before. */
  previous: number;
}

export const windowStartOf = (nowMs: number): number => nowMs - (nowMs % LIMITS.windowMs);

/** Requests in the 60 seconds up to `nowMs`, estimated from the two buckets. */
export function slidingCount(counts: WindowCounts, nowMs: number): number {
  const elapsed = nowMs - counts.windowStart;
  const overlap = Math.max(0, LIMITS.windowMs - elapsed) / LIMITS.windowMs;
  return counts.previous * overlap + counts.current;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current fixed window ends and the count starts to fall. */
  resetSeconds: number;
  /** Whole seconds to wait before a retry can succeed (only meaningful when not allowed). */
  retryAfterSeconds: number;
}

export function decideRate(
  counts: WindowCounts,
  nowMs: number,
  limit = LIMITS.requestsPerMinute,
): RateDecision {
  const used = slidingCount(counts, nowMs);
  const elapsed = nowMs - counts.windowStart;
  const untilWindowEnd = Math.max(0, LIMITS.windowMs - elapsed);
  const allowed = used <= limit;
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.floor(limit - used)),
    resetSeconds: Math.max(1, Math.ceil(untilWindowEnd / 1000)),
    retryAfterSeconds: allowed ? 0 : retryAfterSeconds(counts, nowMs, limit),
  };
}

/**
 * When will one more request fit? Within the current window the previous bucket's weight
 * decays linearly; past it, the current bucket becomes the decaying one.
 */
function retryAfterSeconds(counts: WindowCounts, nowMs: number, limit: number): number {
  const elapsed = nowMs - counts.windowStart;
  // A retry adds one request: it fits when previous * overlap + current + 1 <= limit.
  const room = limit - counts.current - 1;
  if (room >= 0 && counts.previous > 0) {
    const overlapNeeded = room / counts.previous;
    const waitMs = LIMITS.windowMs * (1 - overlapNeeded) - elapsed;
    return Math.max(1, Math.ceil(waitMs / 1000));
  }
  // The current bucket alone is full: wait for it to become the previous one and decay enough.
  const untilWindowEnd = LIMITS.windowMs - elapsed;
  const overlapNeeded = Math.max(0, limit - 1) / Math.max(1, counts.current);
  const decayMs = LIMITS.windowMs * (1 - Math.min(1, overlapNeeded));
  return Math.max(1, Math.ceil((untilWindowEnd + decayMs) / 1000));
}
