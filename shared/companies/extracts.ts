/**
 * Company extracts: buying one exactly once, and finding the held extract a free read uses.
 */

// The codes this module throws (defineErrors).
import './errors.ts';
import {
  assertReadable,
  buyOnce,
  commitWithRetries,
  extractExpiry,
  extractRefOf,
  feeEntryFor,
  headerFor,
  isUnexpired,
  newPurchaseRecord,
  ownerOf,
  type PurchaseContext,
} from '../extracts/lifecycle.ts';
import type {
  ExtractHeader,
  ExtractPurchases,
  HeldExtracts,
  PurchaseRecord,
  StoredExtract,
} from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { fromRegistry } from '../kernel/registry-errors.ts';
import type { RegistryCaller, RegistryCompany } from '../kernel/registry-port.ts';
import { findCodeTable } from '../reference/code-tables.ts';
import type { CompanyIdentifier } from './identifier.ts';
import {
  type CompanySectionName,
  presentCompany,
  presentCompanySections,
  sectionsByType,
} from './present.ts';
import { companyExtractProducts, productAvailableFor } from './products.ts';
import {
  type CompanyExtractType,
  type CompanyRegistry,
  companyExtractTypes,
  type RegistryCompanyExtract,
} from './registry-port.ts';

const documentListTypes = new Set(
  findCodeTable('document-list-organisation-types')?.entries.map((entry) => entry.code) ?? [],
);

export const EXTRACT_DISCLAIMER =
  'This extract is a snapshot of the national company register at the time shown in asOf. It is ' +
  'supplied as the registry holds it; the registry and this service accept no liability for ' +
  'errors or omissions in the register. Display this notice with the extract.';

/** The paged list of a company extract's officeholders (see `ExtractPurchases.savePagedList`). */
export const OFFICEHOLDER_PAGES = 'officeholders';

/** The key an officeholder is filed under: `current` (C and F records) or `ceased` (E), as the read's `status`. */
export const officeholderStatusKey = (record: unknown) =>
  (record as { status: { code: string } }).status.code === 'E' ? 'ceased' : 'current';

/** Looks a company up for free, by ABN when it was named by one; rejections name `param`. */
export function lookupCompany(
  registry: CompanyRegistry,
  id: CompanyIdentifier,
  caller: RegistryCaller,
  param = 'id',
) {
  return fromRegistry(
    id.abn ? registry.getCompanyByAbn(id.abn, caller) : registry.getCompany(id.number, caller),
    param,
  );
}

/** A stored company extract: its header's summary and every section but the summary. */
export function presentStoredCompanyExtract({ header, sections }: StoredExtract) {
  const { summary: _summary, ...rest } = sections;
  return presentCompanyExtract(header.summary, rest);
}

/** The extract object as GET /v1/extracts/{id} shows it: the header's summary plus every section. */
export function presentCompanyExtract(summary: Record<string, unknown>, sections: Record<string, unknown>) {
  const addresses = sections.addresses as { records: unknown[]; contactAddress: unknown } | undefined;
  const section = (name: CompanySectionName) => (name in sections ? sections[name] : null);
  return {
    ...summary,
    officeholders: section('officeholders'),
    addresses: addresses ? addresses.records : null,
    contactAddress: addresses ? addresses.contactAddress : null,
    shareStructure: section('shareStructure'),
    documents: section('documents'),
    externalAdministration: section('externalAdministration'),
    charges: section('charges'),
    relationships: section('relationships'),
  };
}

export interface PurchaseInput extends PurchaseContext<CompanyRegistry> {
  company: CompanyIdentifier;
  type: CompanyExtractType;
}

/** What a company purchase asked the registry, as its record keeps it. */
interface CompanyPurchaseAsked {
  number: string;
  type: CompanyExtractType;
}

/** The extract type a purchase names: one of the company extract types, checked before anything is recorded. */
export function checkCompanyExtractType(type: string): CompanyExtractType {
  if (!(companyExtractTypes as readonly string[]).includes(type)) {
    throw new ApiError('extract_type_invalid', {
      param: 'type',
      message: `type must be one of ${companyExtractTypes.join(', ')}.`,
    });
  }
  return type as CompanyExtractType;
}

/**
 * Buys a company extract. The purchase is recorded before the registry is asked (with a client
 * key, so a lost answer is asked again without a second charge); the answer is stored as a draft
 * before the header and fee entry are committed together, so a commit that fails leaves a draft
 * the retry (same Idempotency-Key) or the sweeper commits instead of buying again.
 */
