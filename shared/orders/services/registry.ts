import type { PageImageRenderer } from '../../registry/dataset-registry.ts';
import { registryFor } from '../../registry/registries.ts';
import { getServices } from '../../runtime.ts';
import type { RegistryFor } from '../steps/common.ts';

/**
 * The registry of a record's environment, as the API's functions use it (the sandbox in process
 * for test keys, the HTTP registry for live ones). `pageImages`: the sandbox draws the images it
 * hands out with it; only the PDF compile fetches images, so only it bundles the renderer.
 */
export const registries =
  (options: { pageImages?: PageImageRenderer } = {}): RegistryFor =>
  (environment) =>
    registryFor(environment, getServices(), options);
