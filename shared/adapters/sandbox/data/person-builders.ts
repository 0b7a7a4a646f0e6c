/**
 * Builders of name records: person documents (`9P` numbers), office and Member roles,
 * shareholdings, licences, names and births. The sandbox people (people-data.ts) and the
 * simulator's generated people (local/generated-data.ts) are made with them.
 */

import { MEMBER_ROLE } from '../../../kernel/registry-ordering.ts';
import type {
  IsoDate,
  RegistryAddress,
  RegistryCompany,
  RegistryDocument,
  RegistryLicence,
  RegistryPersonName,
  RegistryPersonRole,
  RegistryShareholding,
} from '../../../kernel/registry-port.ts';
import type { CompanyRecord } from '../dataset.ts';
import { DocumentBook, type LodgeOptions, sourceOf } from './company-builders.ts';

/** A person document: status and `priced` are null in person extracts (spec 2.3). */
export const personDocument = (document: RegistryDocument): RegistryDocument => ({
  ...document,
  status: null,
  priced: null,
});

/** Person document numbers: 9P + three-digit book + four-digit sequence (nine characters). */
export class PersonBook {
  readonly documents: RegistryDocument[] = [];
  private readonly book: DocumentBook;

  constructor(book: number) {
    let sequence = 0;
    this.book = new DocumentBook(
      () => `9P${String(book).padStart(3, '0')}${String(++sequence).padStart(4, '0')}`,
    );
  }

  lodge(formCode: string, receivedAt: IsoDate, options: LodgeOptions = {}): RegistryDocument {
    return this.add(this.book.lodge(formCode, receivedAt, options));
  }

  /** Files a company's document (found by form and date) among the person's documents. */
  file(record: CompanyRecord, formCode: string, receivedAt: IsoDate): RegistryDocument {
    const document = record.documents.find(
      (candidate) => candidate.formCode === formCode && candidate.receivedAt === receivedAt,
    );
    if (!document) throw new Error(`No ${formCode} of ${receivedAt} in ${record.company.number}`);
    return this.add(document);
  }

  private add(document: RegistryDocument): RegistryDocument {
    const filed = personDocument(document);
    this.documents.push(filed);
    return filed;
  }
}

export interface RoleSpec {
  status?: string;
  appointedAt: IsoDate | null;
  ceasedAt?: IsoDate | null;
  address?: RegistryAddress | null;
  source?: RegistryDocument | null;
}

/** An office role; the status is E when a ceasing date is given, else C. */
export const personRole = (role: string, company: RegistryCompany, spec: RoleSpec): RegistryPersonRole => ({
  role,
  status: spec.status ?? (spec.ceasedAt ? 'E' : 'C'),
  appointedAt: spec.appointedAt,
  ceasedAt: spec.ceasedAt ?? null,
  company,
  address: spec.address ?? null,
  sourceDocument: spec.source ? sourceOf(spec.source) : null,
});

/** A Member (SH) role: no appointment date. */
export const memberRole = (
  company: RegistryCompany,
  spec: Omit<RoleSpec, 'appointedAt'> = {},
): RegistryPersonRole => personRole(MEMBER_ROLE, company, { ...spec, appointedAt: null });

export const shareholding = (
  company: RegistryCompany,
  classCode: string,
  classDescription: string,
  sharesHeld: number,
  spec: {
    status?: string;
    beneficiallyHeld?: boolean;
    fullyPaid?: boolean;
    source?: RegistryDocument | null;
  },
): RegistryShareholding => ({
  company,
  classCode,
  classDescription,
  status: spec.status ?? 'C',
  sharesHeld,
  fullyPaid: spec.fullyPaid ?? true,
  beneficiallyHeld: spec.beneficiallyHeld ?? true,
  sourceDocument: spec.source ? sourceOf(spec.source) : null,
});

export const licence = (
  type: string,
  licenceNumber: string,
  licenceStatus: string,
  from: IsoDate,
  to: IsoDate | null,
  spec: { status?: string; address?: RegistryAddress | null; source?: RegistryDocument | null } = {},
): RegistryLicence => ({
  type,
  status: spec.status ?? (to === null ? 'C' : 'E'),
  licenceNumber,
  licenceStatus,
  from,
  to,
  address: spec.address ?? null,
  sourceDocument: spec.source ? sourceOf(spec.source) : null,
});

export const personName = (familyName: string, givenNames: string): RegistryPersonName => ({
  familyName,
  givenNames: givenNames.split(' '),
});

export const birth = (date: IsoDate, locality: string, stateOrCountry: string) => ({
  date,
  locality,
  stateOrCountry,
});

// ---------------------------------------------------------------------------------------------
