/** Reading a held weekly summary (free, never the registry): the extract with a page of its items. */
import { assertReadable, checkExtractId } from '../extracts/lifecycle.ts';
import type { HeldExtracts } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { type CursorCodec, decodeOffset } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { PAGE_SIZE } from '../kernel/http/schemas.ts';
import { itemsCursorScope, presentWeeklySummary } from './present.ts';

export interface WeeklySummaryRead {
  store: Pick<HeldExtracts, 'getHeader' | 'readPage'>;
  cursors: CursorCodec;
  owner: Owner;
  now: Date;
}

/** A held weekly summary with one page of its items (narrowed to a postcode when asked). */
export async function readWeeklySummary(
  reads: WeeklySummaryRead,
  id: string,
  query: { postcode?: string | undefined; limit?: number | undefined; cursor?: string | undefined },
) {
  const { store, cursors, owner } = reads;
  checkExtractId(id);
  const header = assertReadable(await store.getHeader(id), owner, reads.now);
  if (header.kind !== 'weeklySummary') {
    throw new ApiError('extract_not_found', {
      param: 'id',
      message: `${id} is a ${header.kind} extract, not a weekly summary.`,
    });
  }
  const scope = itemsCursorScope(header.id, query.postcode, owner);
  const offset = await decodeOffset(cursors, scope, query.cursor);
  return presentWeeklySummary(store, header, {
    postcode: query.postcode,
    offset,
    limit: query.limit ?? PAGE_SIZE.default,
    encodeNext: (next) => cursors.encode(scope, next),
  });
}
