import type { HttpPorts } from '../../shared/app/ports.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { orders } from '../../shared/composition/aws/orders.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { orderResult } from '../../shared/orders/present.ts';
import { assertOrderReadable, findOrder } from '../../shared/orders/read.ts';
import { orderRoutes } from '../../shared/orders/routes.ts';

export const createHandler = (ports: HttpPorts<'orders'>) =>
  createHttpHandler(orderRoutes.getOrder, ports, async ({ path, auth }) => {
    const order = assertOrderReadable(await findOrder(ports.orders, path.orderId), auth);
    // Reading an order is free, whatever its purchase cost.
    return { ...orderResult(order, ports.config.apiBaseUrl), billable: false };
  });

export const handler = createHandler(awsHttpPorts({ orders }));
