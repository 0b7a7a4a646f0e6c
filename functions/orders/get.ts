import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { orderResult } from '../../shared/orders/present.ts';
import { assertOrderReadable, findOrder } from '../../shared/orders/read.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';

export const handler = createHttpHandler(orderRoutes.getOrder, async ({ path, auth }) => {
  const order = assertOrderReadable(await findOrder(orderStore(), path.orderId), auth);
  // Reading an order is free, whatever its purchase cost.
  return { ...orderResult(order), billable: false };
});