export async function purchaseCompanyExtract(input: PurchaseInput) {
  const { extractPurchases } = input;
  const draft = input.recoveryKey
    ? await extractPurchases.findDraft(input.recoveryKey, input.now.toISOString())
    : undefined;
  const { sections, record } = draft ?? (await buyCompanyExtract(input));
  const { header, fee } = companyCommit(sections, record, input.requestId);
  await commitWithRetries(() => extractPurchases.commit(header, fee, record));
  const { summary, ...companySections } = sections as { summary: Record<string, unknown> } & Record<
    string,
    unknown
  >;
  return {
    body: presentCompanyExtract(summary, companySections),
    billable: fee.billable,
    product: fee.product,
  };
}

/** Records the purchase, asks the registry once (with the record's client key) and stores the answer. */
async function buyCompanyExtract(input: PurchaseInput) {
  const { owner, purchaseRecords } = input;
  const caller: RegistryCaller = {
    accountId: owner.accountId,
    requestId: input.requestId,
    clientReference: input.clientReference,
  };
  const number = input.company.abn
    ? (await lookupCompany(input.registry, input.company, caller)).number
    : input.company.number;
  const record = await purchaseRecords.startPurchase(
    newPurchaseRecord({
      key: input.recoveryKey,
      kind: 'company',
      owner,
      requestId: input.requestId,
      clientReference: input.clientReference,
      now: input.now,
      asked: { number, type: input.type } satisfies CompanyPurchaseAsked,
    }),
  );
  const bought = await buyOnce(purchaseRecords, record, 'id', () =>
    input.registry.purchaseCompanyExtract(number, input.type, caller, record.clientKey),
  );
  return storeCompanyExtract(bought, record, input.extractPurchases);
}

/**
 * The extract a registry answer makes, stored as the purchase's draft, with the record of what its
 * commit writes. (The purchase and the sweeper both store it.)
 */
export async function storeCompanyExtract(
  bought: RegistryCompanyExtract,
  record: PurchaseRecord,
  extractPurchases: ExtractPurchases,
): Promise<{ sections: Record<string, unknown>; record: PurchaseRecord }> {
  const purchasedAt = new Date(record.purchasedAt);
  const summary = {
    object: 'extract',
    id: record.extractId,
    kind: 'company',
    type: (record.asked as unknown as CompanyPurchaseAsked).type,
    company: presentCompany(bought.company),
    purchasedAt: record.purchasedAt,
    asOf: toTimestamp(new Date(bought.asOf)),
    expiresAt: toTimestamp(extractExpiry(purchasedAt)),
    clientReference: record.clientReference,
    disclaimer: EXTRACT_DISCLAIMER,
  };
  const sections = { ...presentCompanySections(bought), summary };
  // Officeholders are also kept as a paged list (filed by status), so their reads fetch one page.
  const officeholders = (sections as Record<string, unknown>).officeholders;
  if (Array.isArray(officeholders)) {
    await extractPurchases.savePagedList(
      record.extractId,
      OFFICEHOLDER_PAGES,
      { items: officeholders, keyOf: officeholderStatusKey },
      summary.expiresAt,
    );
  }
  const answered = {
    ...record,
    answer: { ...companyCommit(sections, record, record.requestId), batch: false },
  };
  await extractPurchases.saveSections(record.extractId, sections, summary.expiresAt, answered);
  return { sections, record: answered };
}

/** The header and fee entry that make a stored company extract visible. */
function companyCommit(sections: Record<string, unknown>, record: PurchaseRecord, requestId: string) {
  const summary = sections.summary as Record<string, unknown>;
  const company = summary.company as { acn: string | null; arsn?: string };
  const header = headerFor(summary, {
    owner: ownerOf(record),
    requestId,
    kind: 'company',
    subjectKey: (company.acn ?? company.arsn) as string,
  });
  return { header, fee: feeEntryFor(header, companyExtractProducts[header.type as CompanyExtractType]) };
}

export interface SectionRequest {
  company: CompanyIdentifier;
  section: CompanySectionName;
  /** Ceased records, charges, annual returns or financial reports: only a historical extract has them. */
  needsHistorical: boolean;
  /** The `extract` query parameter, when given. */
  extractId: string | undefined;
  owner: Owner;
  now: Date;
  requestId: string;
  registry: CompanyRegistry;
  heldExtracts: HeldExtracts;
}

/** The extract type a section needs, and so the purchase a 402 proposes. */
function requiredType(section: CompanySectionName, needsHistorical: boolean): CompanyExtractType {
  if (section === 'relationships') return 'relational';
  if (section === 'charges' || needsHistorical) return 'historical';
  return 'current';
}

const holdsSection = (type: string, section: CompanySectionName) =>
  (sectionsByType[type as CompanyExtractType] as readonly string[] | undefined)?.includes(section) ?? false;

function extractRequired(number: string, type: CompanyExtractType, reason: string): ApiError {
  const { product } = companyExtractProducts[type];
  return new ApiError('extract_required', {
    message: reason,
    details: {
      purchase: { method: 'POST', path: `/v1/companies/${number}/extracts`, body: { type }, product },
    },
  });
}

