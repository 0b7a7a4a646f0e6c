/**
 * The route table: the one list of endpoints. The CDK stack makes one Lambda per entry, the
 * local server dispatches to the same handler modules, and the OpenAPI document is generated
 * from it. Adding an endpoint = one entry in its capability's routes.ts + one module under
 * functions/; a route names its ports, and its grants are derived here. Handlers import their
 * area's module only, so a bundle carries only the schemas of its own area.
 */

import { companyRoutes } from '../companies/routes.ts';
import { docsRoutes } from '../docs/routes.ts';
import type { GrantedRoute, RouteDefinition, RouteGrants } from '../kernel/http/route.ts';
import { orderRoutes } from '../orders/routes.ts';
import { peopleRoutes } from '../people/routes.ts';
import { recordRoutes } from '../records/routes.ts';
import { referenceRoutes } from '../reference/routes.ts';
import { registerRoutes } from '../registers/routes.ts';
import { usageRoutes } from '../usage/routes.ts';
import { webhookRoutes } from '../webhooks/routes.ts';
import { weeklySummaryRoutes } from '../weekly-summaries/routes.ts';
import { extractRoutes } from './extract-routes.ts';
import { grantsOf } from './port-grants.ts';
import type { CapabilityPorts } from './ports.ts';

const declared = {
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
} as const satisfies Record<string, RouteDefinition & { ports: readonly (keyof CapabilityPorts)[] }>;

type Declared = typeof declared;

/** A route entry with the grants its ports carry. */
export const withGrants = <R extends RouteDefinition>(route: R): R & RouteGrants => ({
  ...route,
  ...grantsOf(route),
});

/**
 * Every route with its grants, derived from the ports it declares (shared/app/port-grants.ts):
 * what CDK grants its function, and what the OpenAPI document and the local stack read.
 */
export const routes = Object.fromEntries(
  Object.entries(declared).map(([key, route]) => [key, withGrants(route)]),
) as { readonly [K in keyof Declared]: Declared[K] & RouteGrants };

export const routeList: readonly GrantedRoute[] = Object.values(routes);
