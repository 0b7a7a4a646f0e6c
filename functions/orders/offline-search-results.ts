import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { blobs } from '../../shared/orders/composition/blobs.ts';
import { offlineSearches } from '../../shared/orders/composition.ts';
import * as orderRoutes from '../../shared/orders/routes.ts';
import { listOfflineSearchResults } from '../../shared/orders/search-results.ts';

export const createHandler = (ports: RoutePorts<typeof orderRoutes.listOfflineSearchResults>) =>
  createHttpHandler(orderRoutes.listOfflineSearchResults, ports, async ({ path, query, auth }) => {
    const read = { searches: ports.offlineSearches, blobs: ports.blobs, cursors: ports.cursors, owner: auth };
    const page = await listOfflineSearchResults(read, path.searchId, query);
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(
  awsRoutePorts(orderRoutes.listOfflineSearchResults, { offlineSearches, blobs }),
);
