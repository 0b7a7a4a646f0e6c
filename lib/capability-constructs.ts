/**
 * Every capability's CDK module (lib/capability-construct.ts), loaded once when lib/ is first
 * imported (a top-level await: the modules are named by path in the capability modules, so that no
 * function bundle carries CDK). Apart from the shape, which those modules import while this one
 * waits for them.
 */
import { capabilityList } from '../shared/app/capabilities.ts';
import { buildOrder } from '../shared/kernel/capability-order.ts';
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
