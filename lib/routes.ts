import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { extractRoutes } from '../shared/app/extract-routes.ts';
import { withGrants } from '../shared/app/routes.ts';
import { companyRoutes } from '../shared/companies/routes.ts';
import { docsRoutes } from '../shared/docs/routes.ts';
import type { GrantedRoute, RouteDefinition } from '../shared/kernel/http/route.ts';
import { orderRoutes } from '../shared/orders/routes.ts';
import { peopleRoutes } from '../shared/people/routes.ts';
import { recordRoutes } from '../shared/records/routes.ts';
import { referenceRoutes } from '../shared/reference/routes.ts';
import { registerRoutes } from '../shared/registers/routes.ts';
import { usageRoutes } from '../shared/usage/routes.ts';
import { webhookRoutes } from '../shared/webhooks/routes.ts';
import { weeklySummaryRoutes } from '../shared/weekly-summaries/routes.ts';

/** Repository root: `functions/`, `package-lock.json` and `cdk.json` live here. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The keys of an object schema (looking through pipes such as `.transform`), if it is one. */
function objectShape(schema: z.core.$ZodType): Readonly<Record<string, unknown>> | undefined {
  if (schema instanceof z.core.$ZodObject) return schema._zod.def.shape;
  if (schema instanceof z.core.$ZodPipe) return objectShape(schema._zod.def.in);
  return undefined;
}

/** A route paginates when its query schema has a `cursor` parameter; it then signs cursors. */
export function paginates(route: GrantedRoute): boolean {
  const shape = objectShape(route.request.query);
  return shape !== undefined && Object.hasOwn(shape, 'cursor');
}

/** Anything deployed as a function: a route, a workflow task, the starter or the sweeper. */
export interface HandlerModule {
  /** Module under `functions/` (without `.ts`) exporting `handler`. */
  readonly handler: string;
}

/** Entry module of a function: `functions/<handler>.ts` by default; tests may substitute a placeholder. */
export type EntryFor = (module: HandlerModule) => string;

export const defaultEntryFor: EntryFor = (module) => join(PROJECT_ROOT, 'functions', `${module.handler}.ts`);

/**
 * A group of routes deployed together: one nested stack of the API stack (`<name>Routes`), holding
 * the routes' functions, roles, log groups, methods and invoke permissions.
 */
export interface RouteArea {
  /** PascalCase, unique: names the nested stack. */
  readonly name: string;
  readonly routes: readonly GrantedRoute[];
}

/**
 * The API's areas (one CDK stack each): the route entries of one or more capabilities, so a route
 * added to a capability's routes.ts is deployed in its area's stack. A module added to the route table must be listed here too
 * (`checkRouteAreas` refuses a route that is in no area).
 */
/** A capability's route entries with their grants (derived from the ports each declares). */
const granted = (entries: Record<string, RouteDefinition>): GrantedRoute[] =>
  Object.values(entries).map(withGrants);

export const ROUTE_AREAS: readonly RouteArea[] = [
  { name: 'Reference', routes: granted(referenceRoutes) },
  { name: 'Companies', routes: granted(companyRoutes) },
  { name: 'People', routes: granted(peopleRoutes) },
  {
    name: 'Extracts',
    routes: [...granted(extractRoutes), ...granted(usageRoutes), ...granted(weeklySummaryRoutes)],
  },
  { name: 'Orders', routes: granted(orderRoutes) },
  { name: 'Records', routes: granted(recordRoutes) },
  { name: 'Docs', routes: granted(docsRoutes) },
  { name: 'Webhooks', routes: granted(webhookRoutes) },
  { name: 'Registers', routes: granted(registerRoutes) },
];

/**
 * Checks that area names are unique PascalCase, that no route is in two areas, and that every route
 * of `routeTable` is in one; returns the areas' routes in order.
 */
export function checkRouteAreas(
  areas: readonly RouteArea[],
  routeTable: readonly GrantedRoute[],
): GrantedRoute[] {
  const areaOf = new Map<string, string>();
  const names = new Set<string>();
  for (const area of areas) {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(area.name)) throw new Error(`area name ${area.name} is not PascalCase`);
    if (names.has(area.name)) throw new Error(`duplicate area ${area.name}`);
    names.add(area.name);
    for (const route of area.routes) {
      const other = areaOf.get(route.name);
      if (other !== undefined)
        throw new Error(`route ${route.name} is in two areas: ${other} and ${area.name}`);
      areaOf.set(route.name, area.name);
    }
  }
  const missing = routeTable.filter((route) => !areaOf.has(route.name)).map((route) => route.name);
  if (missing.length > 0) {
    throw new Error(
      `routes in no area of ROUTE_AREAS (lib/routes.ts): ${missing.join(', ')}; list their module's area there`,
    );
  }
  return areas.flatMap((area) => [...area.routes]);
}
