import { describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/kernel/clock.ts';
import { CursorCodec, EMPTY_CURSOR, pageOfArray } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';

/** A clock that only moves when told to, so the 30-minute boundary is exact. */
const clock = {
  at: Date.parse('2026-11-21T10:00:00Z'),
  now() {
    return new Date(this.at);
  },
  advance(ms: number) {
    this.at += ms;
  },
} satisfies Clock & { at: number; advance(ms: number): void };
const codec = new CursorCodec(async () => 'test-signing-key', clock);

async function rejection(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect([apiError.code, apiError.status, apiError.param]).toEqual(['validation_error', 400, 'cursor']);
  return apiError.message;
}

const owner = { accountId: 'acct_one', environment: 'test' };
const forms = (filters: Record<string, unknown> = {}, who = owner) => ({
  route: 'ListForms',
  filters,
  owner: who,
});

describe('cursor codec', () => {
  it('round-trips a position for the same route, filters and owner, in any key order', async () => {
    const cursor = await codec.encode(forms({ category: 'debt', type: undefined }), { offset: 20 });
    expect(await codec.decode(forms({ category: 'debt' }), cursor)).toEqual({ offset: 20 });
  });

  it('starts at the first page without a cursor, and refuses an empty one', async () => {
    expect(await codec.decode(forms(), undefined)).toBeUndefined();
    expect(await rejection(codec.decode(forms(), ''))).toBe(EMPTY_CURSOR);
  });

  it('refuses a tampered, truncated or foreign cursor', async () => {
    const cursor = await codec.encode(forms(), 5);
    const [payload, signature] = cursor.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), p: 0 }),
    );
    const notOurs = 'cursor is not a cursor this API issued.';
    expect(await rejection(codec.decode(forms(), `${forged.toString('base64url')}.${signature}`))).toBe(
      notOurs,
    );
    expect(await rejection(codec.decode(forms(), payload))).toBe(notOurs);
    expect(await rejection(codec.decode(forms(), 'garbage'))).toBe(notOurs);
    const other = new CursorCodec(async () => 'another-key', clock);
    expect(await rejection(other.decode(forms(), cursor))).toBe(notOurs);
  });

  it('refuses, like a tampered one, a cursor issued to another account or environment', async () => {
    const cursor = await codec.encode(forms(), 5);
    const notOurs = 'cursor is not a cursor this API issued.';
    for (const who of [
      { accountId: 'acct_two', environment: 'test' },
      { accountId: 'acct_one', environment: 'live' },
    ]) {
      expect(await rejection(codec.decode(forms({}, who), cursor))).toBe(notOurs);
    }
    // Any key of the same account and environment may continue it.
    expect(await codec.decode(forms({}, { ...owner }), cursor)).toBe(5);
  });

  it('refuses a cursor of another list or with changed filters', async () => {
    const cursor = await codec.encode(forms({ category: 'debt' }), 5);
    expect(
      await rejection(codec.decode({ ...forms({ category: 'debt' }), route: 'ListExtracts' }, cursor)),
    ).toContain('another list');
    expect(await rejection(codec.decode(forms({ category: 'financial' }), cursor))).toContain(
      'filters changed',
    );
  });

  it('expires 30 minutes after issue', async () => {
    const cursor = await codec.encode(forms(), 5);
    clock.advance(30 * 60_000);
    expect(await codec.decode(forms(), cursor)).toBe(5);
    clock.advance(1);
    expect(await rejection(codec.decode(forms(), cursor))).toContain('expired');
  });
});

describe('pages of a fixed list', () => {
  it('walks every item once and ends with hasMore false and no cursor', async () => {
    const items = Array.from({ length: 11 }, (_, i) => i);
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await pageOfArray(items, { route: 'R', filters: {}, owner, limit: 4, cursor, codec });
      expect(page.totalCount).toBe(11);
      seen.push(...page.data);
      cursor = page.nextCursor ?? undefined;
      pages++;
      expect(page.hasMore).toBe(page.nextCursor !== null);
    } while (cursor);
    expect(seen).toEqual(items);
    expect(pages).toBe(3);
  });
});
