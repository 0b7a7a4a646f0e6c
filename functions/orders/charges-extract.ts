import { parseCompanyIdentifier } from '../../shared/company/identifier.ts';
import { runIdempotently } from '../../shared/http/idempotency.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { acceptChargesExtractOrder } from '../../shared/orders/accept.ts';
import { parseOrderDelivery } from '../../shared/orders/delivery.ts';
import { orderReplay, orderRequestOf } from '../../shared/orders/handlers.ts';
import { orderResult } from '../../shared/orders/present.ts';
import { sqsFulfilmentQueue } from '../../shared/orders/services/queue.ts';
import type { FulfilmentQueue } from '../../shared/ports/orders.ts';

/** The route given the fulfilment queue (the local stack passes its own). */
export const createHandler = (ports: { queue: FulfilmentQueue }) =>
  createHttpHandler(
    orderRoutes.orderChargesExtract,
    async (input) => {
      const company = parseCompanyIdentifier(input.path.id);
      const delivery = parseOrderDelivery(input.body.delivery);
      const order = await acceptChargesExtractOrder(company, orderRequestOf(input, delivery, ports.queue));
      return orderResult(order);
    },
    { idempotency: runIdempotently, replay: orderReplay },
  );

export const handler = createHandler({ queue: sqsFulfilmentQueue() });
