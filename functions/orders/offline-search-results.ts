import type { RoutePorts } from '../../shared/app/ports.ts';
import { blobs } from '../../shared/composition/aws/blobs.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { offlineSearches } from '../../shared/composition/aws/orders.ts';
import { pageOfArray } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { assertSearchReadable, findOfflineSearch } from '../../shared/orders/read.ts';
import { readOfflineResults } from '../../shared/orders/results.ts';
import { orderRoutes } from '../../shared/orders/routes.ts';

export const createHandler = (ports: RoutePorts<typeof orderRoutes.listOfflineSearchResults>) =>
  createHttpHandler(orderRoutes.listOfflineSearchResults, ports, async ({ path, query, auth }) => {
    const search = assertSearchReadable(await findOfflineSearch(ports.offlineSearches, path.searchId), auth);
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
    const page = await pageOfArray(
      matches,
      pageRequest(ports, orderRoutes.listOfflineSearchResults, auth, query, { searchId: search.id }),
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(
  awsRoutePorts(orderRoutes.listOfflineSearchResults, { offlineSearches, blobs }),
);