/** Charges exist only for APUB, APTY, RACN and FNOS (spec 4.1), even when a historical extract is held. */
function checkChargesAvailable(section: CompanySectionName, summary: Record<string, unknown>) {
  if (section !== 'charges') return;
  const company = summary.company as { name: string; type: { code: string } };
  if (!productAvailableFor('charges', company.type.code)) {
    throw chargesUnavailable(company.name, company.type.code);
  }
}

const chargesUnavailable = (name: string, type: string) =>
  new ApiError('extract_unavailable_for_type', {
    param: 'id',
    message: `${name} is of type ${type}, for which the registry keeps no charges.`,
  });

function checkAbn(company: CompanyIdentifier, summary: Record<string, unknown>) {
  const held = summary.company as { abn: string | null };
  if (company.abn && held.abn !== company.abn) {
    throw new ApiError('abn_not_found', {
      param: 'id',
      message: `The company with ACN ${company.number} has no ABN ${company.abn} recorded.`,
    });
  }
}

/** The extract named by `extract=`: readable by this owner, a company extract, of this company. */
async function namedExtract({
  extractId,
  heldExtracts,
  owner,
  now,
  company,
}: SectionRequest): Promise<ExtractHeader> {
  const header = assertReadable(await heldExtracts.getHeader(extractId as string), owner, now, 'extract');
  if (header.kind !== 'company') {
    throw new ApiError('extract_type_invalid', {
      param: 'extract',
      message: `${header.id} is a ${header.kind} extract, not a company extract.`,
    });
  }
  if (header.subjectKey !== company.number) {
    throw new ApiError('extract_owner_mismatch', {
      param: 'extract',
      message: `${header.id} is an extract of another company.`,
    });
  }
  return header;
}

/**
 * Finds the held extract a free section read uses, and reads that section: the named extract,
 * or the newest unexpired one holding the section. With none, the registry is asked (free)
 * whether the company exists and can have the extract, and the answer is a 402 naming the
 * purchase that would satisfy the call.
 */
export async function readCompanySection(request: SectionRequest) {
  const found = await locateCompanySection(request);
  return { ...found, data: await request.heldExtracts.getSection(found.extract.id, request.section) };
}

/** The held extract a section read uses (as `readCompanySection`), without reading the section. */
export async function locateCompanySection(request: SectionRequest) {
  const { company, section, needsHistorical, owner, now, heldExtracts } = request;
  const wanted = requiredType(section, needsHistorical);
  const satisfies = (type: string) =>
    holdsSection(type, section) && (!needsHistorical || type === 'historical');

  // A held extract answers for the company as it was bought: its ABN, and whether it has charges.
  const accept = (extract: {
    id: string;
    type: string;
    purchasedAt: string;
    asOf: string;
    summary: Record<string, unknown>;
  }) => {
    checkAbn(company, extract.summary);
    checkChargesAvailable(section, extract.summary);
    return { extract: extractRefOf(extract), summary: extract.summary };
  };

  if (request.extractId !== undefined) {
    const named = await namedExtract(request);
    const read = accept(named);
    if (!satisfies(named.type)) {
      throw extractRequired(
        company.number,
        wanted,
        `${named.id} is a ${named.type} extract; this needs a ${wanted} extract.`,
      );
    }
    return read;
  }

  const held = await heldExtracts.heldForSubject(
    owner.accountId,
    owner.environment,
    'company',
    company.number,
  );
  const usable = held.find((ref) => isUnexpired(ref, now) && satisfies(ref.type));
  if (usable) return accept(usable);

  const found: RegistryCompany = await lookupCompany(request.registry, company, {
    accountId: owner.accountId,
    requestId: request.requestId,
  });
  if (section === 'documents' && !documentListTypes.has(found.type)) {
    throw new ApiError('document_list_unavailable', {
      param: 'id',
      message: `The registry keeps no document list for organisations of type ${found.type}.`,
    });
  }
  if (section === 'charges' && !productAvailableFor('charges', found.type)) {
    throw chargesUnavailable(found.name, found.type);
  }
  if (!productAvailableFor(wanted, found.type)) {
    throw new ApiError('extract_unavailable_for_type', {
      param: 'id',
      message: `${found.name} is of type ${found.type}, for which the registry has no ${wanted} extract.`,
    });
  }
  const currentHeld = held.some((ref) => isUnexpired(ref, now) && ref.type === 'current');
  throw extractRequired(
    found.number,
    wanted,
    currentHeld && wanted === 'historical'
      ? 'Only a current extract is held; ceased records, charges, annual returns and financial reports need a historical extract.'
      : `No unexpired ${wanted} extract of this company is held. Buy one with the request in details.purchase.`,
  );
}
