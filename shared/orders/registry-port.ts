/**
 * The orders capability: what an order needs to be accepted and fulfilled (charges extract plans,
 * documents, image requests, images, postal hand-overs) and the offline name search.
 */

import type { CompanySearchScope, RegistryCompanyMatch } from '../companies/registry-port.ts';
import type { RegistryDocumentSubject } from '../kernel/registry-port.ts';
import {
  type IsoDate,
  methodsOf,
  type RegistryCaller,
  type RegistryCompany,
} from '../kernel/registry-port.ts';

/** A document the registry can image, with whose record it was lodged against (it decides the fee). */
export interface RegistryImageableDocument {
  documentNumber: string;
  formCode: string;
  pageCount: number;
  receivedAt: IsoDate;
  /** False: the registry holds no image (`imaged` false), so none can be ordered. */
  imaged: boolean;
  /**
   * False when an image is listed but cannot be produced: typically a document lodged with a
   * state office before 1991 whose image was never migrated. The order notes it and goes on.
   */
  imageAvailable: boolean;
  /** The record the document was lodged against (it decides the image fee). */
  subject: RegistryDocumentSubject;
}

/** What a charges extract order would compile: the documents of every charge the company holds. */
export interface RegistryChargesExtractPlan {
  company: RegistryCompany;
  /**
   * `satisfied`: the satisfied charges extract (fee 955E, the default). `current`: the company's
   * charges are current ones registered before the register moved to the PPSR in 2012 (fee 955C).
   */
  scope: 'satisfied' | 'current';
  /** Notification first, discharge last, charge by charge; their pages add up to `company.chargesExtractPages`. */
  documents: RegistryImageableDocument[];
}

/** One document of an image request: all its pages (`pages` null) or a range of them. */
export interface RegistryImageRequestItem {
  documentNumber: string;
  pages: { from: number; to: number } | null;
}

export interface RegistryImageRequestStatus {
  registryRequestId: string;
  /** `pending` while the registry retrieves the images; `failed` when it cannot fulfil the request. */
  status: 'pending' | 'complete' | 'failed';
  /** Set when `failed`: the registry's code (DI58…) and message. */
  failure: { registryCode: string; message: string } | null;
  /** Once complete: which documents have images (unavailable ones are noted, not fatal). */
  documents: { documentNumber: string; available: boolean; pageCount: number }[];
}

export interface RegistryPostalDelivery {
  /** Our key for the hand-over: the same key twice is one dispatch. */
  clientKey: string;
  registryRequestIds: string[];
  recipient: string;
  address: string;
  postcode: string;
  contactName: string;
  contactPhone: string;
}

/**
 * The asynchronous tier: what an order needs to be accepted (free lookups) and fulfilled (image
 * requests, images, postal hand-over), and the offline name search. Image requests and postal
 * hand-overs take a client key so that a retried step never asks twice.
 */
export interface OrdersRegistry {
  /**
   * Free: the documents a charges extract order of this company would compile. Rejects CC01
   * (number invalid), CE03 (no such organisation), CC51 (type without charges) and CC52 (no charges).
   */
  planChargesExtract(number: string, caller: RegistryCaller): Promise<RegistryChargesExtractPlan>;
  /**
   * Free lookup of up to 50 documents, in the order asked. Rejects DD01 (a number is not nine
   * characters starting with a digit) and DD51 (no such document, `details.documentNumber`).
   */
  getDocuments(numbers: readonly string[], caller: RegistryCaller): Promise<RegistryImageableDocument[]>;
  /**
   * Asks for the images of at most 10 documents. Idempotent on `clientKey`: asking again with the
   * same key returns the first request's id. Rejects DI52 (not imaged) and DI53 (pages absent).
   */
  requestImages(
    request: { clientKey: string; documents: readonly RegistryImageRequestItem[] },
    caller: RegistryCaller,
  ): Promise<{ registryRequestId: string }>;
  /** Free: where an image request stands. Rejects RO51 for an unknown request id. */
  getImageRequest(registryRequestId: string, caller: RegistryCaller): Promise<RegistryImageRequestStatus>;
  /**
   * The images of one available document of a complete request, as a PDF (the requested pages
   * only). `pages` repeats what was requested, for a registry that keeps no request state (the
   * sandbox, whose Lambda containers share nothing). DI58 when the image cannot be retrieved.
   */
  getImages(
    registryRequestId: string,
    documentNumber: string,
    caller: RegistryCaller,
    pages?: RegistryImageRequestItem['pages'],
  ): Promise<Uint8Array>;
  /** Hands the documents of these image requests to the registry's postal service. Idempotent on `clientKey`. */
  requestPostalDelivery(
    delivery: RegistryPostalDelivery,
    caller: RegistryCaller,
  ): Promise<{ dispatchId: string }>;
  /**
   * Offline name search: the whole result set, without the 100-name cap of the online search.
   * Rejects ON02 for an unknown scope; finding nothing is an empty result, not an error.
   */
  searchCompaniesOffline(
    query: { name: string; scope: CompanySearchScope },
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<{ matches: RegistryCompanyMatch[] }>;
}

export const ordersRegistryMethods = methodsOf<OrdersRegistry>()([
  'planChargesExtract',
  'getDocuments',
  'requestImages',
  'getImageRequest',
  'getImages',
  'requestPostalDelivery',
  'searchCompaniesOffline',
]);

/** This capability's part of the registry port (shared/app/registry.ts). */
declare module '../kernel/registry-port.ts' {
  interface RegistryParts {
    orders: OrdersRegistry;
  }
}
