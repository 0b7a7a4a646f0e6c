/**
 * The fulfilment tier on the local stack (infrastructure.local of the orders capability): the
 * fulfilment queue, the blob store and the Step Functions workflow stood in for in process
 * (stand-ins.ts), the sweeper, and their `/__local/` control (control.ts). It starts after the
 * webhooks' module, whose dispatcher queue receives the events its executions publish, so that it
 * stops first.
 */
import { defineCapabilityLocal } from '../../../local/capability-local.ts';
import { orderControl } from './control.ts';
import { startLocalOrders } from './stand-ins.ts';

export default defineCapabilityLocal({
  after: ['webhooks'],
  async start(context) {
    const orders = await startLocalOrders({ context });
    return {
      handle: orders,
      ports: orders.ports,
      control: orderControl(orders),
      notes: [`Fulfilment executions: ${context.baseUrl}/__local/executions`],
      stop: () => orders.stop(),
    };
  },
});
