/**
 * The route table: the one list of endpoints. The CDK stack makes one Lambda per entry, the
 * local server dispatches to the same handler modules, and the OpenAPI document is generated
 * from it. Adding an endpoint = one entry in its area's module under routes/ + one module under
 * functions/. Handlers import their area's module only, so a bundle carries only the schemas of
 * its own area.
 */
import { recordRoutes } from '../records/routes.ts';

import { registerRoutes } from '../registers/routes.ts';
import type { RouteDefinition } from './route.ts';
import { companyRoutes } from './routes/companies.ts';
import { docsRoutes } from './routes/docs.ts';
import { extractRoutes } from './routes/extracts.ts';
import { orderRoutes } from './routes/orders.ts';
import { peopleRoutes } from './routes/people.ts';
import { referenceRoutes } from './routes/reference.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export const routes = {
  ...referenceRoutes,
  ...companyRoutes,
  ...peopleRoutes,
  ...extractRoutes,
  ...orderRoutes,
  ...recordRoutes,
  ...docsRoutes,
  ...webhookRoutes,
  ...registerRoutes,
} as const;

export const routeList: readonly RouteDefinition[] = Object.values(routes);
