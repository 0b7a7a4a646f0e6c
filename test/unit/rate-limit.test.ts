import { describe, expect, it } from 'vitest';
import {
  decideRate,
  LIMITS,
  type RateDecision,
  type SlotCounts,
  slotOf,
  staleSlots,
  unkeyedRateHeaders,
} from '../../shared/kernel/rate-limit.ts';

/** A minute boundary (also a slot boundary), far from any real clock. */
const minute = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
const second = 1000;
const day = 86_400_000;

/**
 * One key's limit state as the DynamoDB adapter keeps it, driven by the pure decision: the request
 * is counted in its slot, decided, taken back if refused, and the stale slots are dropped.
 */
class SimulatedKey {
  readonly counts: Record<string, number> = {};
  readonly admitted: number[] = [];

  request(nowMs: number): RateDecision {
    const slot = String(slotOf(nowMs));
    this.counts[slot] = (this.counts[slot] ?? 0) + 1;
    const decision = decideRate(this.counts, nowMs);
    for (const stale of staleSlots(this.counts, nowMs)) delete this.counts[String(stale)];
    if (decision.allowed) this.admitted.push(nowMs);
    else this.counts[slot] = (this.counts[slot] ?? 0) - 1;
    return decision;
  }

  /** Sends at `nowMs` until one is refused: how many were admitted. */
  flood(nowMs: number): number {
    let admitted = 0;
    while (this.request(nowMs).allowed) admitted++;
    return admitted;
  }
}

/** The most requests admitted in any 60-second interval [t, t + 60 s). */
function worstMinute(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let worst = 0;
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    while (end < sorted.length && (sorted[end] as number) < (sorted[start] as number) + LIMITS.windowMs)
      end++;
    worst = Math.max(worst, end - start);
  }
  return worst;
}

/** 600 requests evenly over seconds 55–57 of `minute`. */
function boundaryBurst(key: SimulatedKey): number {
  let admitted = 0;
  for (let i = 0; i < 600; i++)
    if (key.request(minute + 55 * second + Math.floor((i * 2000) / 600)).allowed) admitted++;
  return admitted;
}

describe('the boundary burst (issue 13, item 8)', () => {
  it('admits the 600 at seconds 55–57 and none at second 20 of the next minute', () => {
    const key = new SimulatedKey();
    expect(boundaryBurst(key)).toBe(600);

    const at20 = minute + 80 * second;
    const refused = key.request(at20);
    // The burst's slot (54–60 s) leaves the window at 60 s of the next minute (Reset 40); one more
    // request fits from 54 s, when that slot is the oldest and its count starts to fall.
    expect(refused).toEqual({
      allowed: false,
      limit: 600,
      remaining: 0,
      resetSeconds: 40,
      retryAfterSeconds: 34,
    });
    expect(key.flood(at20)).toBe(0);
    expect(key.flood(minute + 80 * second + 999)).toBe(0);
    expect(worstMinute(key.admitted)).toBe(600);

    // As Retry-After says: one at 54 s; at 58 s the estimate has fallen to 199, but the slot
    // still touches the window, so the hard bound allows 660 - 601 = 59 more; at 60 s it has left.
    expect(key.flood(minute + 113 * second)).toBe(0);
    expect(key.flood(minute + 114 * second)).toBe(1);
    expect(key.flood(minute + 118 * second)).toBe(59);
    expect(key.flood(minute + 119 * second + 999)).toBe(0);
    expect(key.flood(minute + 120 * second)).toBe(600 - 60);
    // The 59 came more than 60 s after the burst: the worst minute holds the burst and the one at 54 s.
    expect(worstMinute(key.admitted)).toBe(601);
  });

  it('never admits more than 660 in any 60 seconds, whatever a greedy client does after the burst', () => {
    const worst: Record<number, number> = {};
    for (const tickMs of [7, 100, 250, 1000, 2999, 6000]) {
      const key = new SimulatedKey();
      boundaryBurst(key);
      // Every tick, as many requests as are admitted, for five minutes.
      for (let t = minute + 57 * second; t < minute + 6 * 60 * second; t += tickMs) key.flood(t);
      worst[tickMs] = worstMinute(key.admitted);
    }
    // The bound is reached, and never passed.
    expect(worst).toEqual({ 7: 660, 100: 660, 250: 660, 1000: 659, 2999: 660, 6000: 600 });
  });

  it('never admits more than 660 in any 60 seconds for bursts placed anywhere (seeded search)', () => {
    let seed = 13;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let worstSeen = 0;
    for (let run = 0; run < 50; run++) {
      const key = new SimulatedKey();
      let t = minute + Math.floor(random() * 60 * second);
      for (let burst = 0; burst < 30; burst++) {
        // Bursts of up to 700 at one instant or spread over a few ms, at the edges of slots or not.
        const size = Math.floor(random() * 700);
        for (let i = 0; i < size; i++) key.request(t + Math.floor(random() * 3));
        t += random() < 0.5 ? Math.floor(random() * 12 * second) : LIMITS.slotMs - (t % LIMITS.slotMs) - 1;
      }
      worstSeen = Math.max(worstSeen, worstMinute(key.admitted));
    }
    expect(worstSeen).toBeLessThanOrEqual(660);
    expect(worstSeen).toBeGreaterThan(600);
  }, 30_000);
});

