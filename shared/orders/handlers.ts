/** What the order-placing handlers share: the request context of an order, and its response. */
import type { AuthContext, HandlerInput, HandlerResult } from '../http/pipeline.ts';
import type { RouteDefinition } from '../http/route.ts';
import type { Delivery, FulfilmentQueue } from '../ports/orders.ts';
import { registryFor } from '../registry/registries.ts';
import type { OrderRequest } from './accept.ts';
import { orderResult } from './present.ts';
import { orderStore } from './services/stores.ts';
import { simulatedFailure } from './simulate.ts';

export function orderRequestOf<R extends RouteDefinition>(
  input: HandlerInput<R>,
  delivery: Delivery,
  queue: FulfilmentQueue,
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
    queue,
  };
}

/** A replay answers with the order as it is now (it may have moved on since): only its id is kept. */
export const orderReplay = {
  pack: (result: HandlerResult) => ({ id: result.body.id }),
  async unpack(packed: unknown): Promise<HandlerResult> {
    const { id } = packed as { id: string };
    const order = await orderStore().get(id);
    if (!order) throw new Error(`replayed order ${id} is missing`);
    return orderResult(order);
  },
};
