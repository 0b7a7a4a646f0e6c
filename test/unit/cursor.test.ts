import { describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/domain/clock.ts';
import { CursorCodec, pageOfArray } from '../../shared/domain/cursor.ts';
import { ApiError } from '../../shared/errors/api-error.ts';

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

describe('cursor codec', () => {
  it('round-trips a position for the same route and filters, in any key order', async () => {
    const cursor = await codec.encode('ListForms', { category: 'debt', type: undefined }, { offset: 20 });
    expect(await codec.decode('ListForms', { category: 'debt' }, cursor)).toEqual({ offset: 20 });
  });

  it('refuses a tampered, truncated or foreign cursor', async () => {
    const cursor = await codec.encode('ListForms', {}, 5);
    const [payload, signature] = cursor.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), p: 0 }),
    );
    await rejection(codec.decode('ListForms', {}, `${forged.toString('base64url')}.${signature}`));
    await rejection(codec.decode('ListForms', {}, payload));
    await rejection(codec.decode('ListForms', {}, 'garbage'));
    const other = new CursorCodec(async () => 'another-key', clock);
    await rejection(other.decode('ListForms', {}, cursor));
  });

  it('refuses a cursor of another list or with changed filters', async () => {
    const cursor = await codec.encode('ListForms', { category: 'debt' }, 5);
    expect(await rejection(codec.decode('ListExtracts', { category: 'debt' }, cursor))).toContain(
      'another list',
    );
    expect(await rejection(codec.decode('ListForms', { category: 'financial' }, cursor))).toContain(
      'filters changed',
    );
  });

  it('expires 30 minutes after issue', async () => {
    const cursor = await codec.encode('ListForms', {}, 5);
    clock.advance(30 * 60_000);
    expect(await codec.decode('ListForms', {}, cursor)).toBe(5);
    clock.advance(1);
    expect(await rejection(codec.decode('ListForms', {}, cursor))).toContain('expired');
  });
});

describe('pages of a fixed list', () => {
  it('walks every item once and ends with hasMore false and no cursor', async () => {
    const items = Array.from({ length: 11 }, (_, i) => i);
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await pageOfArray(items, { route: 'R', filters: {}, limit: 4, cursor, codec });
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
