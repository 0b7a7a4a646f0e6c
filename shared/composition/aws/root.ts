/**
 * The composition root on Lambda: every port built from the function's configuration (the
 * environment CDK sets). A handler module names the ports it uses,
 *
 *   export const handler = createHandler(awsHttpPorts({ extracts, registryFor }));
 *
 * and gets exactly those, each built on its first use. Each capability's factory has its own
 * module beside this one, so a function's bundle carries only the adapters it names (the SDK's
 * packages keep their modules' side effects, which defeats tree-shaking within one module;
 * test/unit/bundling.test.ts and test/unit/orders/bundles.test.ts check it).
 */
import { secretReader } from '../../adapters/aws/secrets-extension.ts';
import { DynamoApiKeyRepository } from '../../adapters/dynamodb/api-keys.ts';
import { DynamoLimiterStore } from '../../adapters/dynamodb/limiter.ts';
import { readConfig, type ServiceConfig } from '../../config.ts';
import { type Clock, systemClock } from '../../domain/clock.ts';
import { CursorCodec } from '../../domain/cursor.ts';
import type { CapabilityPorts, PlatformPorts } from '../../ports/app.ts';

/** What every factory is given: the configuration and the clock. */
export interface Root {
  config: ServiceConfig;
  clock: Clock;
}

export type Factory<T> = (root: Root) => T;

type Built<F> = { [K in keyof F]: F[K] extends Factory<infer T> ? T : never };

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

export const config: Factory<ServiceConfig> = (root) => root.config;
export const clock: Factory<Clock> = (root) => root.clock;
export const apiKeys: Factory<PlatformPorts['apiKeys']> = (root) =>
  new DynamoApiKeyRepository(root.config.keysTable);
export const limiter: Factory<PlatformPorts['limiter']> = (root) =>
  new DynamoLimiterStore(root.config.limitsTable);
export const cursors: Factory<PlatformPorts['cursors']> = (root) =>
  new CursorCodec(secretReader(root.config.cursorSecret, 'CURSOR_SECRET or CURSOR_SECRET_ARN'), root.clock);

const platform = { config, clock, apiKeys, limiter, cursors };

/** An HTTP handler's ports: the pipeline's own (authentication, limits, cursors) and `factories`. */
export const awsHttpPorts = <F extends Record<string, Factory<unknown>>>(factories: F) =>
  awsPorts({ ...platform, ...factories }) as PlatformPorts & Built<F>;

export type CapabilityFactory<K extends keyof CapabilityPorts> = Factory<CapabilityPorts[K]>;

/** For workflow steps, which take the time as a function. */
export const now: Factory<() => Date> = (root) => () => root.clock.now();
/** For workflow steps, which take the API's base URL as a value. */
export const apiBaseUrl: Factory<string> = (root) => root.config.apiBaseUrl;
