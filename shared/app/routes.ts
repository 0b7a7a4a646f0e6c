/**
 * The route table: the one list of endpoints, joined from the API's areas (areas.ts). The CDK stack makes one Lambda per entry, the
 * local server dispatches to the same handler modules, and the OpenAPI document is generated
 * from it. Adding an endpoint = one entry in its capability's routes.ts + one module under
 * functions/; a route names its ports, and its grants are derived here. Handlers import their
 * area's module only, so a bundle carries only the schemas of its own area.
 */

import type { GrantedRoute, RouteDefinition, RouteGrants } from '../kernel/http/route.ts';
import type { UnionToIntersection } from '../kernel/types.ts';
import { type ApiArea, apiAreas } from './areas.ts';
import { grantsOf } from './port-grants.ts';

/** Every route entry by key, from the areas (areas.ts). */
type Declared = UnionToIntersection<(typeof apiAreas)[number]['routes'][number]>;
const declared = Object.assign(
  {},
  ...(apiAreas as readonly ApiArea[]).flatMap((area) => area.routes),
) as unknown as Declared;

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
