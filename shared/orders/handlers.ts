/** What the order-placing handlers share: the request context of an order, and its response. */
import type { AuthContext, HandlerInput, HandlerResult } from '../http/pipeline.ts';
import type { RouteDefinition } from '../http/route.ts';
import type { Delivery, OrderRecord } from '../ports/orders.ts';
import { registryFor } from '../registry/registries.ts';
import { type OrderRequest, productOf, simulatedFailure } from './accept.ts';
import { presentOrder } from './present.ts';
import { apiBaseUrl } from './read.ts';
import { fulfilmentQueue } from './services/queue.ts';
import { orderStore } from './services/stores.ts';

export function orderRequestOf<R extends RouteDefinition>(
  input: HandlerInput<R>,
  delivery: Delivery,
): OrderRequest {
  const auth: AuthContext = input.auth;
  return {
    owner: auth,
    requestId: input.requestId,
    clientReference: input.clientReference,
    recoveryKey: input.recoveryKey,
    now: input.services.clock.now(),
    delivery,
    simulateFailure: simulatedFailure(input.headers, auth.environment),
    registry: registryFor(auth.environment, input.services),
    store: orderStore(),
    queue: fulfilmentQueue(),
  };
}

export const orderResult = (order: OrderRecord): HandlerResult => ({
  body: presentOrder(order, apiBaseUrl()),
  billable: order.fees.some((fee) => fee.billable),
  product: productOf(order.type),
});

/** A large order outgrows nothing, but a replay should show the order as it is now: keep its id. */
export const orderReplay = {
  pack: (result: HandlerResult) => ({ id: result.body.id, billable: result.billable }),
  async unpack(packed: unknown): Promise<HandlerResult> {
    const { id } = packed as { id: string };
    const order = await orderStore().get(id);
    if (!order) throw new Error(`replayed order ${id} is missing`);
    return orderResult(order);
  },
};
