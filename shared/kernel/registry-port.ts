/**
 * What every capability of the registry port shares: the rejection, dates, the caller, the
 * records (organisations, parties, addresses, documents, charges) and `methodsOf`, which lists a
 * capability's methods at run time (the adapters compose their parts by these lists, and
 * test/unit/registry-protocol.test.ts checks the operation table against them).
 *
 * Values are the registry's raw codes (`'APTY'`, `'SATF'`…); presenters turn them into
 * `{code, label}` with the code tables, so an unknown code still shows (label = code).
 */

const REJECTION = Symbol.for('company-register.RegistryRejection');

/**
 * A registry rejection: its code (`CE03`, `ZZ51`…) is mapped through the error catalogue.
 * `instanceof` holds by brand, not by class identity: a Lambda function's sandbox is a file of its
 * own with its own copy of this class (shared/composition/registry/registries.ts).
 */
export class RegistryRejection extends Error {
  readonly registryCode: string;
  readonly details: Record<string, unknown> | undefined;
  readonly [REJECTION] = true;
  constructor(registryCode: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'RegistryRejection';
    this.registryCode = registryCode;
    this.details = details;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' && value !== null && (value as { [REJECTION]?: unknown })[REJECTION] === true
    );
  }
}

/** Dates are `YYYY-MM-DD`; timestamps are RFC 3339 UTC. */
export type IsoDate = string;
export type IsoTimestamp = string;

/** Who the call is for: the registry keeps the account's products and bills the live ones. */
export interface RegistryCaller {
  accountId: string;
  /** Our request id, sent to the registry as its client reference for reconciliation. */
  requestId: string;
  clientReference?: string | null;
}

/**
 * The methods of a capability interface `T`, as a run-time list: the compiler refuses a list that
 * misses one (or names one `T` does not have).
 */
export const methodsOf =
  <T>() =>
  <const L extends readonly (keyof T & string)[]>(
    methods: L &
      ([Exclude<keyof T, L[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, L[number]> }),
  ): L =>
    methods;

/**
 * The registry port's parts, by capability: each capability of the port adds its interface here by
 * module augmentation in its `registry-port.ts` (as `CapabilityOwnPorts` is filled), so the whole
 * port's type (`Registry`, shared/app/registry.ts) is derived and names no capability.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each capability's augmentation
export interface RegistryParts {}

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

/** What a search result, a register entry or a business name shows of a place. */
export type RegistryPartialAddress = Pick<RegistryAddress, 'locality' | 'state' | 'postcode' | 'country'>;

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

/** The record a document was lodged against: an organisation, a person, or neither (business names, registers). */
export type RegistryDocumentSubject =
  | { type: 'organisation'; company: RegistryCompany }
  | { type: 'person'; name: RegistryPersonName }
  | { type: 'other' };

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

/** Company name searches: the scopes and a match (the companies capability's port uses them). */
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

/** The personal name index's records (the people capability's port uses them). */
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
