import { registryRequestIdsOf } from '../present.ts';
import type { OrderStore } from '../store-port.ts';
import { callerOf, loadOrder, type RegistryFor, type WorkflowInput } from './common.ts';
import { registryCall } from './registry-call.ts';

export interface HandOverForPostPorts {
  orders: Pick<OrderStore, 'get'>;
  registryFor: RegistryFor;
}

/** Hands the documents to the registry's postal service (one dispatch per order, keyed by its id). */
export async function handOverForPost(ports: HandOverForPostPorts, input: WorkflowInput) {
  const order = await loadOrder(ports.orders, input.id);
  const { delivery } = order;
  const { dispatchId } = await registryCall(() =>
    ports.registryFor(order.environment).requestPostalDelivery(
      {
        clientKey: `${order.id}#post`,
        registryRequestIds: registryRequestIdsOf(order),
        recipient: delivery.recipient as string,
        address: delivery.address as string,
        postcode: delivery.postcode as string,
        contactName: delivery.contactName as string,
        contactPhone: delivery.contactPhone as string,
      },
      callerOf(order),
    ),
  );
  return { dispatchId };
}
