import { offlineSearchProduct } from '../../shared/domain/products.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { apiBaseUrl, presentOfflineSearch } from '../../shared/orders/present.ts';
import { assertSearchReadable, findOfflineSearch } from '../../shared/orders/read.ts';
import { offlineSearchStore } from '../../shared/orders/services/stores.ts';

export const handler = createHttpHandler(orderRoutes.getOfflineSearch, async ({ path, auth }) => {
  const search = assertSearchReadable(await findOfflineSearch(offlineSearchStore(), path.searchId), auth);
  // Like an order read: free, and naming what was bought.
  return { body: presentOfflineSearch(search, apiBaseUrl()), product: offlineSearchProduct.product };
});
