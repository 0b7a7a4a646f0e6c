import { toTimestamp } from '../../kernel/clock.ts';
import { RegistryRejection } from '../../kernel/registry-port.ts';
import type { BlobStore, OrderStore } from '../store-port.ts';
import {
  type Clock,
  callerOf,
  imageBatches,
  loadOrder,
  orderPdfKey,
  type PollState,
  type RegistryFor,
  type WorkflowInput,
} from './common.ts';
import { asStepFailure } from './registry-call.ts';

export interface CompilePdfPorts extends Clock {
  orders: Pick<OrderStore, 'get' | 'update'>;
  /** The sandbox draws the images it hands out: its registry must be given the page renderer. */
  registryFor: RegistryFor;
  blobs: BlobStore;
}

export type CompilePdfInput = WorkflowInput & { poll?: PollState };

/** The registry's "could not retrieve the images" (an image request, or one document of it). */
const IMAGE_UNAVAILABLE = 'DI58';

/** The cover page and every available image in one PDF, stored once. */
export async function compilePdf(ports: CompilePdfPorts, input: CompilePdfInput) {
  const order = await loadOrder(ports.orders, input.id);
  const key = orderPdfKey(order.id);
  const { blobs } = ports;
  if (order.pdfKey === key && (await blobs.exists(key))) return { key, compiled: false };
  const registry = ports.registryFor(order.environment);
  const unavailable = new Set(input.poll?.unavailable ?? []);
  const requestOf = new Map<string, string>();
  for (const [index, batch] of imageBatches(order).entries()) {
    for (const document of batch)
      requestOf.set(document.documentNumber, order.imageRequests[String(index)] as string);
  }
  const company = order.company as { name: string; formatted: string; numberType?: { code: string } } | null;
  // pdf-lib is most of the function's bundle: loaded when a PDF is compiled, not at every start.
  const { compileOrderPdf } = await import('../pdf.ts');
  const { bytes, imagesMissing } = await compileOrderPdf({
    orderId: order.id,
    title: order.type === 'charges_extract' ? 'Charges extract' : 'Document images',
    createdAt: order.createdAt,
    company: company
      ? { name: company.name, formatted: `${company.numberType?.code ?? 'ACN'} ${company.formatted}` }
      : null,
    documents: order.documents.map((document) =>
      unavailable.has(document.documentNumber) ? { ...document, imageAvailable: false } : document,
    ),
    notices: order.notices,
    images: async (documentNumber) => {
      const requestId = requestOf.get(documentNumber);
      if (!requestId || unavailable.has(documentNumber)) return undefined;
      const pages =
        order.documents.find((document) => document.documentNumber === documentNumber)?.pages ?? null;
      try {
        return await registry.getImages(requestId, documentNumber, callerOf(order), pages);
      } catch (error) {
        // The registry could not retrieve this one image: the order goes on without it, noted.
        if (error instanceof RegistryRejection && error.registryCode === IMAGE_UNAVAILABLE) return undefined;
        throw asStepFailure(error);
      }
    },
  });
  await blobs.put(key, bytes, 'application/pdf');
  await ports.orders.update(order.id, {
    pdfKey: key,
    notices: imagesMissing.map(
      (number) => `The registry returned no image for document ${number}; it is not included.`,
    ),
    updatedAt: toTimestamp(ports.now()),
  });
  return { key, compiled: true };
}
