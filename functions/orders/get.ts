import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { orders } from '../../shared/composition/aws/orders.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { orderResult } from '../../shared/orders/present.ts';
import { assertOrderReadable, findOrder } from '../../shared/orders/read.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

export const createHandler = (ports: HttpPorts<'orders'>) =>
  createHttpHandler(orderRoutes.getOrder, ports, async ({ path, auth }) => {
    const order = assertOrderReadable(await findOrder(ports.orders, path.orderId), auth);
    // Reading an order is free, whatever its purchase cost.
    return { ...orderResult(order, ports.config.apiBaseUrl), billable: false };
  });

export const handler = createHandler(awsHttpPorts({ orders }));
