import { createRegistries } from '../../../shared/adapters/registries.ts';
import type { PageImageRenderer } from '../../../shared/adapters/sandbox/dataset-registry.ts';
import type { RegistryFor } from '../../../shared/app/ports.ts';
import { blobs } from '../../../shared/composition/aws/blobs.ts';
import { orders } from '../../../shared/composition/aws/orders.ts';
import { awsPorts, type Factory, now } from '../../../shared/composition/aws/root.ts';
import { workflowTask } from '../../../shared/orders/instrumented.ts';
import {
  type CompilePdfInput,
  type CompilePdfPorts,
  compilePdf,
} from '../../../shared/orders/steps/compile-pdf.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: CompilePdfPorts) =>
  workflowTask('CompilePdf', (input: CompilePdfInput) => compilePdf(ports, input));

/**
 * Only the compile fetches images, so only it bundles the sandbox's renderer (and pdf-lib),
 * loaded on the first test order's images rather than at start.
 */
const renderDocumentImages: PageImageRenderer = async (request) =>
  (await import('../../../shared/adapters/sandbox/page-images.ts')).renderDocumentImages(request);

const registryWithImages: Factory<RegistryFor> = (root) =>
  createRegistries({ ...root, pageImages: renderDocumentImages });

export const handler = createHandler(awsPorts({ orders, registryFor: registryWithImages, blobs, now }));
