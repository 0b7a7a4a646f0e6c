import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { pageOfStore } from '../../shared/kernel/cursor.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { offlineSearches } from '../../shared/orders/composition.ts';
import { presentOfflineSearch } from '../../shared/orders/present.ts';
import * as orderRoutes from '../../shared/orders/routes.ts';

export const createHandler = (ports: RoutePorts<typeof orderRoutes.listOfflineSearches>) =>
  createHttpHandler(orderRoutes.listOfflineSearches, ports, async ({ query, auth }) => {
    const page = await pageOfStore(
      pageRequest(ports, orderRoutes.listOfflineSearches, auth, query, {}),
      (position) => ports.offlineSearches.list(auth.accountId, auth.environment, position),
      (search) => presentOfflineSearch(search, ports.config.apiBaseUrl),
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsRoutePorts(orderRoutes.listOfflineSearches, { offlineSearches }));