describe('steady traffic', () => {
  it.each([0, 1, 37, 50, 99])(
    'admits every request at 10 a second for five minutes (phase %i ms)',
    (phase) => {
      const key = new SimulatedKey();
      for (let i = 0; i < 3000; i++) {
        const decision = key.request(minute + phase + i * 100);
        expect(decision.allowed, `request ${i}`).toBe(true);
      }
      expect(worstMinute(key.admitted)).toBe(600);
      // Now exactly at the limit: one more at the same instant is refused, for 0.1 s.
      const extra = key.request(minute + phase + 2999 * 100);
      expect(extra).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    },
  );

  it('admits a steady 9 a second with room to spare', () => {
    const key = new SimulatedKey();
    let last: RateDecision | undefined;
    for (let i = 0; i < 9 * 180; i++) last = key.request(minute + Math.floor((i * 1000) / 9));
    expect(key.admitted).toHaveLength(9 * 180);
    expect(last?.remaining).toBeGreaterThanOrEqual(59);
    expect(last?.remaining).toBeLessThanOrEqual(61);
  });
});

describe('within one minute', () => {
  it('allows the 600th request and refuses the 601st', () => {
    const at = minute + second;
    const slot = String(slotOf(at));
    expect(decideRate({ [slot]: 600 }, at)).toEqual({
      allowed: true,
      limit: 600,
      remaining: 0,
      resetSeconds: 60,
      retryAfterSeconds: 0,
    });
    // The 601st is taken back; one more fits when the slot is the oldest, 60 s after its start.
    expect(decideRate({ [slot]: 601 }, at)).toEqual({
      allowed: false,
      limit: 600,
      remaining: 0,
      resetSeconds: 60,
      retryAfterSeconds: 59,
    });
  });

  it('reports remaining and reset from the oldest counted slot', () => {
    const at = minute + 30 * second;
    const counts = { [String(slotOf(minute))]: 100, [String(slotOf(at))]: 10 };
    // The oldest slot (0–6 s) leaves the window at 66 s: 36 s from now.
    expect(decideRate(counts, at)).toEqual({
      allowed: true,
      limit: 600,
      remaining: 490,
      resetSeconds: 36,
      retryAfterSeconds: 0,
    });
  });

  it('counts the oldest slot by the part of it still in the window', () => {
    const oldest = String(slotOf(minute));
    const current = String(slotOf(minute + 60 * second));
    // 600 in 0–6 s, taken as evenly spaced: at 63 s the window starts at 3 s, and 299 of them are
    // after it (the one at exactly 3 s is not): 300 with this one. Remaining is the smaller room,
    // here the hard bound's: 660 - 601.
    expect(decideRate({ [oldest]: 600, [current]: 1 }, minute + 63 * second)).toEqual({
      allowed: true,
      limit: 600,
      remaining: 59,
      resetSeconds: 3,
      retryAfterSeconds: 0,
    });
    expect(decideRate({ [oldest]: 600, [current]: 59 }, minute + 63 * second)).toMatchObject({
      allowed: true,
      remaining: 1,
    });
    // Over the hard bound: one more fits when the oldest slot has left the window, at 66 s.
    expect(decideRate({ [oldest]: 600, [current]: 61 }, minute + 63 * second)).toEqual({
      allowed: false,
      limit: 600,
      remaining: 0,
      resetSeconds: 3,
      retryAfterSeconds: 3,
    });
    // Within the hard bound (655), over the estimate: at 61 s, 83 of 100 + 555 = 638. With this one
    // taken back, one more fits when no more than 45 of the 100 remain: from 63.24 s.
    expect(decideRate({ [oldest]: 100, [current]: 555 }, minute + 61 * second)).toEqual({
      allowed: false,
      limit: 600,
      remaining: 0,
      resetSeconds: 5,
      retryAfterSeconds: 3,
    });
    // But both slots touch the window: 600 + 61 is over the hard bound however the estimate falls.
    expect(decideRate({ [oldest]: 600, [current]: 61 }, minute + 65 * second)).toMatchObject({
      allowed: false,
      remaining: 0,
      resetSeconds: 1,
      retryAfterSeconds: 1,
    });
  });

  it('gives the headers of a request with no usable key', () => {
    expect(unkeyedRateHeaders()).toEqual({
      'RateLimit-Limit': '600',
      'RateLimit-Remaining': '600',
      'RateLimit-Reset': '60',
    });
    expect(LIMITS.requestsPerMinute).toBe(600);
    expect(LIMITS.windowMs).toBe(60_000);
  });
});

