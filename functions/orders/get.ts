import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { orders } from '../../shared/orders/composition.ts';
import { orderResult } from '../../shared/orders/present.ts';
import { assertOrderReadable, findOrder } from '../../shared/orders/read.ts';
import * as orderRoutes from '../../shared/orders/routes.ts';

export const createHandler = (ports: RoutePorts<typeof orderRoutes.getOrder>) =>
  createHttpHandler(orderRoutes.getOrder, ports, async ({ path, auth }) => {
    const order = assertOrderReadable(await findOrder(ports.orders, path.orderId), auth);
    // Reading an order is free, whatever its purchase cost.
    return { ...orderResult(order, ports.config.apiBaseUrl), billable: false };
  });

export const handler = createHandler(awsRoutePorts(orderRoutes.getOrder, { orders }));
