/** Orders and offline searches as the central places see them (shared/kernel/capability.ts): their errors and their ports' grants. */
import { defineCapability } from '../kernel/capability.ts';
import { orderErrorGuide } from './error-guide.ts';
import { orderErrors } from './errors.ts';

export const ordersCapability = defineCapability({
  name: 'orders',
  infrastructure: { cdk: 'cdk/stack.ts', local: 'local/stack.ts' },
  errors: orderErrors,
  errorGuide: orderErrorGuide,
  portGrants: {
    orders: { tables: { main: 'readWrite' } },
    offlineSearches: { tables: { main: 'readWrite' } },
    queue: { uses: ['queue'] },
    blobs: { uses: ['blobs'] },
    starter: { workersOnly: true },
  },
});
