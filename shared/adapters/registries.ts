/**
 * The registry a key's environment uses: test keys the sandbox (in process), live keys the
 * HTTP registry. Kept apart from the other ports so only functions that call the registry bundle it.
 */

import type { RegistryFor } from '../app/ports.ts';
import type { Registry } from '../app/registry.ts';
import type { Clock } from '../kernel/clock.ts';
import type { ServiceConfig } from '../kernel/config.ts';
import { secretReader } from './aws/secrets-extension.ts';
import { HttpRegistry } from './registry-http/http-registry.ts';
import type { PageImageRenderer } from './sandbox/dataset-registry.ts';
import { createSandboxRegistry } from './sandbox/sandbox.ts';

export interface RegistriesOptions {
  config: Pick<ServiceConfig, 'registryUrl' | 'registryCredential'>;
  clock: Clock;
  /** The sandbox draws the images it hands out with it; only the PDF compile passes it (and bundles pdf-lib). */
  pageImages?: PageImageRenderer;
}

/** Each environment's registry, built on its first use. */
export function createRegistries({ config, clock, pageImages }: RegistriesOptions): RegistryFor {
  let sandbox: Registry | undefined;
  let live: Registry | undefined;
  return (environment) => {
    if (environment === 'test') {
      sandbox ??= createSandboxRegistry(() => clock.now(), pageImages);
      return sandbox;
    }
    if (!config.registryUrl) throw new Error('REGISTRY_URL must be set for live keys');
    live ??= new HttpRegistry({
      baseUrl: config.registryUrl,
      credential: secretReader(config.registryCredential, 'REGISTRY_CREDENTIAL or REGISTRY_CREDENTIAL_ARN'),
    });
    return live;
  };
}
