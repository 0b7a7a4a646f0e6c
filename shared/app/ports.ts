/**
 * The ports of the whole service, by name. A route's entry declares the ones its handler uses
 * (`ports: ['heldExtracts', 'registryFor']`), its handler takes `RoutePorts<typeof route>`, and a
 * composition root gives them: the AWS adapters on Lambda (shared/composition/aws/), DynamoDB Local and stand-ins on the local stack
 * (local/composition.ts), in-memory fakes in unit tests.
 */

import type { Environment } from '../kernel/api-keys.ts';
import type { CapabilityOwnPorts } from '../kernel/capability-ports.ts';
import type { IdempotencyRunner } from '../kernel/ports/idempotency.ts';
import type { Mailer } from '../kernel/ports/mailer.ts';
import type { PlatformPorts } from '../kernel/ports/platform.ts';
import type { Registry } from './registry.ts';

/** The registry a key's or a record's environment uses (test: the sandbox; live: the registry). */
export type RegistryFor = (environment: Environment) => Registry;

/**
 * What the use cases use, each port built only where a handler declares it: the app's, and those
 * the capabilities declare themselves (`CapabilityOwnPorts`).
 */
export interface CapabilityPorts extends CapabilityOwnPorts {
  registryFor: RegistryFor;
  /** Purchase routes: `Idempotency-Key`, kept 24 hours. */
  idempotency: IdempotencyRunner;
  mailer: Mailer;
}

export type AppPorts = PlatformPorts & CapabilityPorts;

/** The ports of an HTTP handler: the pipeline's, and the capabilities it names. */
export type HttpPorts<K extends keyof CapabilityPorts = never> = PlatformPorts & Pick<CapabilityPorts, K>;

/** The ports of a route's handler: the pipeline's, and those its entry declares (`ports`). */
export type RoutePorts<R extends { readonly ports: readonly string[] }> = HttpPorts<
  Extract<R['ports'][number], keyof CapabilityPorts>
>;
