import { fulfilmentQueue } from '../../shared/orders/services/queue.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import { sweepStalled } from '../../shared/orders/sweep.ts';
import { getServices } from '../../shared/runtime.ts';

export const handler = async () => sweepStalled(orderStore(), fulfilmentQueue(), getServices().clock.now());
