/**
 * The orders capability over the dataset: charges extract plans, document lookups, image
 * requests (complete at once), images, postal hand-overs and the offline name search.
 */
import { createHash } from 'node:crypto';
import { type DocumentEntry, imageAvailableIn } from '../../adapters/sandbox/dataset.ts';
import {
  companyRecordIn,
  type DatasetContext,
  DatasetPart,
  rejectMalformedDocumentNumbers,
} from '../../adapters/sandbox/lookups.ts';
import { orderedMatches, scoredNames } from '../../adapters/sandbox/name-search.ts';
import type { DocumentImagesRequest } from '../../adapters/sandbox/page-images.ts';
import { productAvailableFor } from '../../companies/products.ts';
import type { CompanySearchScope, RegistryCompanyMatch } from '../../companies/registry-port.ts';
import { isDocumentNumber } from '../../kernel/document-numbers.ts';
import { sortCharges } from '../../kernel/registry-ordering.ts';
import {
  type IsoDate,
  type RegistryCaller,
  type RegistryCharge,
  RegistryRejection,
} from '../../kernel/registry-port.ts';
import type {
  OrdersRegistry,
  RegistryChargesExtractPlan,
  RegistryImageableDocument,
  RegistryImageRequestItem,
  RegistryImageRequestStatus,
  RegistryPostalDelivery,
} from '../registry-port.ts';

/**
 * Draws the page images of a document (`renderDocumentImages`). Passed in rather than imported:
 * it brings pdf-lib, which only the functions that fetch images should bundle.
 */
export type PageImageRenderer = (request: DocumentImagesRequest) => Promise<Uint8Array>;

/** What the orders part is built with beside the dataset. */
export interface DatasetOrdersOptions {
  statelessImages?: boolean;
  pageImages?: PageImageRenderer;
}

/** Most documents in one image request. */
export const MAX_IMAGE_REQUEST_DOCUMENTS = 10;
/** Most numbers in one document lookup. */
export const MAX_DOCUMENT_LOOKUP = 50;

/**
 * The day the charges register moved to the PPSR. Charges still current then were migrated there
 * (status DELT, no satisfaction date); the current charges extract (fee 955C) covers those.
 */
export const PPSR_START: IsoDate = '2012-01-30';

/** Not satisfied, and registered before the PPSR took over. */
const isPrePpsrCurrentCharge = (charge: RegistryCharge): boolean => {
  const registered = (charge.registeredAt ?? charge.createdAt)?.slice(0, 10) ?? null;
  return (
    charge.status !== 'SATF' && charge.satisfiedAt === null && registered !== null && registered < PPSR_START
  );
};

const imageable = (entry: DocumentEntry): RegistryImageableDocument => {
  const { document, subject } = entry;
  return {
    documentNumber: document.documentNumber,
    formCode: document.formCode,
    pageCount: document.pageCount,
    receivedAt: document.receivedAt,
    imaged: document.imaged,
    imageAvailable: entry.imageAvailable,
    subject:
      subject.type === 'organisation'
        ? { type: 'organisation', company: subject.record.company }
        : subject.type === 'person'
          ? { type: 'person', name: subject.record.match.name }
          : { type: 'other' },
  };
};

/** One document of an image request, its page range resolved. */
interface RequestedImage {
  entry: DocumentEntry;
  from: number;
  to: number;
}

interface ImageRequest {
  registryRequestId: string;
  accountId: string;
  documents: RequestedImage[];
}

/** Idempotency keys are per account. */
const keyOf = (accountId: string, clientKey: string): string => JSON.stringify([accountId, clientKey]);

const sequenced = (prefix: string, n: number): string => `${prefix}${String(n).padStart(8, '0')}`;

export class DatasetOrders extends DatasetPart implements OrdersRegistry {
  /**
   * Image requests and postal hand-overs live in this object's memory: they last as long as it,
   * and another instance (another process) does not know them.
   */
  private readonly imageRequests = new Map<string, ImageRequest>();
  private readonly imageRequestKeys = new Map<string, string>();
  private readonly dispatches = new Map<string, string>();

  /**
   * `statelessImages` (the sandbox): request and dispatch ids are derived from the account and
   * client key, and a well-formed request id this instance does not know is taken as complete,
   * its images drawn from the dataset and the `pages` the caller repeats. Deployed, each Lambda
   * container has its own sandbox instance, and the workflow's steps run in different ones.
   * `pageImages` draws the pages `getImages` returns; without it `getImages` throws.
   */
  constructor(
    context: DatasetContext,
    private readonly options: DatasetOrdersOptions = {},
  ) {
    super(context);
  }

  private newId(prefix: string, accountId: string, clientKey: string, count: number): string {
    if (!this.options.statelessImages) return sequenced(prefix, count);
    const digest = createHash('sha256').update(keyOf(accountId, clientKey)).digest();
    return sequenced(prefix, digest.readUInt32BE(0) % 100_000_000);
  }

