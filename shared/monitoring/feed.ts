/**
 * The monitoring feed: the owner's monitoring events, oldest first, resumable from a position
 * that never expires (events are kept 90 days). Only events written at least FEED_SETTLE_MS ago
 * are shown, so a reader that resumes from the last position it was given never skips an event
 * that a slower writer stored with an earlier time.
 */
import { parseCompanyIdentifier } from '../companies/identifier.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { presentEvent } from '../webhooks/endpoints.ts';
import { FEED_SETTLE_MS, MONITORING_EVENT_RETENTION_MS } from './settings.ts';
import type { MonitorStore } from './store-port.ts';

const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z#\d{15}#\d{10}#evt_[0-9a-zA-Z]{1,64}$/;

export const encodePosition = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

export function decodePosition(position: string): string {
  const sk = /^[A-Za-z0-9_-]+$/.test(position) ? Buffer.from(position, 'base64url').toString('utf8') : '';
  if (!POSITION.test(sk)) {
    throw new ApiError('validation_error', {
      param: 'after',
      message: 'after must be a position this feed gave (nextPosition).',
    });
  }
  return sk;
}

export async function readFeed(
  monitors: Pick<MonitorStore, 'feed'>,
  owner: Owner,
  query: { after?: string | undefined; company?: string | undefined; limit?: number | undefined },
  now: Date,
) {
  const after = query.after === undefined ? undefined : decodePosition(query.after);
  const subjectKey =
    query.company === undefined ? undefined : parseCompanyIdentifier(query.company, 'company').number;
  const page = await monitors.feed(owner, {
    limit: query.limit ?? 20,
    before: toTimestamp(new Date(now.getTime() - FEED_SETTLE_MS)),
    since: toTimestamp(new Date(now.getTime() - MONITORING_EVENT_RETENTION_MS)),
    ...(after ? { after } : {}),
    ...(subjectKey ? { subjectKey } : {}),
  });
  const position = page.next ?? after;
  return {
    object: 'list' as const,
    data: page.items.map(presentEvent),
    hasMore: page.hasMore,
    nextPosition: position ? encodePosition(position) : null,
  };
}
