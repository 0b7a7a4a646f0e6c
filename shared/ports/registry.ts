/**
 * The registry port: every call the service makes to the national register goes through this
 * interface. Test keys are served by the sandbox registry (deterministic sample data, in
 * process); live keys by the HTTP registry adapter (the real registry, or the simulator locally).
 *
 * Values are the registry's raw codes (`'APTY'`, `'SATF'`…); presenters turn them into
 * `{code, label}` with the code tables, so an unknown code still shows (label = code).
 */

/** A registry rejection: its code (`CE03`, `ZZ51`…) is mapped through the error catalogue. */
export class RegistryRejection extends Error {
  readonly registryCode: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(registryCode: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'RegistryRejection';
    this.registryCode = registryCode;
    this.details = details;
  }
}

/** Dates are `YYYY-MM-DD`; timestamps are RFC 3339 UTC. */
export type IsoDate = string;
export type IsoTimestamp = string;

export interface RegistryCompany {
  /** Nine digits: the ACN, ARBN or ARSN as issued. */
  number: string;
  /** number-types code: ACN, ARBN, NUMBER, ARSN. */
  numberType: string;
  name: string;
  /** organisation-types code. */
  type: string;
  /** organisation-classes code. */
  class: string | null;
  /** organisation-sub-classes code. */
  subClass: string | null;
  /** organisation-statuses code. */
  status: string;
  abn: string | null;
  registeredCharity: boolean;
  registeredAt: IsoDate | null;
  /** governance-types code; public companies only. */
  governanceType: string | null;
  /** scheme-categories codes; empty for companies. */
  schemeCategories: string[];
  /** Set when deregistered (or cancelled); `reason` is a deregistration-reasons code. */
  deregistration: { date: IsoDate; reason: string } | null;
  formerNames: { name: string; from: IsoDate | null; to: IsoDate }[];
  /** Pages in the image-based satisfied charges extract (orders pick `small` or `large`). */
  chargesExtractPages: number;
}

export interface RegistryAddress {
  careOf: string | null;
  line1: string | null;
  street: string;
  locality: string;
  state: string | null;
  postcode: string | null;
  country: string;
}

export interface RegistrySourceDocument {
  documentNumber: string;
  qualifier: string | null;
}

export interface RegistryPersonName {
  familyName: string;
  givenNames: string[];
}

export interface RegistryBirth {
  date: IsoDate | null;
  locality: string | null;
  stateOrCountry: string | null;
}

export interface RegistryOrganisationRef {
  number: string | null;
  numberType: string | null;
  name: string;
  abn: string | null;
}

export interface RegistryParty {
  type: 'person' | 'organisation';
  person: RegistryPersonName | null;
  birth: RegistryBirth | null;
  organisation: RegistryOrganisationRef | null;
}

export interface RegistryOfficeholder {
  /** office-holder-roles code. */
  role: string;
  /** record-status code: C, E or F. */
  status: string;
  appointedAt: IsoDate | null;
  ceasedAt: IsoDate | null;
  party: RegistryParty;
  address: RegistryAddress | null;
  sourceDocument: RegistrySourceDocument | null;
}

export interface RegistryAddressRecord {
  /** address-types code: RG, RP, PA, RO or CC. */
  type: string;
  status: string;
  from: IsoDate;
  to: IsoDate | null;
  address: RegistryAddress;
  sourceDocument: RegistrySourceDocument;
}

export interface RegistryShareClass {
  /** The company's own class code, for example ORD. */
  classCode: string;
  description: string;
  status: string;
  sharesIssued: number;
  amountPaid: string;
  amountDue: string;
  sourceDocument: RegistrySourceDocument;
}

export interface RegistryMember {
  classCode: string;
  status: string;
  party: RegistryParty;
  sharesHeld: number;
  fullyPaid: boolean;
  beneficiallyHeld: boolean;
  sourceDocument: RegistrySourceDocument;
}

export interface RegistryDocument {
  documentNumber: string;
  formCode: string;
  subForms: { code: string; description: string }[];
  receivedAt: IsoDate;
  processedAt: IsoDate;
  effectiveAt: IsoDate | null;
  qualifier: string | null;
  pageCount: number;
  imaged: boolean;
  underRequisition: boolean;
  xbrlDocumentNumber: string | null;
  status: string | null;
  priced: boolean | null;
}

export interface RegistryCharge {
  chargeNumber: string;
  company: RegistryCompany;
  /** charge-statuses code: SATF or DELT. */
  status: string;
  /** charge-types code: X, F, B. */
  type: string | null;
  registeredAt: IsoTimestamp | null;
  createdAt: IsoDate | null;
  expiresAt: IsoDate | null;
  satisfiedAt: IsoDate | null;
  preAsicChargeNumber: string | null;
  chargees: RegistryParty[];
  /** Notification first, discharge last. */
  documents: RegistryDocument[];
}

