import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { blobs } from '../../shared/orders/composition/blobs.ts';
import { orders } from '../../shared/orders/composition.ts';
import { assertDownloadable, assertOrderReadable, findOrder } from '../../shared/orders/read.ts';
import * as orderRoutes from '../../shared/orders/routes.ts';

export const createHandler = (ports: RoutePorts<typeof orderRoutes.downloadOrder>) =>
  createHttpHandler(orderRoutes.downloadOrder, ports, async ({ path, auth }) => {
    const order = assertOrderReadable(await findOrder(ports.orders, path.orderId), auth);
    const key = assertDownloadable(order, ports.clock.now());
    const bytes = await ports.blobs.get(key);
    if (!bytes) throw new Error(`the PDF of ${order.id} is missing from the blob store`);
    return { body: {}, file: { contentType: 'application/pdf', bytes, filename: `${order.id}.pdf` } };
  });

export const handler = createHandler(awsRoutePorts(orderRoutes.downloadOrder, { orders, blobs }));
