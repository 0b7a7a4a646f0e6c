import type { RoutePorts } from '../../shared/app/ports.ts';
import { offlineSearchProduct } from '../../shared/companies/products.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { offlineSearches } from '../../shared/orders/composition.ts';
import { presentOfflineSearch } from '../../shared/orders/present.ts';
import { assertSearchReadable, findOfflineSearch } from '../../shared/orders/read.ts';
import * as orderRoutes from '../../shared/orders/routes.ts';

export const createHandler = (ports: RoutePorts<typeof orderRoutes.getOfflineSearch>) =>
  createHttpHandler(orderRoutes.getOfflineSearch, ports, async ({ path, auth }) => {
    const search = assertSearchReadable(await findOfflineSearch(ports.offlineSearches, path.searchId), auth);
    // Like an order read: free, and naming what was bought.
    return {
      body: presentOfflineSearch(search, ports.config.apiBaseUrl),
      product: offlineSearchProduct.product,
    };
  });

export const handler = createHandler(awsRoutePorts(orderRoutes.getOfflineSearch, { offlineSearches }));
