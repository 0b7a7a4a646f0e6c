/** Events and webhooks as the central places see them (shared/kernel/capability.ts): their area, errors, metrics, alarm, settings and ports' grants. */
import { defineCapability } from '../kernel/capability.ts';
import { webhookAlarms } from './alarms.ts';
import { webhookErrorGuide } from './error-guide.ts';
import { webhookErrors } from './errors.ts';
import { WEBHOOK_ENV, WEBHOOK_LOCAL_ENV } from './infra.ts';
import { WEBHOOK_METRICS } from './metrics.ts';
import { webhookRoutes } from './routes.ts';

export const webhooksCapability = defineCapability({
  name: 'webhooks',
  areas: [
    {
      name: 'Webhooks',
      tag: 'Webhooks',
      description:
        'Events (30 days, for reconciliation) and webhook endpoints: signed deliveries of order.ready, order.failed and offline_search.ready, retried for 24 hours, with every attempt readable, resend, recover and a test event.',
      order: 80,
      routes: [webhookRoutes],
    },
  ],
  infrastructure: { cdk: 'cdk/stack.ts', local: 'local/stack.ts' },
  errors: webhookErrors,
  errorGuide: webhookErrorGuide,
  metrics: WEBHOOK_METRICS,
  alarms: webhookAlarms,
  env: { ...WEBHOOK_ENV, ...WEBHOOK_LOCAL_ENV },
  portGrants: {
    events: { workersOnly: true },
    eventLog: { tables: { main: 'readWrite' } },
    webhookEndpoints: { tables: { main: 'readWrite' } },
    webhookDeliveries: { tables: { main: 'readWrite' } },
    sealer: { uses: ['sealer'] },
    webhookQueue: { uses: ['webhookQueue'] },
    webhookSender: { workersOnly: true },
  },
});
