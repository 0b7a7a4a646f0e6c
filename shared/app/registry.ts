/**
 * The registry port: every call the service makes to the national register goes through this
 * interface. Test keys are served by the sandbox registry (deterministic sample data, in
 * process); live keys by the HTTP registry adapter (the real registry, or the simulator locally).
 *
 * Each capability's part is its `registry-port.ts` (`shared/<capability>/registry-port.ts`, the
 * common types in `shared/kernel/registry-port.ts`), with its interface, its types and the
 * run-time list of its methods, and it adds its interface to `RegistryParts` there (module
 * augmentation); `Registry` is their intersection, derived, so a caller takes the whole registry
 * or only the capability it uses, importing the types from the capability's module (this one
 * re-exports none). Each adapter implements each capability in its own module and composes the
 * parts (`composeRegistry`).
 *
 * The run-time lists (the methods here, the protocol rows in shared/composition/registry/protocol.ts,
 * the HTTP and dataset parts beside it) name each capability of the port: a function that calls
 * the registry bundles every part's code through them, and deriving them from the list of
 * capabilities would make it load every capability module. The compiler refuses each list until it
 * names every part. A new capability does not join the port: it declares its own registry calls
 * (`registry: { operations, sandbox }` in its capability module, as the scaffold's does), which
 * need no edit here (docs/decisions/0117-capability-registry-operations.md).
 */

import { companyRegistryMethods } from '../companies/registry-port.ts';
import { purchaseReconciliationMethods } from '../extracts/registry-port.ts';
import type { RegistryParts } from '../kernel/registry-port.ts';
import type { UnionToIntersection } from '../kernel/types.ts';
import { ordersRegistryMethods } from '../orders/registry-port.ts';
import { peopleRegistryMethods } from '../people/registry-port.ts';
import { recordsRegistryMethods } from '../records/registry-port.ts';
import { referenceRegistryMethods } from '../reference/registry-port.ts';
import { registerRegistryMethods } from '../registers/registry-port.ts';
import { weeklySummaryRegistryMethods } from '../weekly-summaries/registry-port.ts';

export type { RegistryParts };

export type RegistryCapability = keyof RegistryParts;

/** Every method of the port, by capability. */
export const registryCapabilities: {
  readonly [C in RegistryCapability]: readonly (keyof RegistryParts[C])[];
} = {
  companies: companyRegistryMethods,
  people: peopleRegistryMethods,
  orders: ordersRegistryMethods,
  purchases: purchaseReconciliationMethods,
  weeklySummaries: weeklySummaryRegistryMethods,
  records: recordsRegistryMethods,
  registers: registerRegistryMethods,
  reference: referenceRegistryMethods,
};

/** The whole port: every capability's part. */
export type Registry = UnionToIntersection<RegistryParts[RegistryCapability]>;

/** A method of the port, whatever its capability. */
export type RegistryMethod = keyof Registry;

/**
 * One registry from its parts: each part's methods (by `registryCapabilities`), bound to the part,
 * so a part may be a class instance or an object of functions.
 */
export function composeRegistry(parts: RegistryParts): Registry {
  const registry: Record<string, unknown> = {};
  for (const capability of Object.keys(registryCapabilities) as RegistryCapability[]) {
    const part = parts[capability] as unknown as Record<string, unknown>;
    for (const method of registryCapabilities[capability] as readonly string[]) {
      const implementation = part[method];
      if (typeof implementation !== 'function') {
        throw new Error(`composeRegistry: the ${capability} part has no method ${method}`);
      }
      registry[method] = implementation.bind(part);
    }
  }
  return registry as unknown as Registry;
}

/**
 * A registry whose implementation is loaded on its first call: each method waits for `load` (run
 * once; run again after a failure) and calls the loaded registry's method. Lambda bundles keep the
 * sandbox in a file of its own this way (shared/composition/registry/registries.ts).
 */
export function deferredRegistry(load: () => Promise<Registry>): Registry {
  let loaded: Promise<Registry> | undefined;
  const registry: Record<string, unknown> = {};
  for (const methods of Object.values(registryCapabilities) as (readonly string[])[]) {
    for (const method of methods) {
      registry[method] = async (...args: unknown[]) => {
        loaded ??= load().catch((error: unknown) => {
          loaded = undefined;
          throw error;
        });
        const target = (await loaded) as unknown as Record<string, (...params: unknown[]) => unknown>;
        return target[method]?.(...args);
      };
    }
  }
  return registry as unknown as Registry;
}

/**
 * The methods a registry composed of `P` has: each part's own signatures (a part may take less
 * than the port, such as a client key it has no use for).
 */
export type ComposedRegistry<P extends RegistryParts> = {
  [C in RegistryCapability]: (part: Pick<P[C], keyof RegistryParts[C]>) => void;
}[RegistryCapability] extends (part: infer All) => void
  ? All
  : never;

/**
 * A class whose instances are the registry `build` composes: adapters keep their constructors
 * (`new DatasetRegistry(dataset, now)`, `new HttpRegistry(options)`) while their methods live in
 * one module per capability.
 */
export function registryClass<A extends unknown[], P extends RegistryParts>(
  name: string,
  build: (...args: A) => P,
): new (
  ...args: A
) => ComposedRegistry<P> {
  const composed = class {
    constructor(...args: A) {
      Object.assign(this, composeRegistry(build(...args)));
    }
  };
  Object.defineProperty(composed, 'name', { value: name });
  return composed as unknown as new (
    ...args: A
  ) => ComposedRegistry<P>;
}
