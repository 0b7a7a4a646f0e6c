import { describe, expect, it } from 'vitest';
import { money, trend, unpricedNote } from '../../shared/console/client/money.ts';

describe("the console's spend in words", () => {
  it('writes cents in the currency as the locale does', () => {
    expect(money(8500, 'AUD')).toMatch(/^A?\$85\.00$/);
    expect(money(5, 'AUD')).toMatch(/^A?\$0\.05$/);
  });

  it("compares this month's spend with the same days of last month", () => {
    const aud = money(4000, 'AUD');
    expect(trend(5000, 4000, 'AUD')).toBe(`Up 25% on the same days of last month (${aud}).`);
    expect(trend(3000, 4000, 'AUD')).toBe(`Down 25% on the same days of last month (${aud}).`);
    expect(trend(4000, 4000, 'AUD')).toBe(`Level with the same days of last month (${aud}).`);
    expect(trend(100, 0, 'AUD')).toBe('Nothing on the same days of last month.');
    expect(trend(0, 0, 'AUD')).toBe('Nothing on the same days of last month either.');
  });

  it('counts the entries left out for want of a price in correct English', () => {
    expect(unpricedNote(0)).toBe('');
    expect(unpricedNote(1)).toBe(' 1 entry has no known price and is left out.');
    expect(unpricedNote(3)).toBe(' 3 entries have no known price and are left out.');
  });
});
