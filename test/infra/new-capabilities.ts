/**
 * The stacks table of docs/infrastructure.md lists the app's own stacks; a capability written since
 * (`npm run new:capability`) whose area stack has no row there yet is checked by rule instead
 * (docs/infrastructure.md, "Route areas"), so that scaffolding one changes no doc to pass.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { areaStackId } from '../../lib/api-area-stack.ts';
import { PROJECT_ROOT } from '../../lib/routes.ts';
import { capabilityList } from '../../shared/app/capabilities.ts';
import { routeList } from '../../shared/app/routes.ts';
import { type Capability, type CapabilityArea, routeGroupsOf } from '../../shared/kernel/capability.ts';

/**
 * The stacks table of docs/infrastructure.md: stack path (`CompanyRegister-<stage>-Api/<Area>Routes`
 * for a row written `…-Api/<Area>Routes`) to its resource counts, `N` or `N (M on prod)`.
 */
export function documentedResourceCounts(): Record<string, { dev: number; prod: number }> {
  const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'infrastructure.md'), 'utf8');
  const counts: Record<string, { dev: number; prod: number }> = {};
  for (const match of doc.matchAll(/^\| `([^`]+)`\s*\|[^\n]*\|\s*(\d+)(?: \((\d+) on prod\))?\s*\|$/gm)) {
    const [, label, dev, prod] = match;
    if (!label?.startsWith('CompanyRegister-') && !label?.startsWith('…-Api/')) continue;
    const path = (label as string).replace(/^…-Api\//, 'CompanyRegister-<stage>-Api/');
    counts[path] = { dev: Number(dev), prod: Number(prod ?? dev) };
  }
  return counts;
}

/** A capability's own areas (not those its routes join). */
export const ownAreasOf = (capability: Capability): CapabilityArea[] =>
  (capability.areas ?? []).filter((part): part is CapabilityArea => 'name' in part);

/** Capabilities with an area whose stack docs/infrastructure.md does not list yet. */
export function undocumentedCapabilities(): Capability[] {
  const documented = documentedResourceCounts();
  return capabilityList.filter((capability) =>
    ownAreasOf(capability).some(
      (area) => !(`CompanyRegister-<stage>-Api/${areaStackId(area)}` in documented),
    ),
  );
}

/** The route table's entries of those capabilities (with their grants). */
export function undocumentedCapabilityRoutes(): typeof routeList {
  const names = new Set(
    undocumentedCapabilities().flatMap((capability) =>
      routeGroupsOf(capability).flatMap((routes) => Object.values(routes).map((route) => route.name)),
    ),
  );
  return routeList.filter((route) => names.has(route.name));
}
