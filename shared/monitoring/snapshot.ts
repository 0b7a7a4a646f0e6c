/**
 * What a company check reads and compares: the free lookup's status, name and type, and the
 * newest document of the free document list where the company's type has one (spec 2.9: base
 * service). Two registry calls at most, both free.
 */
// The document list rejects with a companies code (CD51: document_list_unavailable).
import '../companies/errors.ts';
import type { CompanyRegistry } from '../companies/registry-port.ts';
import { toTimestamp } from '../kernel/clock.ts';
import type { RegistryCaller, RegistryCompany, RegistryDocument } from '../kernel/registry-port.ts';
import { findCodeTable } from '../reference/code-tables.ts';
import type { CompanySnapshot, MonitoredCompany } from './store-port.ts';

const documentListTypes: ReadonlySet<string> = new Set(
  findCodeTable('document-list-organisation-types')?.entries.map((entry) => entry.code) ?? [],
);

/** Whether the registry keeps a document list for organisations of this type. */
export const hasDocumentList = (type: string) => documentListTypes.has(type);

export const monitoredCompany = (company: RegistryCompany): MonitoredCompany => ({
  number: company.number,
  numberType: company.numberType,
  name: company.name,
  type: company.type,
  status: company.status,
  abn: company.abn,
  registeredCharity: company.registeredCharity,
  schemeCategories: [...company.schemeCategories],
});

const documentRef = (document: RegistryDocument) => ({
  documentNumber: document.documentNumber,
  formCode: document.formCode,
  receivedAt: document.receivedAt,
});

/** Newest first: by received date, then by document number. */
export const newestFirst = (a: RegistryDocument, b: RegistryDocument) =>
  b.receivedAt.localeCompare(a.receivedAt) || b.documentNumber.localeCompare(a.documentNumber);

export interface CompanyReading {
  company: RegistryCompany;
  /** Newest first; empty when the type has no document list. */
  documents: RegistryDocument[];
  snapshot: CompanySnapshot;
}

/** Reads a company's state from the registry (the lookup already made, the document list if any). */
export async function readCompany(
  registry: Pick<CompanyRegistry, 'listCompanyDocuments'>,
  company: RegistryCompany,
  caller: RegistryCaller,
  now: Date,
): Promise<CompanyReading> {
  const documents = hasDocumentList(company.type)
    ? [...(await registry.listCompanyDocuments(company.number, caller))].sort(newestFirst)
    : [];
  const latest = documents[0];
  return {
    company,
    documents,
    snapshot: {
      status: company.status,
      name: company.name,
      type: company.type,
      latestDocument: latest ? documentRef(latest) : null,
      at: toTimestamp(now),
    },
  };
}
