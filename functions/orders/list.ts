import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { pageOfStore } from '../../shared/kernel/cursor.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { orders } from '../../shared/orders/composition.ts';
import { presentOrder } from '../../shared/orders/present.ts';
import * as orderRoutes from '../../shared/orders/routes.ts';

export const createHandler = (ports: RoutePorts<typeof orderRoutes.listOrders>) =>
  createHttpHandler(orderRoutes.listOrders, ports, async ({ query, auth }) => {
    const page = await pageOfStore(
      pageRequest(ports, orderRoutes.listOrders, auth, query, { status: query.status, type: query.type }),
      (position) =>
        ports.orders.list(auth.accountId, auth.environment, {
          ...(query.status ? { status: query.status } : {}),
          ...(query.type ? { type: query.type } : {}),
          ...position,
        }),
      (order) => presentOrder(order, ports.config.apiBaseUrl),
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsRoutePorts(orderRoutes.listOrders, { orders }));