  /** A request id another sandbox instance issued. */
  private isForeignRequest(registryRequestId: unknown): boolean {
    return (
      this.options.statelessImages === true &&
      typeof registryRequestId === 'string' &&
      /^IR\d{8}$/.test(registryRequestId) &&
      !this.imageRequests.has(registryRequestId)
    );
  }

  async searchCompaniesOffline(
    query: { name: string; scope: CompanySearchScope },
    _caller: RegistryCaller,
    // The sandbox bills nothing and loses no answer, so it has no use for our client key.
    _clientKey?: string,
  ): Promise<{ matches: RegistryCompanyMatch[] }> {
    return structuredClone({ matches: orderedMatches(scoredNames(this.dataset, query)) });
  }

  /** One best-scoring name per matching organisation, unordered; ON02 for an unknown scope. */

  /**
   * The documents of every charge of the company, charge by charge in the registry's order, each
   * charge's notification first and discharge last. CC01, CE03, CC51, CC52.
   */
  async planChargesExtract(number: string, _caller: RegistryCaller): Promise<RegistryChargesExtractPlan> {
    const record = companyRecordIn(this.dataset, number, 'CC01', 'CE03');
    const { company } = record;
    if (!productAvailableFor('charges', company.type)) {
      throw new RegistryRejection('CC51', `Organisation type ${company.type} has no charges extract.`);
    }
    if (record.charges.length === 0) {
      throw new RegistryRejection('CC52', `No charges are recorded for organisation ${company.number}.`);
    }
    const charges = sortCharges(record.charges);
    const documents = charges.flatMap((charge) =>
      charge.documents.map((document) =>
        imageable({
          document,
          subject: { type: 'organisation', record },
          imageAvailable: imageAvailableIn(record, document),
        }),
      ),
    );
    return structuredClone({
      company,
      scope: charges.every(isPrePpsrCurrentCharge) ? 'current' : 'satisfied',
      documents,
    });
  }

  /** DD01 for a malformed number (every number is checked first), then DD51 for an unknown one. */
  async getDocuments(
    numbers: readonly string[],
    _caller: RegistryCaller,
  ): Promise<RegistryImageableDocument[]> {
    if (!Array.isArray(numbers) || numbers.length > MAX_DOCUMENT_LOOKUP) {
      throw new Error(`getDocuments: at most ${MAX_DOCUMENT_LOOKUP} document numbers in a list`);
    }
    rejectMalformedDocumentNumbers(numbers);
    return structuredClone(numbers.map((number) => imageable(this.document(number, 'DD51'))));
  }

  /**
   * A repeat of an account's client key returns the first request's id and changes nothing, even
   * when the documents differ. Otherwise DI01 (malformed number), DI07 (a document twice), DI51
   * (unknown), DI52 (not imaged), DI08 (a page range without two whole numbers), DI02 (a range
   * that starts below 1 or ends before it starts), DI53 (pages beyond the document).
   */
  async requestImages(
    request: { clientKey: string; documents: readonly RegistryImageRequestItem[] },
    caller: RegistryCaller,
  ): Promise<{ registryRequestId: string }> {
    const clientKey: unknown = request?.clientKey;
    const items: unknown = request?.documents;
    if (typeof clientKey !== 'string' || clientKey === '') {
      throw new Error('requestImages: clientKey must be a non-empty string');
    }
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_IMAGE_REQUEST_DOCUMENTS) {
      throw new Error(`requestImages: one to ${MAX_IMAGE_REQUEST_DOCUMENTS} documents per request`);
    }
    const key = keyOf(caller.accountId, clientKey);
    const held = this.imageRequestKeys.get(key);
    if (held !== undefined) return { registryRequestId: held };

