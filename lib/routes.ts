import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { type ApiArea, apiAreas, routesOf } from '../shared/app/areas.ts';
import { withGrants } from '../shared/app/routes.ts';
import type { GrantedRoute } from '../shared/kernel/http/route.ts';

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

/** The function reads the cursor signing secret: it paginates, or signs other tokens with it (`signsTokens`). */
export const signsWithCursorSecret = (route: GrantedRoute): boolean =>
  paginates(route) || route.signsTokens === true;

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

/** The API's areas (one CDK stack each: shared/app/areas.ts), their routes with the grants their ports carry. */
export const ROUTE_AREAS: readonly RouteArea[] = (apiAreas as readonly ApiArea[]).map((area) => ({
  name: area.name,
  routes: routesOf(area).map(withGrants),
}));

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
      `routes in no area of ROUTE_AREAS: ${missing.join(', ')}; declare their area, or the area they join, in the areas of their capability module (shared/kernel/capability.ts)`,
    );
  }
  return areas.flatMap((area) => [...area.routes]);
}
