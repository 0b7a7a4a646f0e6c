import { pageOfArray } from '../../shared/domain/cursor.ts';
import { ApiError } from '../../shared/errors/api-error.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { assertSearchReadable, findOfflineSearch } from '../../shared/orders/read.ts';
import { readOfflineResults } from '../../shared/orders/results.ts';
import { s3BlobStore } from '../../shared/orders/services/blobs.ts';
import { offlineSearchStore } from '../../shared/orders/services/stores.ts';
import type { BlobStore } from '../../shared/ports/orders.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

/** The route given the orders bucket (the local stack passes its own). */
export const createHandler = (ports: { blobs: BlobStore }) =>
  createHttpHandler(orderRoutes.listOfflineSearchResults, async ({ path, query, auth, services }) => {
    const search = assertSearchReadable(await findOfflineSearch(offlineSearchStore(), path.searchId), auth);
    if (search.status !== 'ready' || !search.resultsKey) {
      throw new ApiError('offline_search_not_ready', {
        param: 'searchId',
        message:
          search.status === 'failed'
            ? 'The offline search failed, so it has no results; see failure.'
            : `The offline search is ${search.status}; read its results once it is ready.`,
      });
    }
    const matches = await readOfflineResults(ports.blobs, search.resultsKey);
    const page = await pageOfArray(matches, {
      route: orderRoutes.listOfflineSearchResults.name,
      filters: { searchId: search.id },
      owner: auth,
      limit: query.limit ?? PAGE_SIZE.default,
      cursor: query.cursor,
      codec: services.cursors,
    });
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler({ blobs: s3BlobStore() });