export interface RegistryExternalAdministration {
  /** Appointees (office-holder roles such as AC, AD, AQ, RC) with the lodged notices. */
  appointees: RegistryOfficeholder[];
  documents: RegistryDocument[];
}

export interface RegistryRelationship {
  /** company-roles code: the role this company holds in the other organisation. */
  role: string;
  status: string;
  appointedAt: IsoDate | null;
  ceasedAt: IsoDate | null;
  company: RegistryCompany;
}

export const companyExtractTypes = ['current', 'historical', 'relational'] as const;
export type CompanyExtractType = (typeof companyExtractTypes)[number];

/**
 * What the registry returns for a company extract purchase. Current extracts hold current
 * records only (status C or F) and no annual returns or financial reports; historical ones add
 * ceased records, every document and the charges; relational ones hold the relationships only.
 */
export interface RegistryCompanyExtract {
  type: CompanyExtractType;
  asOf: IsoTimestamp;
  company: RegistryCompany;
  officeholders: RegistryOfficeholder[];
  addresses: RegistryAddressRecord[];
  contactAddress: RegistryAddressRecord | null;
  shareClasses: RegistryShareClass[];
  members: RegistryMember[];
  documents: RegistryDocument[];
  externalAdministration: RegistryExternalAdministration | null;
  charges: RegistryCharge[];
  relationships: RegistryRelationship[];
}

export const companySearchScopes = ['current', 'all'] as const;
export type CompanySearchScope = (typeof companySearchScopes)[number];

export interface RegistryCompanyMatch {
  company: RegistryCompany;
  /** The name that matched: the current name, or a former one when scope is `all`. */
  matchedName: string;
  nameStatus: 'current' | 'former';
  /** 0–100; results are ordered by score, then name. */
  score: number;
  /** Partial address: locality, state, postcode (Australian) or locality, country (overseas). */
  address: { locality: string; state: string | null; postcode: string | null; country: string } | null;
}

/** Who the call is for: the registry keeps the account's products and bills the live ones. */
export interface RegistryCaller {
  accountId: string;
  /** Our request id, sent to the registry as its client reference for reconciliation. */
  requestId: string;
  clientReference?: string | null;
}

/**
 * What the registry knows of a billable call made with a client key (`findPurchase`): it finished
 * (and was billed once, whatever number of times it was repeated), is still running, or never
 * arrived or was refused (nothing billed).
 */
export type RegistryPurchaseOutcome =
  | { state: 'completed'; operation: string; result: unknown }
  | { state: 'pending' }
  | { state: 'none' };

/**
 * Every billable call carries our client key: the registry answers a repeat of the key with the
 * first call's outcome and bills nothing more, and can say later what became of it. So a lost
 * answer is retried safely, and a purchase whose answer never reached us is reconciled.
 */
export interface PurchaseReconciliation {
  /** Free. The outcome of the billable call made with this key, for this caller's account. */
  findPurchase(clientKey: string, caller: RegistryCaller): Promise<RegistryPurchaseOutcome>;
}