describe('when the clock moves (issue 13, item 9)', () => {
  it('ignores slots written a day ahead once the clock is back, and keeps Reset within a minute', () => {
    const key = new SimulatedKey();
    const now = minute + 30 * second;
    for (let i = 0; i < 300; i++) key.request(now + day);
    // A minute later those 300 are the oldest slot: 299 are still in the window.
    expect(key.flood(now + day + 60 * second)).toBe(301);
    const ahead = Object.keys(key.counts).map(Number);

    const back = key.request(now);
    expect(back).toEqual({
      allowed: true,
      limit: 600,
      remaining: 599,
      resetSeconds: 60,
      retryAfterSeconds: 0,
    });
    // And they are removed, so the stored map stays small.
    for (const slot of ahead) expect(key.counts).not.toHaveProperty(String(slot));
    expect(key.counts).toEqual({ [String(slotOf(now))]: 1 });
  });

  it('ignores a future slot another instance has not cleaned yet, and a day behind ignores today', () => {
    const now = minute + 30 * second;
    const counts: SlotCounts = {
      [String(slotOf(now + day))]: 5000,
      [String(slotOf(now))]: 10,
    };
    expect(decideRate(counts, now)).toMatchObject({ allowed: true, remaining: 590, resetSeconds: 60 });
    expect(staleSlots(counts, now)).toEqual([slotOf(now + day)]);
    expect(decideRate(counts, now - day)).toMatchObject({ allowed: true, remaining: 600, resetSeconds: 60 });
    expect(staleSlots(counts, now - day).sort()).toEqual([slotOf(now), slotOf(now + day)].sort());
  });

  it('counts a slot one ahead (a clock a little behind) once and in full, never more', () => {
    const now = minute + 59 * second;
    const next = String(slotOf(now) + 1);
    const current = String(slotOf(now));
    expect(decideRate({ [next]: 300, [current]: 300 }, now)).toMatchObject({ allowed: true, remaining: 0 });
    const over = decideRate({ [next]: 300, [current]: 301 }, now);
    expect(over).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60, retryAfterSeconds: 55 });
  });

  it('keeps Reset and Retry-After within 60 s whatever is stored', () => {
    const now = minute + 1;
    const counts: SlotCounts = { [String(slotOf(now) + 1)]: 100_000, [String(slotOf(now))]: 1 };
    expect(decideRate(counts, now)).toEqual({
      allowed: false,
      limit: 600,
      remaining: 0,
      resetSeconds: 60,
      retryAfterSeconds: 60,
    });
  });

  it('counts each request once when the clock goes a few seconds back and forth', () => {
    const key = new SimulatedKey();
    for (let i = 0; i < 3; i++) key.request(minute - second);
    for (let i = 0; i < 3; i++) key.request(minute + second);
    expect(key.request(minute - 2 * second)).toMatchObject({
      allowed: true,
      remaining: 593,
      resetSeconds: 60,
    });
    expect(key.request(minute + 1500)).toMatchObject({ allowed: true, remaining: 592, resetSeconds: 59 });
  });

  it('drops stale slots but keeps the one just behind the window for a clock a little behind', () => {
    const now = minute + 30 * second;
    const slot = slotOf(now);
    const counts = Object.fromEntries(
      [slot - 12, slot - 11, slot - 10, slot, slot + 1, slot + 2].map((s) => [String(s), 1]),
    );
    expect(staleSlots({ ...counts, junk: 1 }, now).sort()).toEqual([Number.NaN, slot - 12, slot + 2].sort());
  });
});
