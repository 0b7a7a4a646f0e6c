/** The results of a ready offline search, one page at a time (free). */
import type { Owner } from '../kernel/api-keys.ts';
import { type CursorCodec, pageOfArray } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import { assertSearchReadable, findOfflineSearch } from './read.ts';
import { readOfflineResults } from './results.ts';
import * as orderRoutes from './routes.ts';
import type { BlobStore, OfflineSearchStore } from './store-port.ts';

export interface OfflineResultsRead {
  searches: OfflineSearchStore;
  blobs: BlobStore;
  cursors: CursorCodec;
  owner: Owner;
}

/** One page of the search's matches; a search that is not ready (or failed) has none to read. */
export async function listOfflineSearchResults(
  { searches, blobs, cursors, owner }: OfflineResultsRead,
  searchId: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
) {
  const search = assertSearchReadable(await findOfflineSearch(searches, searchId), owner);
  if (search.status !== 'ready' || !search.resultsKey) {
    throw new ApiError('offline_search_not_ready', {
      param: 'searchId',
      message:
        search.status === 'failed'
          ? 'The offline search failed, so it has no results; see failure.'
          : `The offline search is ${search.status}; read its results once it is ready.`,
    });
  }
  const matches = await readOfflineResults(blobs, search.resultsKey);
  const filters = { searchId: search.id };
  return pageOfArray(
    matches,
    pageRequest({ cursors }, orderRoutes.listOfflineSearchResults, owner, query, filters),
  );
}
