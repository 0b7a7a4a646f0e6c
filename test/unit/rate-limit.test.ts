import { describe, expect, it } from 'vitest';
import { decideRate, slidingCount } from '../../shared/domain/rate-limit.ts';

const minute = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);

describe('sliding minute', () => {
  it('weights the previous minute by how much of it still overlaps the last 60 seconds', () => {
    expect(slidingCount({ windowStart: minute, current: 100, previous: 600 }, minute + 15_000)).toBe(550);
    expect(slidingCount({ windowStart: minute, current: 100, previous: 600 }, minute + 60_000)).toBe(100);
  });

  it('allows the 600th request and refuses the 601st in one minute', () => {
    expect(decideRate({ windowStart: minute, current: 600, previous: 0 }, minute + 1000)).toMatchObject({
      allowed: true,
      remaining: 0,
      limit: 600,
    });
    const refused = decideRate({ windowStart: minute, current: 601, previous: 0 }, minute + 1000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 59 });
    // The current minute must become the previous one and decay by 2/601 of a minute: 59 s + 0.2 s.
    expect(refused.retryAfterSeconds).toBe(60);
  });

  it('computes Retry-After from the decay of the previous minute', () => {
    // 300 now + 600 × overlap: at 10 s overlap is 5/6 → 800. One more fits when 600 × overlap ≤ 299,
    // i.e. overlap ≤ 0.4983 → 30.1 s into the minute → 20.1 s from now → 21 s.
    const refused = decideRate({ windowStart: minute, current: 300, previous: 600 }, minute + 10_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(21);
  });

  it('reports remaining requests rounded down and reset as seconds to the end of the minute', () => {
    const decision = decideRate({ windowStart: minute, current: 10, previous: 100 }, minute + 30_000);
    expect(decision).toEqual({
      allowed: true,
      limit: 600,
      remaining: 540,
      resetSeconds: 30,
      retryAfterSeconds: 0,
    });
  });
});
