/**
 * The route table: the one list of endpoints. The CDK stack makes one Lambda per entry, the
 * local server dispatches to the same handler modules, and the OpenAPI document is generated
 * from it. Adding an endpoint = one entry in its capability's routes.ts + one module under
 * functions/. Handlers import their area's module only, so a bundle carries only the schemas of
 * its own area.
 */

import { companyRoutes } from '../companies/routes.ts';
import { docsRoutes } from '../docs/routes.ts';
import type { RouteDefinition } from '../kernel/http/route.ts';
import { orderRoutes } from '../orders/routes.ts';
import { peopleRoutes } from '../people/routes.ts';
import { recordRoutes } from '../records/routes.ts';
import { referenceRoutes } from '../reference/routes.ts';
import { registerRoutes } from '../registers/routes.ts';
import { usageRoutes } from '../usage/routes.ts';
import { webhookRoutes } from '../webhooks/routes.ts';
import { weeklySummaryRoutes } from '../weekly-summaries/routes.ts';
import { extractRoutes } from './extract-routes.ts';

export const routes = {
  ...referenceRoutes,
  ...companyRoutes,
  ...peopleRoutes,
  ...extractRoutes,
  ...usageRoutes,
  ...weeklySummaryRoutes,
  ...orderRoutes,
  ...recordRoutes,
  ...docsRoutes,
  ...webhookRoutes,
  ...registerRoutes,
} as const;

export const routeList: readonly RouteDefinition[] = Object.values(routes);
