import type { WindowCounts } from '../domain/rate-limit.ts';

export type Acquisition =
  | { ok: true; counts: WindowCounts }
  /** All leases taken; `counts` are the key's current-minute counts when known. */
  | { ok: false; reason: 'concurrency'; counts?: WindowCounts };

/** Shared, atomic per-key limit state (many Lambda instances serve one key). */
export interface LimiterStore {
  /** Counts the request in the current minute and takes one of the key's concurrency leases. */
  acquire(keyId: string, requestId: string, now: Date): Promise<Acquisition>;
  /** Gives the lease back; `uncount` also removes the request from its minute (it was rejected). */
  release(keyId: string, requestId: string, options?: { uncountFromWindow?: number }): Promise<void>;
}
