/**
 * The registry a key's environment uses: test keys the sandbox (in process), live keys the
 * HTTP registry. Kept out of `runtime.ts` so only functions that call the registry bundle it.
 */
import { HttpRegistry } from '../adapters/registry-http/http-registry.ts';
import type { Environment } from '../domain/api-keys.ts';
import type { Registry } from '../ports/registry.ts';
import { type Services, secretSource } from '../runtime.ts';
import type { PageImageRenderer } from './dataset-registry.ts';
import { createSandboxRegistry } from './sandbox.ts';

let sandbox: Registry | undefined;
let sandboxWithImages: Registry | undefined;
let live: Registry | undefined;
let builtFor: Services | undefined;

/**
 * `pageImages`: the sandbox draws the images it hands out with it. Only the workflow fetches
 * images, so only its functions pass it (and bundle pdf-lib).
 */
export function registryFor(
  environment: Environment,
  services: Services,
  options: { pageImages?: PageImageRenderer } = {},
): Registry {
  if (builtFor !== services) {
    // Services are rebuilt when the local stack swaps the clock; the registries follow.
    sandbox = undefined;
    sandboxWithImages = undefined;
    live = undefined;
    builtFor = services;
  }
  if (environment === 'test') {
    const now = () => services.clock.now();
    const { pageImages } = options;
    if (pageImages) {
      sandboxWithImages ??= createSandboxRegistry(now, pageImages);
      return sandboxWithImages;
    }
    sandbox ??= createSandboxRegistry(now);
    return sandbox;
  }
  const { registryUrl, registryCredential } = services.config;
  if (!registryUrl) throw new Error('REGISTRY_URL must be set for live keys');
  live ??= new HttpRegistry({
    baseUrl: registryUrl,
    credential: secretSource(registryCredential, 'REGISTRY_CREDENTIAL or REGISTRY_CREDENTIAL_ARN'),
  });
  return live;
}
