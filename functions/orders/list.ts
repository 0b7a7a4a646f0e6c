import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { apiBaseUrl, presentOrder } from '../../shared/orders/present.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const handler = createHttpHandler(orderRoutes.listOrders, async ({ query, auth, services }) => {
  const scope = {
    route: orderRoutes.listOrders.name,
    filters: { status: query.status, type: query.type },
    owner: auth,
  };
  const after = await services.cursors.decode<string>(scope, query.cursor);
  const page = await orderStore().list(auth.accountId, auth.environment, {
    ...(query.status ? { status: query.status } : {}),
    ...(query.type ? { type: query.type } : {}),
    limit: query.limit ?? PAGE_SIZE.default,
    ...(after ? { after } : {}),
  });
  const base = apiBaseUrl();
  return {
    body: {
      object: 'list',
      data: page.items.map((order) => presentOrder(order, base)),
      hasMore: page.next !== undefined,
      nextCursor: page.next === undefined ? null : await services.cursors.encode(scope, page.next),
      totalCount: null,
    },
  };
});
