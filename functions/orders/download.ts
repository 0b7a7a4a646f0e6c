import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { assertDownloadable, assertOrderReadable, findOrder } from '../../shared/orders/read.ts';
import { s3BlobStore } from '../../shared/orders/services/blobs.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import type { BlobStore } from '../../shared/ports/orders.ts';

/** The route given the orders bucket (the local stack passes its own). */
export const createHandler = (ports: { blobs: BlobStore }) =>
  createHttpHandler(orderRoutes.downloadOrder, async ({ path, auth, services }) => {
    const order = assertOrderReadable(await findOrder(orderStore(), path.orderId), auth);
    const key = assertDownloadable(order, services.clock.now());
    const bytes = await ports.blobs.get(key);
    if (!bytes) throw new Error(`the PDF of ${order.id} is missing from the blob store`);
    return { body: {}, file: { contentType: 'application/pdf', bytes, filename: `${order.id}.pdf` } };
  });

export const handler = createHandler({ blobs: s3BlobStore() });
