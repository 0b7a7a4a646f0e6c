/** What the order-placing handlers share: the request context of an order, and its response. */

import type { CompanyRegistry } from '../companies/registry-port.ts';
import type { Environment } from '../kernel/api-keys.ts';
import type { AuthContext, HandlerInput, HandlerResult } from '../kernel/http/pipeline.ts';
import type { RouteDefinition } from '../kernel/http/route.ts';
import type { IdempotencyRunner } from '../kernel/ports/idempotency.ts';
import type { PlatformPorts } from '../kernel/ports/platform.ts';
import type { OrderRequest } from './accept.ts';
import { orderResult } from './present.ts';
import type { OrdersRegistry } from './registry-port.ts';
import { simulatedFailure } from './simulate.ts';
import type { Delivery, FulfilmentQueue, OrderStore } from './store-port.ts';

/** What the order-placing routes use. */
export type OrderRoutePorts = PlatformPorts & {
  orders: OrderStore;
  registryFor: (environment: Environment) => CompanyRegistry & OrdersRegistry;
  queue: FulfilmentQueue;
  idempotency: IdempotencyRunner;
};

export function orderRequestOf<R extends RouteDefinition>(
  ports: OrderRoutePorts,
  input: HandlerInput<R>,
  delivery: Delivery,
): OrderRequest {
  const auth: AuthContext = input.auth;
  return {
    owner: auth,
    requestId: input.requestId,
    clientReference: input.clientReference,
    recoveryKey: input.recoveryKey,
    now: ports.clock.now(),
    delivery,
    simulateFailure: simulatedFailure(input.headers, auth.environment),
    registry: ports.registryFor(auth.environment),
    store: ports.orders,
    queue: ports.queue,
  };
}

/** A replay answers with the order as it is now (it may have moved on since): only its id is kept. */
export const orderReplay = (ports: Pick<OrderRoutePorts, 'orders' | 'config'>) => ({
  pack: (result: HandlerResult) => ({ id: result.body.id }),
  async unpack(packed: unknown): Promise<HandlerResult> {
    const { id } = packed as { id: string };
    const order = await ports.orders.get(id);
    if (!order) throw new Error(`replayed order ${id} is missing`);
    return orderResult(order, ports.config.apiBaseUrl);
  },
});
