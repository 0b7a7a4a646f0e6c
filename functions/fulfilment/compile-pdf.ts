import { systemClock } from '../../shared/domain/clock.ts';
import { s3BlobStore } from '../../shared/orders/services/blobs.ts';
import { workflowTask } from '../../shared/orders/services/instrumented.ts';
import { registries } from '../../shared/orders/services/registry.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import {
  type CompilePdfInput,
  type CompilePdfPorts,
  compilePdf,
} from '../../shared/orders/steps/compile-pdf.ts';
import { renderDocumentImages } from '../../shared/registry/page-images.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: CompilePdfPorts) =>
  workflowTask('CompilePdf', (input: CompilePdfInput) => compilePdf(ports, input));

export const handler = createHandler({
  orders: orderStore(),
  registryFor: registries({ pageImages: renderDocumentImages }),
  blobs: s3BlobStore(),
  now: () => systemClock.now(),
});
