/**
 * Every capability's CDK module (lib/capability-construct.ts), loaded once when lib/ is first
 * imported (a top-level await: the modules are named by path in the capability modules, so that no
 * function bundle carries CDK). Apart from the shape, which those modules import while this one
 * waits for them.
 */
import { capabilityList } from '../shared/app/capabilities.ts';
import { buildOrder } from '../shared/kernel/capability-order.ts';
import type { CapabilityConstructs, RouteBinding } from './capability-construct.ts';

export interface LoadedCapabilityConstructs extends CapabilityConstructs {
  readonly capability: string;
}

const loaded: readonly LoadedCapabilityConstructs[] = buildOrder(
  await Promise.all(
    capabilityList.flatMap((capability) => {
      const module = capability.infrastructure?.cdk;
      if (!module) return [];
      return [
        (
          import(/* @vite-ignore */ `../shared/${capability.name}/${module}`) as Promise<{
            default: CapabilityConstructs;
          }>
        ).then((loaded) => ({ ...loaded.default, capability: capability.name })),
      ];
    }),
  ),
);

/** The CDK modules that build constructs, in the order the stack builds them (the list's, each after its `after`). */
export const capabilityConstructs: readonly LoadedCapabilityConstructs[] = loaded.filter(
  (constructs) => constructs.build !== undefined,
);

/** Every capability's route bindings, by `uses` value and by port, in build order. */
export interface RouteBindingTable {
  readonly uses: ReadonlyMap<string, RouteBinding>;
  readonly ports: ReadonlyMap<string, RouteBinding>;
}

/** The bindings of the given modules; a `uses` value or port two capabilities bind is refused. */
export function routeBindingTable(modules: readonly LoadedCapabilityConstructs[]): RouteBindingTable {
  const uses = new Map<string, RouteBinding>();
  const ports = new Map<string, RouteBinding>();
  const add = (table: Map<string, RouteBinding>, kind: string, owner: string, entries: object = {}) => {
    for (const [name, binding] of Object.entries(entries) as [string, RouteBinding][]) {
      if (table.has(name))
        throw new Error(`${owner}: ${kind} ${name} is bound by another capability already`);
      table.set(name, binding);
    }
  };
  for (const module of modules) {
    add(uses, 'uses', module.capability, module.routeBindings?.uses);
    add(ports, 'port', module.capability, module.routeBindings?.ports);
  }
  return { uses, ports };
}

export const routeBindings: RouteBindingTable = routeBindingTable(loaded);