    const seen = new Set<string>();
    const documents = (items as RegistryImageRequestItem[]).map((item): RequestedImage => {
      const number: unknown = item?.documentNumber;
      if (!isDocumentNumber(number)) {
        throw new RegistryRejection(
          'DI01',
          `Document number ${String(number)} is not nine characters starting with a digit.`,
          { documentNumber: number },
        );
      }
      if (seen.has(number)) {
        throw new RegistryRejection('DI07', `Document ${number} is asked for twice.`, {
          documentNumber: number,
        });
      }
      seen.add(number);
      const entry = this.document(number, 'DI51');
      const { pageCount } = entry.document;
      if (!entry.document.imaged) {
        throw new RegistryRejection('DI52', `Document ${number} is not in the imaging system.`, {
          documentNumber: number,
        });
      }
      const pages = item.pages ?? null;
      if (pages === null) return { entry, from: 1, to: pageCount };
      const { from, to } = pages as { from: unknown; to: unknown };
      if (!Number.isInteger(from) || !Number.isInteger(to)) {
        throw new RegistryRejection('DI08', 'A page range needs a first and a last page, as whole numbers.', {
          documentNumber: number,
        });
      }
      const [first, last] = [from as number, to as number];
      if (first < 1 || last < first) {
        throw new RegistryRejection('DI02', `Pages ${first} to ${last} are not a page range.`, {
          documentNumber: number,
        });
      }
      if (last > pageCount) {
        throw new RegistryRejection(
          'DI53',
          `Document ${number} has ${pageCount} ${pageCount === 1 ? 'page' : 'pages'}; pages ${first} to ${last} were asked for.`,
          { documentNumber: number },
        );
      }
      return { entry, from: first, to: last };
    });
    const registryRequestId = this.newId('IR', caller.accountId, clientKey, this.imageRequests.size + 1);
    this.imageRequests.set(registryRequestId, { registryRequestId, accountId: caller.accountId, documents });
    this.imageRequestKeys.set(key, registryRequestId);
    return { registryRequestId };
  }

  /** Complete at once: unavailable images are listed with `available` false. RO51 for an unknown id. */
  async getImageRequest(
    registryRequestId: string,
    caller: RegistryCaller,
  ): Promise<RegistryImageRequestStatus> {
    if (this.isForeignRequest(registryRequestId)) {
      return { registryRequestId, status: 'complete', failure: null, documents: [] };
    }
    const request = this.imageRequest(registryRequestId, caller);
    return {
      registryRequestId,
      status: 'complete',
      failure: null,
      documents: request.documents.map(({ entry, from, to }) => ({
        documentNumber: entry.document.documentNumber,
        available: entry.imageAvailable,
        pageCount: to - from + 1,
      })),
    };
  }

  /**
   * The requested pages of one document of the request. RO51 (unknown request), DI51 (the
   * document is not part of it), DI58 (its image is unavailable).
   */
  async getImages(
    registryRequestId: string,
    documentNumber: string,
    caller: RegistryCaller,
    pages?: RegistryImageRequestItem['pages'],
  ): Promise<Uint8Array> {
    const requested = this.isForeignRequest(registryRequestId)
      ? this.foreignImage(documentNumber, pages ?? null)
      : this.imageRequest(registryRequestId, caller).documents.find(
          ({ entry }) => entry.document.documentNumber === documentNumber,
        );
    if (!requested) {
      throw new RegistryRejection(
        'DI51',
        `Document ${String(documentNumber)} is not part of image request ${registryRequestId}.`,
        { documentNumber },
      );
    }
    if (!requested.entry.imageAvailable) {
      const message = `The registry could not retrieve the images of document ${documentNumber}.`;
      throw new RegistryRejection('DI58', message, { documentNumber });
    }
    const { document } = requested.entry;
    const render = this.options.pageImages;
    if (!render) throw new Error('DatasetRegistry: getImages needs the pageImages option');
    return render({
      documentNumber: document.documentNumber,
      formCode: document.formCode,
      from: requested.from,
      to: requested.to,
      totalPages: document.pageCount,
    });
  }

  /**
   * A repeat of an account's client key returns the first dispatch id. RO51 when one of the
   * image requests is not the account's.
   */
  async requestPostalDelivery(
    delivery: RegistryPostalDelivery,
    caller: RegistryCaller,
  ): Promise<{ dispatchId: string }> {
    const clientKey: unknown = delivery?.clientKey;
    const ids: unknown = delivery?.registryRequestIds;
    if (typeof clientKey !== 'string' || clientKey === '') {
      throw new Error('requestPostalDelivery: clientKey must be a non-empty string');
    }
    if (!Array.isArray(ids) || ids.length === 0) {
      throw new Error('requestPostalDelivery: registryRequestIds must list at least one image request');
    }
    for (const field of ['recipient', 'address', 'postcode', 'contactName', 'contactPhone'] as const) {
      const value: unknown = delivery[field];
      if (typeof value !== 'string' || value.trim() === '') {
        throw new Error(`requestPostalDelivery: ${field} must be a non-empty string`);
      }
    }
    const key = keyOf(caller.accountId, clientKey);
    const held = this.dispatches.get(key);
    if (held !== undefined) return { dispatchId: held };
    for (const id of ids as unknown[])
      if (!this.isForeignRequest(id)) this.imageRequest(id as string, caller);
    const dispatchId = this.newId('PD', caller.accountId, clientKey, this.dispatches.size + 1);
    this.dispatches.set(key, dispatchId);
    return { dispatchId };
  }

  private foreignImage(documentNumber: string, pages: RegistryImageRequestItem['pages']): RequestedImage {
    const entry = this.document(documentNumber, 'DI51');
    return { entry, from: pages?.from ?? 1, to: pages?.to ?? entry.document.pageCount };
  }

  private document(number: string, unknownCode: string): DocumentEntry {
    const entry = this.dataset.documents.get(number);
    if (!entry) {
      throw new RegistryRejection(unknownCode, `No document has the number ${number}.`, {
        documentNumber: number,
      });
    }
    return entry;
  }

  /** Another account's request is as unknown as one never made. */
  private imageRequest(registryRequestId: string, caller: RegistryCaller): ImageRequest {
    const request =
      typeof registryRequestId === 'string' ? this.imageRequests.get(registryRequestId) : undefined;
    if (!request || request.accountId !== caller.accountId) {
      throw new RegistryRejection('RO51', `No image request has the id ${String(registryRequestId)}.`, {
        registryRequestId,
      });
    }
    return request;
  }
}