/** Company lookups, searches and extracts (this issue). */
export interface CompanyRegistry {
  /**
   * Free lookup of one organisation by its nine-digit number.
   * Rejects CE03 when no organisation has this number.
   */
  getCompany(number: string, caller: RegistryCaller): Promise<RegistryCompany>;
  /**
   * Free lookup by ABN. Rejects CE13 when no organisation has the ACN inside the ABN, CE12 when
   * that organisation has no ABN or a different one recorded.
   */
  getCompanyByAbn(abn: string, caller: RegistryCaller): Promise<RegistryCompany>;
  /**
   * Free online name search. At most 100 names are selected: more gives ON52 and none gives
   * ON51, both with `details.counts` {returned, found}.
   */
  searchCompanies(
    query: { name: string; scope: CompanySearchScope },
    caller: RegistryCaller,
  ): Promise<{ found: number; matches: RegistryCompanyMatch[] }>;
  /**
   * Billable purchase of a company extract. Rejects CE51/CR51 for organisation types without
   * the product, CR02 when a relational extract would be empty.
   */
  purchaseCompanyExtract(
    number: string,
    type: CompanyExtractType,
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<RegistryCompanyExtract>;
  /** Free lookup of one charge by number; CH01 when invalid or unknown. */
  getCharge(chargeNumber: string, caller: RegistryCaller): Promise<RegistryCharge>;
}

/** The registry sells no person extract for a name with more roles than this (PE51). */
export const MAX_ROLES_PER_NAME = 999;

export interface RegistryPersonMatch {
  /** The registry's stable name-record id: up to nine digits. */
  registryIdentifier: string;
  name: RegistryPersonName;
  birth: RegistryBirth | null;
  /** The name the person was known by before, when the registry records one. */
  formerName: RegistryPersonName | null;
  /**
   * Role records (office-holder and Member roles, current and ceased) held against the name.
   * Over 999 makes a person extract unavailable (PE51), so a batch can be refused before any
   * purchase.
   */
  roleCount: number;
}

export interface PeopleSearchQuery {
  /** Uppercase as typed by the caller: letters, hyphens, apostrophes and spaces. */
  familyName: string;
  /** One or more given names, space separated; each matches the start of the person's given name in that place. */
  givenName: string;
  birthDateFrom: IsoDate | null;
  birthDateTo: IsoDate | null;
}

/** A role the person holds or held in an organisation: an office-holder role, or `SH` (Member). */
export interface RegistryPersonRole {
  /** office-holder-roles code, or SH (person-additional-roles). */
  role: string;
  /** record-status code: C, E or F. */
  status: string;
  /** Null for Member roles. */
  appointedAt: IsoDate | null;
  ceasedAt: IsoDate | null;
  company: RegistryCompany;
  address: RegistryAddress | null;
  sourceDocument: RegistrySourceDocument | null;
}

export interface RegistryLicence {
  /** person-licence-roles code (BF, BS, DD, FL, RA…). */
  type: string;
  /** record-status code. */
  status: string;
  licenceNumber: string;
  /** licence-statuses code. */
  licenceStatus: string;
  from: IsoDate;
  to: IsoDate | null;
  address: RegistryAddress | null;
  sourceDocument: RegistrySourceDocument | null;
}

/** Shares the person holds in a proprietary company (the registry keeps the 20 largest holders per class). */
export interface RegistryShareholding {
  company: RegistryCompany;
  classCode: string;
  classDescription: string;
  /** record-status code. */
  status: string;
  sharesHeld: number;
  fullyPaid: boolean;
  beneficiallyHeld: boolean;
  sourceDocument: RegistrySourceDocument | null;
}

export interface RegistryPersonNotice {
  /** acnc_charity: a directorship of a registered charity; same_name: namesakes exist. */
  type: 'acnc_charity' | 'same_name';
  /** The company concerned (acnc_charity); null for same_name. */
  acn: string | null;
  text: string;
}

export interface PersonExtractOptions {
  /** True: current and ceased roles and licences (historical); false: current only. */
  history: boolean;
  /** True: shareholdings and Member (SH) roles too. */
  includeShareholdings: boolean;
}

/**
 * A personal name extract. Roles are in the registry's order (role display order; current before
 * ceased, ceased newest first; Member roles last); documents newest first.
 */
export interface RegistryPersonExtract {
  type: 'current' | 'historical';
  asOf: IsoTimestamp;
  person: RegistryPersonMatch;
  roles: RegistryPersonRole[];
  licences: RegistryLicence[];
  shareholdings: RegistryShareholding[];
  documents: RegistryDocument[];
  notices: RegistryPersonNotice[];
}

/** People searches and personal name extracts. */
export interface PeopleRegistry {
  /**
   * Free people search. Rejects PN01/PN02 (a name missing), PN03 (characters other than letters,
   * hyphens, apostrophes, spaces), PN05–PN07 (birth-date range: one end only or not a date, start
   * in the future, start after end), PN51 (nothing found) and PN52 (over 100 matches), the last
   * two with `details.counts` {returned, found}. `found` counts the names matched before the
   * birth-date range is applied.
   */
  searchPeople(
    query: PeopleSearchQuery,
    caller: RegistryCaller,
  ): Promise<{ found: number; matches: RegistryPersonMatch[] }>;
  /**
   * Billable purchase of one personal name extract (fee 958). Rejects RS02 when an option is not a
   * boolean, PE03 for an unknown identifier and PE51 when the name holds more than 999 roles.
   */
  purchasePersonExtract(
    registryIdentifier: string,
    options: PersonExtractOptions,
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<RegistryPersonExtract>;
}

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
  /** The record the document was lodged against: an organisation, a person, or neither (business names, registers). */
  subject:
    | { type: 'organisation'; company: RegistryCompany }
    | { type: 'person'; name: RegistryPersonName }
    | { type: 'other' };
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

/**
 * The whole registry, one small interface per capability. Later capabilities add theirs beside
 * these: professional registers (RP/RQ/RS…) and weekly summaries (WS). Adapters implement the
 * parts they serve.
 */
export type Registry = CompanyRegistry & PeopleRegistry & OrdersRegistry & PurchaseReconciliation;
