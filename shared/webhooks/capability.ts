/** Events and webhooks as the central places see them (shared/kernel/capability.ts): their errors, metrics, alarm, settings and ports' grants. */
import { defineCapability } from '../kernel/capability.ts';
import { webhookAlarms } from './alarms.ts';
import { webhookErrorGuide } from './error-guide.ts';
import { webhookErrors } from './errors.ts';
import { WEBHOOK_ENV } from './infra.ts';
import { WEBHOOK_METRICS } from './metrics.ts';

export const webhooksCapability = defineCapability({
  name: 'webhooks',
  infrastructure: { cdk: 'cdk/stack.ts', local: 'local/stack.ts' },
  errors: webhookErrors,
  errorGuide: webhookErrorGuide,
  metrics: WEBHOOK_METRICS,
  alarms: webhookAlarms,
  env: WEBHOOK_ENV,
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
