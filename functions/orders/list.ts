import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { orders } from '../../shared/composition/aws/orders.ts';
import { pageOfStore } from '../../shared/domain/cursor.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { presentOrder } from '../../shared/orders/present.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const createHandler = (ports: HttpPorts<'orders'>) =>
  createHttpHandler(orderRoutes.listOrders, ports, async ({ query, auth }) => {
    const page = await pageOfStore(
      {
        route: orderRoutes.listOrders.name,
        filters: { status: query.status, type: query.type },
        owner: auth,
        limit: query.limit ?? PAGE_SIZE.default,
        cursor: query.cursor,
        codec: ports.cursors,
      },
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

export const handler = createHandler(awsHttpPorts({ orders }));
