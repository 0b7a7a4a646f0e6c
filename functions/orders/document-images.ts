import { runIdempotently } from '../../shared/http/idempotency.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { acceptDocumentImageOrder, checkImageOrderItems } from '../../shared/orders/accept.ts';
import { parseOrderDelivery } from '../../shared/orders/delivery.ts';
import { orderReplay, orderRequestOf } from '../../shared/orders/handlers.ts';
import { orderResult } from '../../shared/orders/present.ts';

export const handler = createHttpHandler(
  orderRoutes.orderDocumentImages,
  async (input) => {
    const items = checkImageOrderItems(input.body.documents);
    const delivery = parseOrderDelivery(input.body.delivery);
    const order = await acceptDocumentImageOrder(items, orderRequestOf(input, delivery));
    return orderResult(order);
  },
  { idempotency: runIdempotently, replay: orderReplay },
);
