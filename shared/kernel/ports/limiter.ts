import type { SlotCounts } from '../rate-limit.ts';

export type Acquisition =
  | {
      ok: true;
      /** The key's slots, this request counted in `slot`. */
      counts: SlotCounts;
      slot: number;
      /** Slots that no longer count (see `staleSlots`): `release` removes them. */
      stale: readonly number[];
    }
  /** All leases taken; `counts` are the key's slots (this request not counted) when known. */
  | { ok: false; reason: 'concurrency'; counts?: SlotCounts };

export interface ReleaseOptions {
  /** The request was refused: take its count back from this slot. */
  uncountSlot?: number;
  /** Slots to drop from the key's state, so that it stays small. */
  removeSlots?: readonly number[];
}

/** Shared, atomic per-key limit state (many Lambda instances serve one key). */
export interface LimiterStore {
  /**
   * Counts the request in its slot and takes one of the key's concurrency leases (at most
   * `maxConcurrent`, by default the per-key 20). The same state serves any other holder of leases
   * named like a key (an account's requests on one registry route).
   */
  acquire(keyId: string, requestId: string, now: Date, maxConcurrent?: number): Promise<Acquisition>;
  /** Gives the lease back, with the same one write taking back a refused count and dropping stale slots. */
  release(keyId: string, requestId: string, options?: ReleaseOptions): Promise<void>;
}
