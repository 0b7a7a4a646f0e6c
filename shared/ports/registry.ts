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
  ): Promise<RegistryPersonExtract>;
}

/**
 * The whole registry, one small interface per capability. Later capabilities add theirs beside
 * these: documents and image requests (DD/DI), professional registers (RP/RQ/RS…), weekly
 * summaries (WS) and offline searches. Adapters implement the parts they serve.
 */
export type Registry = CompanyRegistry & PeopleRegistry;
