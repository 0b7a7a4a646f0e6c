/**
 * The registries of the PDF compile, the one function that fetches document images: the sandbox's
 * page renderer (and pdf-lib) is bundled only here, and loaded on the first test order's images
 * rather than at start.
 */

import type { PageImageRenderer } from '../registry/dataset-registry.ts';
import { createRegistries } from '../registry/registries.ts';
import type { CapabilityFactory } from './root.ts';

const renderDocumentImages: PageImageRenderer = async (request) =>
  (await import('../../adapters/sandbox/page-images.ts')).renderDocumentImages(request);

export const registryWithImages: CapabilityFactory<'registryFor'> = (root) =>
  createRegistries({ ...root, pageImages: renderDocumentImages });
