import { registryWithImages } from '../../../shared/composition/aws/registry-with-images.ts';
import { awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { blobs } from '../../../shared/orders/composition/blobs.ts';
import { orders } from '../../../shared/orders/composition.ts';
import { workflowTask } from '../../../shared/orders/instrumented.ts';
import {
  type CompilePdfInput,
  type CompilePdfPorts,
  compilePdf,
} from '../../../shared/orders/steps/compile-pdf.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: CompilePdfPorts) =>
  workflowTask('CompilePdf', (input: CompilePdfInput) => compilePdf(ports, input));

export const handler = createHandler(awsPorts({ orders, registryFor: registryWithImages, blobs, now }));
