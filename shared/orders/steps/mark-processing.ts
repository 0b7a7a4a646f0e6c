import { toTimestamp } from '../../kernel/clock.ts';
import type { OrderStore } from '../store-port.ts';
import { type Clock, isFinished, loadOrder, type WorkflowInput } from './common.ts';

export interface MarkProcessingPorts extends Clock {
  orders: Pick<OrderStore, 'get' | 'transition'>;
}

/** pending → processing. Tells the workflow the delivery method, and whether there is nothing left to do. */
export async function markProcessing(ports: MarkProcessingPorts, input: WorkflowInput) {
  const order = await loadOrder(ports.orders, input.id);
  if (order.status === 'pending') {
    await ports.orders.transition(order.id, {
      from: ['pending'],
      to: 'processing',
      at: toTimestamp(ports.now()),
    });
  }
  return { deliveryMethod: order.delivery.method, finished: isFinished(order.status) };
}
