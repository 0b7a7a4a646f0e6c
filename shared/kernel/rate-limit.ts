/**
 * Per-key limits: 600 requests per sliding minute and 20 requests in flight.
 *
 * The sliding minute is counted in sub-windows ("slots") of 6 seconds, ten to a minute, kept as a
 * map from the absolute slot index (epoch ms / 6000) to the requests counted in it. One DynamoDB
 * update counts a request in its slot and returns the map, so the count is atomic however many
 * Lambdas serve the key. `decideRate` is the whole decision, as a pure function of that map and
 * the caller's clock.
 */

export const LIMITS = {
  requestsPerMinute: 600,
  /**
   * No 60-second interval admits more than this many requests of one key, whatever their timing
   * (see `decideRate`). The weighted estimate alone can be fooled by requests bunched at the edge
   * of a slot; this bounds what that can cost.
   */
  hardRequestsPerMinute: 660,
  concurrentRequests: 20,
  windowMs: 60_000,
  /** One slot; the window is `windowMs / slotMs` of them. */
  slotMs: 6_000,
  /** A lease outlives any request (API Gateway gives up after 29 s), so a crashed one frees itself. */
  leaseMs: 30_000,
} as const;

const SLOTS_PER_WINDOW = LIMITS.windowMs / LIMITS.slotMs;

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

/** Requests counted per slot: absolute slot index (as DynamoDB map keys are, a string) → count. */
export type SlotCounts = Readonly<Record<string, number>>;

/** The slot a request made at `nowMs` (by its own clock) is counted in. */
export const slotOf = (nowMs: number): number => Math.floor(nowMs / LIMITS.slotMs);

/**
 * The slots that count at `nowMs`: from the oldest one the last 60 seconds still touch (ten before
 * the caller's) to one ahead of it (another instance's clock may run a little ahead). A slot
 * further ahead was written by a clock that was wrong, or has since been set back: it is ignored,
 * so a clock moved a day ahead and back cannot leave a key in a future window.
 */
function countedRange(nowMs: number): { oldest: number; newest: number } {
  const slot = slotOf(nowMs);
  return { oldest: slot - SLOTS_PER_WINDOW, newest: slot + 1 };
}

/**
 * Slots that will never count again for a caller near `nowMs`, to be removed from the stored map
 * so that it stays small: those ahead of the counted range, and those more than one slot behind it
 * (the one just behind is kept for an instance whose clock runs a little behind).
 */
export function staleSlots(counts: SlotCounts, nowMs: number): number[] {
  const { oldest, newest } = countedRange(nowMs);
  return Object.keys(counts)
    .map(Number)
    .filter((slot) => !Number.isSafeInteger(slot) || slot < oldest - 1 || slot > newest);
}

/**
 * The `n` requests of the oldest slot, of which the window has passed `offsetMs`, that are still
 * within it. They are taken as evenly spaced from the slot's start, so the first sits on the slot's
 * start and has left the window as soon as the slot is the oldest. (Weighting `n` by the overlap
 * instead counts up to one request too many, which refuses a client sending exactly 10 a second.)
 */
function stillInWindow(n: number, offsetMs: number): number {
  return Math.max(0, n - 1 - Math.floor((offsetMs * n) / LIMITS.slotMs));
}

interface Tally {
  /** The estimate of requests in the last 60 seconds. */
  weighted: number;
  /** Every request of every slot that touches the last 60 seconds. */
  conservative: number;
  /** The oldest slot counted, if any. */
  oldest: number | undefined;
}

function tally(counts: SlotCounts, nowMs: number): Tally {
  const { oldest, newest } = countedRange(nowMs);
  const offsetMs = nowMs - slotOf(nowMs) * LIMITS.slotMs;
  let weighted = 0;
  let conservative = 0;
  let first: number | undefined;
  // Each map key once: a slot is a key, so nothing can be counted twice.
  for (const [key, n] of Object.entries(counts)) {
    const slot = Number(key);
    if (!Number.isSafeInteger(slot) || slot < oldest || slot > newest || !(n > 0)) continue;
    conservative += n;
    weighted += slot === oldest ? stillInWindow(n, offsetMs) : n;
    if (first === undefined || slot < first) first = slot;
  }
  return { weighted, conservative, oldest: first };
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted slot has left the window (1 to 60). */
  resetSeconds: number;
  /** Whole seconds until one more request would fit (1 to 60; only meaningful when not allowed). */
  retryAfterSeconds: number;
}

