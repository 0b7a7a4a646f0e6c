import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { orders } from '../../shared/composition/aws/orders.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { presentOrder } from '../../shared/orders/present.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const createHandler = (ports: HttpPorts<'orders'>) =>
  createHttpHandler(orderRoutes.listOrders, ports, async ({ query, auth }) => {
    const scope = {
      route: orderRoutes.listOrders.name,
      filters: { status: query.status, type: query.type },
      owner: auth,
    };
    const after = await ports.cursors.decode<string>(scope, query.cursor);
    const page = await ports.orders.list(auth.accountId, auth.environment, {
      ...(query.status ? { status: query.status } : {}),
      ...(query.type ? { type: query.type } : {}),
      limit: query.limit ?? PAGE_SIZE.default,
      ...(after ? { after } : {}),
    });
    const base = ports.config.apiBaseUrl;
    return {
      body: {
        object: 'list',
        data: page.items.map((order) => presentOrder(order, base)),
        hasMore: page.next !== undefined,
        nextCursor: page.next === undefined ? null : await ports.cursors.encode(scope, page.next),
        totalCount: null,
      },
    };
  });

export const handler = createHandler(awsHttpPorts({ orders }));
