/** Company monitoring as the central places see it (shared/kernel/capability.ts): its area, errors, metrics and settings. */
import { defineCapability } from '../kernel/capability.ts';
import { monitoringErrorGuide } from './error-guide.ts';
import { monitoringErrors } from './errors.ts';
import { monitoringExamples } from './examples.ts';
import { MONITORING_ENV } from './infra.ts';
import { MONITORING_METRICS } from './metrics.ts';
import { monitoringProducts } from './products.ts';
import { monitoringRoutes } from './routes.ts';

export const monitoringCapability = defineCapability({
  name: 'monitoring',
  infrastructure: { cdk: 'cdk/stack.ts', local: 'local/stack.ts' },
  areas: [
    {
      name: 'Monitoring',
      tag: 'Monitoring',
      description:
        'Company monitoring: watch companies and people, get typed change events (webhooks, and a feed kept 90 days with positions that never expire), bulk import.',
      order: 90,
      routes: [monitoringRoutes],
      examples: monitoringExamples,
    },
  ],
  errors: monitoringErrors,
  errorGuide: monitoringErrorGuide,
  metrics: MONITORING_METRICS,
  env: MONITORING_ENV,
  products: monitoringProducts,
  portGrants: {
    monitors: { tables: { main: 'readWrite' } },
    monitoringRuns: { workersOnly: true },
    // The import's chunks go to the monitoring worker (a commit over 1,000 rows).
    monitoringQueue: { uses: ['monitoringQueue'] },
  },
});
