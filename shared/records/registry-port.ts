/**
 * The records capability of the registry port: free lookups of documents (their details, in
 * batches), business names and name reservations. None is billed; none needs a product.
 */
import {
  type IsoDate,
  methodsOf,
  type RegistryCaller,
  type RegistryCompany,
  type RegistryDocument,
  type RegistryDocumentSubject,
  type RegistryPartialAddress,
  type RegistryParty,
  type RegistrySourceDocument,
} from '../kernel/registry-port.ts';

/** Most numbers in one document details lookup (spec document 3, section 8). */
export const MAX_DOCUMENT_DETAILS = 10;

/** A document as the registry records it, with the record it was lodged against. */
export interface RegistryDocumentDetails extends RegistryDocument {
  subject: RegistryDocumentSubject;
}

export interface RegistryBusinessNameHolder {
  party: RegistryParty;
  /** The holder's ABN: the Act records one for every holder. */
  abn: string | null;
}

/** A number a state or territory gave the name before the national register took over in 2012. */
export interface RegistryStateRegistration {
  number: string;
  /** jurisdictions code: NSW, VIC, QLD… */
  jurisdiction: string;
}

export interface RegistryBusinessName {
  /** The registry's number for the name (number type NUMBER). */
  number: string;
  name: string;
  /** organisation-statuses code: REGD, CNCL, REXP, ARCH or RMVD. */
  status: string;
  registeredAt: IsoDate | null;
  /** The end of the current registration period (one or three years); null once cancelled. */
  renewalDueAt: IsoDate | null;
  cancelledAt: IsoDate | null;
  holders: RegistryBusinessNameHolder[];
  principalPlaceOfBusiness: RegistryPartialAddress | null;
  stateRegistrations: RegistryStateRegistration[];
}

/**
 * Which business names to find: by the registry's number, or by a pre-2012 state number with its
 * jurisdiction. One kind only.
 */
export interface BusinessNameQuery {
  number: string | null;
  stateNumber: string | null;
  jurisdiction: string | null;
}

export interface RegistryNameReservation {
  number: string;
  name: string;
  /** organisation-statuses code: REGD while reserved, CNCL once lapsed or given up. */
  status: string;
  /** The kind of company the name is reserved for; null for a company changing its name. */
  reservedFor: { type: string; class: string | null } | null;
  /** The company that reserved the name to change to it; null for a new company. */
  company: RegistryCompany | null;
  reservedAt: IsoDate;
  expiresAt: IsoDate;
  /** The form 410 that reserved the name, or the 410F that last extended it. */
  sourceDocument: RegistrySourceDocument & { formCode: string };
}

export interface RecordsRegistry {
  /**
   * Free: up to `MAX_DOCUMENT_DETAILS` documents, in the order asked, all or nothing. Rejects DD01
   * (a number is not nine characters starting with a digit), DD02 (a number twice) and DD51 (no
   * such document), each with `details.documentNumber`; DD52 when a document is not in the
   * imaging system and the registry will not describe it.
   */
  getDocumentDetails(numbers: readonly string[], caller: RegistryCaller): Promise<RegistryDocumentDetails[]>;
  /**
   * Free: the business names with this number (one) or this state number (one or more). Rejects
   * CD05 (both kinds given), CD06 (a state number without a jurisdiction), CD08 (unknown number)
   * and CD09 (unknown state number).
   */
  findBusinessNames(query: BusinessNameQuery, caller: RegistryCaller): Promise<RegistryBusinessName[]>;
  /** Free: one name reservation. Rejects CE03 when no reservation (no RSVN organisation) has the number. */
  getNameReservation(number: string, caller: RegistryCaller): Promise<RegistryNameReservation>;
}

export const recordsRegistryMethods = methodsOf<RecordsRegistry>()([
  'getDocumentDetails',
  'findBusinessNames',
  'getNameReservation',
]);

/** This capability's part of the registry port (shared/app/registry.ts). */
declare module '../kernel/registry-port.ts' {
  interface RegistryParts {
    records: RecordsRegistry;
  }
}
