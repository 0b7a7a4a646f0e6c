import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock.ts';
import { ApiError } from './errors/api-error.ts';

/** Cursors stay valid for 30 minutes after they are issued. */
export const CURSOR_TTL_MS = 30 * 60_000;

interface CursorBody<P> {
  /** Route the cursor was made for. */
  r: string;
  /** Fingerprint of the filters the first page was asked with. */
  f: string;
  /** Issue time, epoch ms. */
  t: number;
  /** Where the next page starts: an offset, a DynamoDB key, whatever the list needs. */
  p: P;
}

const cursorError = (message: string) =>
  new ApiError('validation_error', { status: 400, param: 'cursor', message });

const NOT_OURS = 'cursor is not a cursor this API issued.';

/** The empty cursor's message, the same from the query schema and from the codec. */
export const EMPTY_CURSOR = 'cursor must not be empty: leave it out to get the first page.';

/** Which list a cursor continues, with which filters, for whom. */
export interface CursorScope {
  /** Route the cursor is for. */
  route: string;
  /** The filters of the first page: a cursor only continues the same list. */
  filters: Record<string, unknown>;
  /** Who asked: a cursor works only for the account and environment it was issued to. */
  owner: { accountId: string; environment: string };
}

/** Stable text for a filter set: key order does not matter, absent and undefined are the same. */
export function filterFingerprint(filters: Record<string, unknown>): string {
  const entries = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash(JSON.stringify(entries));
}

function createHash(text: string): string {
  return createHmac('sha256', 'filters').update(text).digest('base64url').slice(0, 16);
}

/**
 * Opaque, signed pagination cursors. The signature stops a client from editing the position or
 * the issue time, and covers the owner (account and environment) without carrying it, so a
 * cursor used by anyone else fails like a tampered one; the fingerprint detects a filter changed
 * between pages.
 */
export class CursorCodec {
  constructor(
    private readonly signingKey: () => Promise<string>,
    private readonly clock: Clock,
  ) {}

  async encode<P>(scope: CursorScope, position: P): Promise<string> {
    const body: CursorBody<P> = {
      r: scope.route,
      f: filterFingerprint(scope.filters),
      t: this.clock.now().getTime(),
      p: position,
    };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${await this.sign(scope.owner, payload)}`;
  }

  /**
   * Where the next page starts: undefined without a cursor (the first page). Any string given,
   * the empty one included, must be a cursor issued for this scope.
   */
  async decode<P>(scope: CursorScope, cursor: string | undefined): Promise<P | undefined> {
    if (cursor === undefined) return undefined;
    if (cursor === '') throw cursorError(EMPTY_CURSOR);
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw cursorError(NOT_OURS);
    const expected = Buffer.from(await this.sign(scope.owner, payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw cursorError(NOT_OURS);
    }
    let body: CursorBody<P>;
    try {
      body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorBody<P>;
    } catch {
      throw cursorError(NOT_OURS);
    }
    if (body.r !== scope.route) throw cursorError('cursor was issued for another list.');
    if (this.clock.now().getTime() - body.t > CURSOR_TTL_MS) {
      throw cursorError('cursor expired: cursors are valid for 30 minutes. Start again from the first page.');
    }
    if (body.f !== filterFingerprint(scope.filters)) {
      throw cursorError(
        'The filters changed since this cursor was issued. Keep them the same or start again.',
      );
    }
    return body.p;
  }

  /**
   * A signature of `text` under the same signing key, for another short-lived token bound to a
   * caller (an MCP quote's confirmation token, shared/mcp/quotes.ts).
   */
  async signature(text: string): Promise<string> {
    return createHmac('sha256', await this.signingKey())
      .update(text)
      .digest('base64url');
  }

  private async sign(owner: CursorScope['owner'], payload: string): Promise<string> {
    return createHmac('sha256', await this.signingKey())
      .update(`${JSON.stringify([owner.accountId, owner.environment])}.${payload}`)
      .digest('base64url');
  }
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number | null;
}

/**
 * One page of a list a store keeps in order: the store is asked for `limit` items after the key
 * the cursor carries, and the key it reports next becomes the next cursor. The total is null
 * (counting would read the whole list).
 */
export async function pageOfStore<T, R>(
  options: CursorScope & { limit: number; cursor: string | undefined; codec: CursorCodec },
  read: (page: { limit: number; after?: string }) => Promise<{ items: T[]; next?: string | undefined }>,
  present: (item: T) => R,
): Promise<Page<R>> {
  const { route, filters, owner } = options;
  const scope: CursorScope = { route, filters, owner };
  const after = await options.codec.decode<string>(scope, options.cursor);
  const page = await read({ limit: options.limit, ...(after ? { after } : {}) });
  return {
    data: page.items.map(present),
    hasMore: page.next !== undefined,
    nextCursor: page.next === undefined ? null : await options.codec.encode(scope, page.next),
    totalCount: null,
  };
}

/** The offset a list read by position continues from: 0 without a cursor. */
export async function decodeOffset(codec: CursorCodec, scope: CursorScope, cursor: string | undefined) {
  const offset = (await codec.decode<number>(scope, cursor)) ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw cursorError(NOT_OURS);
  return offset;
}

/** One page of an in-memory list (reference data), by offset. */
export async function pageOfArray<T>(
  items: readonly T[],
  options: CursorScope & {
    limit: number;
    cursor: string | undefined;
    codec: CursorCodec;
  },
): Promise<Page<T>> {
  const { route, filters, owner } = options;
  const scope: CursorScope = { route, filters, owner };
  const offset = await decodeOffset(options.codec, scope, options.cursor);
  const data = items.slice(offset, offset + options.limit);
  const next = offset + data.length;
  const hasMore = next < items.length;
  return {
    data,
    hasMore,
    nextCursor: hasMore ? await options.codec.encode(scope, next) : null,
    totalCount: items.length,
  };
}
