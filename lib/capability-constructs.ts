/**
 * Every capability's CDK module (lib/capability-construct.ts), loaded once when lib/ is first
 * imported (a top-level await: the modules are named by path in the capability modules, so that no
 * function bundle carries CDK). Apart from the shape, which those modules import while this one
 * waits for them.
 */
import { capabilityList } from '../shared/app/capabilities.ts';
import type { CapabilityConstructs } from './capability-construct.ts';

export interface LoadedCapabilityConstructs extends CapabilityConstructs {
  readonly capability: string;
}

/** Every capability's CDK module, in the order the stack builds them (the list's, each after its `after`). */
export const capabilityConstructs: readonly LoadedCapabilityConstructs[] = buildOrder(
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

/**
 * The list's order, a module whose `after` is not built yet left for a later pass (company
 * monitoring, first in the list, is built once orders have made the event bus).
 */
export function buildOrder<T extends { readonly capability: string; readonly after?: readonly string[] }>(
  modules: readonly T[],
): T[] {
  const ordered: T[] = [];
  let waiting = [...modules];
  while (waiting.length > 0) {
    const left: T[] = [];
    for (const module of waiting) {
      const ready = (module.after ?? []).every((name) => ordered.some((done) => done.capability === name));
      (ready ? ordered : left).push(module);
    }
    if (left.length === waiting.length) {
      const stuck = left.map((module) => `${module.capability} (after ${module.after?.join(', ')})`);
      throw new Error(
        `capability constructs cannot be ordered (a cycle, or none by that name): ${stuck.join('; ')}`,
      );
    }
    waiting = left;
  }
  return ordered;
}
