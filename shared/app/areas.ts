/**
 * The API's areas, in the order the reference shows them: each is deployed as one CDK stack
 * (`<name>Routes`, lib/routes.ts), shown as one tag of the OpenAPI document, and joins the route
 * table (routes.ts). Each capability declares its areas, or the area its routes join, in its
 * capability module (`areas`, shared/kernel/capability.ts); this module only gathers them from the
 * list of capabilities (capabilities.ts) and adds what spans capabilities: the routes over every
 * extract kind.
 */
import type { AreaJoin, CapabilityArea } from '../kernel/capability.ts';
import type { RequestExample } from '../kernel/http/request-example.ts';
import type { RouteDefinition } from '../kernel/http/route.ts';
import { capabilities } from './capabilities.ts';
import { extractRoutes } from './extract-routes.ts';
import type { CapabilityPorts } from './ports.ts';

/** Route entries whose ports are ports of the service (an undeclared port does not compile: `PortsChecked`). */
type RouteEntries = Readonly<Record<string, RouteDefinition & { ports: readonly (keyof CapabilityPorts)[] }>>;

export interface ApiArea {
  /** PascalCase, unique: names the area's stack. */
  readonly name: string;
  /** The OpenAPI tag its operations are listed under. */
  readonly tag: string;
  readonly description: string;
  /** The route entries of one or more capabilities (their routes.ts). */
  readonly routes: readonly RouteEntries[];
  /** Request examples kept beside the routes (the others are in openapi/examples.ts). */
  readonly examples?: Readonly<Record<string, RequestExample>>;
}

/** Each capability's areas and joins, in the list's order. */
type Declared = (typeof capabilities)[number] extends infer C
  ? C extends { readonly areas: readonly (infer P)[] }
    ? P
    : never
  : never;

/** The app's own routes, in the area they join: those over every extract kind join first. */
const appJoins = [{ joins: 'Extracts', routes: [extractRoutes] }] as const satisfies readonly AreaJoin[];

const isArea = (part: CapabilityArea | AreaJoin): part is CapabilityArea => 'name' in part;

/**
 * The areas of these parts, each with the routes and examples of the parts that join it after its
 * own, by `order` (a stable sort: ties keep the parts' order).
 */
export function gatherAreas(parts: readonly (CapabilityArea | AreaJoin)[]): ApiArea[] {
  const areas = parts.filter(isArea).sort((a, b) => a.order - b.order);
  for (const join of parts) {
    if (!isArea(join) && !areas.some((area) => area.name === join.joins)) {
      throw new Error(`routes join the area ${join.joins}, which no capability declares`);
    }
  }
  return areas.map((area) => {
    const joins = parts.filter((part): part is AreaJoin => !isArea(part) && part.joins === area.name);
    const examples = Object.assign({}, area.examples, ...joins.map((join) => join.examples ?? {}));
    return {
      name: area.name,
      tag: area.tag,
      description: area.description,
      routes: [...area.routes, ...joins.flatMap((join) => join.routes)] as readonly RouteEntries[],
      ...(Object.keys(examples).length > 0 ? { examples } : {}),
    };
  });
}

/** Route entries, if their ports are ports of the service. */
type PortsChecked<R extends RouteEntries> = R;

/** The route entries of every area, as the route table's type reads them. */
type AreaRoutes = PortsChecked<Declared['routes'][number] | (typeof appJoins)[number]['routes'][number]>;

export const apiAreas: readonly (ApiArea & { readonly routes: readonly AreaRoutes[] })[] = gatherAreas([
  ...appJoins,
  ...capabilities.flatMap((capability): readonly Declared[] =>
    'areas' in capability ? capability.areas : [],
  ),
]) as never;

/** An area's route entries, in order. */
export const routesOf = (area: ApiArea): RouteDefinition[] =>
  area.routes.flatMap((entries) => Object.values(entries));
