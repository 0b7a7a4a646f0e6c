/**
 * The composition root on Lambda: every port built from the function's configuration (the
 * environment CDK sets). A handler module gives a factory for each port its route declares,
 *
 *   export const handler = createHandler(awsRoutePorts(route, { heldExtracts, registryFor }));
 *
 * and gets exactly those, each built on its first use (the pipeline's own ports come from
 * http.ts). Each capability's factory has its own module beside this one, so a function's bundle
 * carries only the adapters it names: the SDK's packages keep their modules' side effects, which
 * defeats tree-shaking within one module (test/unit/function-weight.test.ts and
 * test/unit/orders/bundles.test.ts check the bundles).
 */

import type { CapabilityPorts } from '../../app/ports.ts';
import { type Clock, systemClock } from '../../kernel/clock.ts';
import { readConfig, type ServiceConfig } from '../../kernel/config.ts';

/** What every factory is given: the configuration and the clock. */
export interface Root {
  config: ServiceConfig;
  clock: Clock;
}

export type Factory<T> = (root: Root) => T;

export type Built<F> = { [K in keyof F]: F[K] extends Factory<infer T> ? T : never };

/**
 * The ports the factories build, each on first use (so a module loads, and the local stack can
 * import it, without the settings its AWS adapters need), then kept for the process.
 */
export function awsPorts<F extends Record<string, Factory<unknown>>>(factories: F): Built<F> {
  let root: Root | undefined;
  const rootOf = () => {
    root ??= { config: readConfig(), clock: systemClock };
    return root;
  };
  const ports = {} as Built<F>;
  for (const [name, factory] of Object.entries(factories)) {
    let built: { port: unknown } | undefined;
    Object.defineProperty(ports, name, {
      enumerable: true,
      get: () => {
        built ??= { port: factory(rootOf()) };
        return built.port;
      },
    });
  }
  return ports;
}

export type CapabilityFactory<K extends keyof CapabilityPorts> = Factory<CapabilityPorts[K]>;

/** For workflow steps, which take the time as a function. */
export const now: Factory<() => Date> = (root) => () => root.clock.now();
/** For workflow steps, which take the API's base URL as a value. */
export const apiBaseUrl: Factory<string> = (root) => root.config.apiBaseUrl;
