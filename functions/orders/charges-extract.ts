import { parseCompanyIdentifier } from '../../shared/companies/identifier.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { acceptChargesExtractOrder } from '../../shared/orders/accept.ts';
import { queue } from '../../shared/orders/composition/queue.ts';
import { orders } from '../../shared/orders/composition.ts';
import { parseOrderDelivery } from '../../shared/orders/delivery.ts';
import { type OrderRoutePorts, orderReplay, orderRequestOf } from '../../shared/orders/handlers.ts';
import { orderResult } from '../../shared/orders/present.ts';
import * as orderRoutes from '../../shared/orders/routes.ts';
import { spendGuard } from '../../shared/spend-caps/composition.ts';

export const createHandler = (ports: OrderRoutePorts) =>
  createHttpHandler(
    orderRoutes.orderChargesExtract,
    ports,
    async (input) => {
      const company = parseCompanyIdentifier(input.path.id);
      const delivery = parseOrderDelivery(input.body.delivery);
      const order = await acceptChargesExtractOrder(company, orderRequestOf(ports, input, delivery));
      return orderResult(order, ports.config.apiBaseUrl);
    },
    { replay: orderReplay(ports) },
  );

export const handler = createHandler(
  awsRoutePorts(orderRoutes.orderChargesExtract, { orders, registryFor, queue, idempotency, spendGuard }),
);
