/**
 * The registry a key's environment uses: test keys the sandbox (in process), live keys the
 * HTTP registry. Kept apart from the other ports so only functions that call the registry bundle it.
 */

import { secretReader } from '../../adapters/aws/secrets-extension.ts';
import type { RegistryFor } from '../../app/ports.ts';
import { deferredRegistry, type Registry } from '../../app/registry.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { ServiceConfig } from '../../kernel/config.ts';
import type { PageImageRenderer } from './dataset-registry.ts';
import { HttpRegistry } from './http-registry.ts';

export interface RegistriesOptions {
  config: Pick<ServiceConfig, 'registryUrl' | 'registryCredential'>;
  clock: Clock;
  /** The sandbox draws the images it hands out with it; only the PDF compile passes it (and bundles pdf-lib). */
  pageImages?: PageImageRenderer;
}

type SandboxModule = typeof import('./sandbox.ts');

/**
 * The sandbox's code and data (about 80 KB) are loaded on a test key's first registry call, not at
 * start: a Lambda bundle does not carry them. lib/bundling.ts defines `SANDBOX_CHUNK` in Lambda
 * bundles and writes the sandbox as that file beside the handler (`sandboxChunk`); elsewhere (the
 * local stack, tests) the module itself is imported. Classes the two files share are told apart
 * by brand, not identity (`RegistryRejection` in shared/kernel/registry-port.ts).
 */
const loadSandbox = async (): Promise<SandboxModule> =>
  process.env.SANDBOX_CHUNK
    ? (require(`${__dirname}/${process.env.SANDBOX_CHUNK}`) as SandboxModule)
    : import('./sandbox.ts');

/** Each environment's registry, built on its first use. */
export function createRegistries({ config, clock, pageImages }: RegistriesOptions): RegistryFor {
  let sandbox: Registry | undefined;
  let live: Registry | undefined;
  return (environment) => {
    if (environment === 'test') {
      sandbox ??= deferredRegistry(async () =>
        (await loadSandbox()).createSandboxRegistry(() => clock.now(), pageImages),
      );
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
