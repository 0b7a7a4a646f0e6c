/**
 * Listing held weekly summaries (free), apart from reading one so that the list's bundle carries no
 * item presenter.
 */

import './errors.ts';
import type { HeldExtracts } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { type CursorCodec, pageOfStore } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import { isWeeklySummaryType, weeklySummaryTypes } from './registry-port.ts';
import * as weeklySummaryRoutes from './routes.ts';

/**
 * One page of the account's unexpired weekly summaries, newest first (like
 * GET /v1/extracts?kind=weeklySummary), narrowed to a type and/or a week. Each entry is the
 * extract without its items.
 */
export async function listWeeklySummaries(
  reads: { store: Pick<HeldExtracts, 'list'>; cursors: CursorCodec; owner: Owner; now: Date },
  query: {
    type?: string | undefined;
    weekStarting?: string | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  },
) {
  const { store, cursors, owner } = reads;
  if (query.type !== undefined && !isWeeklySummaryType(query.type)) {
    throw new ApiError('summary_type_invalid', {
      param: 'type',
      message: `type must be one of ${weeklySummaryTypes.join(', ')}.`,
    });
  }
  // Subject keys are `<type>#<weekStarting>`.
  const subject = {
    ...(query.type !== undefined ? { prefix: `${query.type}#` } : {}),
    ...(query.weekStarting !== undefined ? { contains: `#${query.weekStarting}` } : {}),
  };
  const filters = { type: query.type, weekStarting: query.weekStarting };
  return pageOfStore(
    pageRequest({ cursors }, weeklySummaryRoutes.listWeeklySummaries, owner, query, filters),
    (position) =>
      store.list(owner.accountId, owner.environment, {
        kind: 'weeklySummary',
        ...position,
        now: reads.now.toISOString(),
        subject,
      }),
    (item) => item.summary,
  );
}
