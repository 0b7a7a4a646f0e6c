/** The companies capability: organisation lookups, name searches, company extracts, charges. */
import {
  type CompanySearchScope,
  type IsoTimestamp,
  methodsOf,
  type RegistryAddressRecord,
  type RegistryCaller,
  type RegistryCharge,
  type RegistryCompany,
  type RegistryCompanyMatch,
  type RegistryDocument,
  type RegistryExternalAdministration,
  type RegistryMember,
  type RegistryOfficeholder,
  type RegistryRelationship,
  type RegistryShareClass,
} from '../kernel/registry-port.ts';

// Search matches are records the sandbox's shared dataset builds too: kernel/registry-port.ts holds them.
export {
  type CompanySearchScope,
  companySearchScopes,
  type RegistryCompanyMatch,
} from '../kernel/registry-port.ts';

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
  /**
   * Free (base service, spec 2.9): the organisation's document list, newest first by received
   * date. Rejects CD01 (number invalid), CD07 (no organisation) and CD51 (its type has no
   * document list). Company monitoring's daily check reads it.
   */
  listCompanyDocuments(number: string, caller: RegistryCaller): Promise<RegistryDocument[]>;
}

export const companyRegistryMethods = methodsOf<CompanyRegistry>()([
  'getCompany',
  'getCompanyByAbn',
  'searchCompanies',
  'purchaseCompanyExtract',
  'getCharge',
  'listCompanyDocuments',
]);

/** This capability's part of the registry port (shared/app/registry.ts). */
declare module '../kernel/registry-port.ts' {
  interface RegistryParts {
    companies: CompanyRegistry;
  }
}