/**
 * Decides a request made at `nowMs` (by its own clock), given the key's slots with this request
 * already counted in `slotOf(nowMs)`.
 *
 * Admitted when both counts are within their limits:
 * - the weighted estimate (every slot wholly inside the last 60 s, plus the part of the oldest,
 *   partly covered slot still inside it) ≤ 600. This is what keeps steady traffic at 600 a minute;
 * - the conservative count (every slot that touches the last 60 s, in full) ≤ 660.
 *
 * Why 660 is a hard bound on any 60-second interval I: let X be the admitted request of I whose
 * count DynamoDB applied last. Every other admitted request of I was counted before X's update (and
 * an admitted request's count is never taken back), in a slot between slotOf(start of I) and that
 * plus 10, since I lasts less than 60 s = 10 slots. X's slot is in the same range, and X's
 * conservative count covers its slot, the ten before and the one after, so it covers all of them
 * provided no request of I counted before X is more than one slot ahead of X (true when clocks
 * agree within a few seconds and a request's count lands within a slot of its clock reading). So
 * the requests admitted in I are at most X's conservative count, which was ≤ 660.
 */
export function decideRate(counts: SlotCounts, nowMs: number): RateDecision {
  const limit = LIMITS.requestsPerMinute;
  const hard = LIMITS.hardRequestsPerMinute;
  const { weighted, conservative, oldest } = tally(counts, nowMs);
  const allowed = weighted <= limit && conservative <= hard;
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.min(limit - weighted, hard - conservative)),
    resetSeconds:
      oldest === undefined
        ? LIMITS.windowMs / 1000
        : toSeconds((oldest + SLOTS_PER_WINDOW + 1) * LIMITS.slotMs - nowMs),
    retryAfterSeconds: allowed ? 0 : retryAfterSeconds(counts, nowMs),
  };
}

/** Whole seconds, at least 1 and at most a window, whatever the clocks did. */
const toSeconds = (ms: number): number => Math.min(LIMITS.windowMs / 1000, Math.max(1, Math.ceil(ms / 1000)));

/**
 * When would one more request fit, once this refused one is taken back? Slot by slot from the
 * caller's: a later request counts in its own slot, the counts there are fixed, and within a slot
 * only the oldest slot's share falls as time passes.
 */
function retryAfterSeconds(counts: SlotCounts, nowMs: number): number {
  const limit = LIMITS.requestsPerMinute;
  const hard = LIMITS.hardRequestsPerMinute;
  const now = slotOf(nowMs);
  const { oldest, newest } = countedRange(nowMs);
  // What is counted now, without this request (it is taken back).
  const base = new Map<number, number>();
  for (const [key, n] of Object.entries(counts)) {
    const slot = Number(key);
    if (Number.isSafeInteger(slot) && slot >= oldest && slot <= newest && n > 0) base.set(slot, n);
  }
  base.set(now, (base.get(now) ?? 0) - 1);
  // By slot newest + 11 nothing counted now is in the window any more, so the loop always returns.
  for (let later = now; later <= newest + SLOTS_PER_WINDOW + 1; later++) {
    let whole = 1; // the retry itself
    for (let slot = later - SLOTS_PER_WINDOW + 1; slot <= later + 1; slot++) whole += base.get(slot) ?? 0;
    const partial = Math.max(0, base.get(later - SLOTS_PER_WINDOW) ?? 0);
    if (whole > limit || whole + partial > hard) continue;
    // stillInWindow(partial, offset) ≤ limit - whole ⟺ offset ≥ (partial - 1 - (limit - whole)) × slot / partial.
    const excess = partial - 1 - (limit - whole);
    const offsetMs = excess > 0 ? Math.ceil((excess * LIMITS.slotMs) / partial) : 0;
    const at = Math.max(nowMs, later * LIMITS.slotMs + offsetMs);
    return toSeconds(at - nowMs);
  }
  return LIMITS.windowMs / 1000;
}
