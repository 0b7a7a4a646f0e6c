/** Orders and offline searches as the central places see them (shared/kernel/capability.ts): their area, errors and ports' grants. */
import { defineCapability } from '../kernel/capability.ts';
import { ORDERS_ENV } from './env.ts';
import { orderErrorGuide } from './error-guide.ts';
import { orderErrors } from './errors.ts';
import { orderRoutes } from './routes.ts';

export const ordersCapability = defineCapability({
  name: 'orders',
  areas: [
    {
      name: 'Orders',
      tag: 'Orders',
      description:
        'Asynchronous orders (charges extracts, document images) and offline searches: accepted with 202, billed at acceptance, announced by events.',
      order: 60,
      routes: [orderRoutes],
    },
  ],
  infrastructure: { cdk: 'cdk/stack.ts', local: 'local/stack.ts' },
  env: ORDERS_ENV,
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
