/**
 * Products, their statutory fee codes (document 1, 2.9 mapping table) and which organisation
 * types each company product exists for.
 */
import type { CompanyExtractType } from './registry-port.ts';

export const companyExtractProducts = {
  current: { product: 'company_extract_current', feeCode: '955A' },
  historical: { product: 'company_extract_historical', feeCode: '955A' },
  relational: { product: 'company_relationships', feeCode: '955B' },
} as const satisfies Record<CompanyExtractType, { product: string; feeCode: string }>;

const EXTRACT_TYPES = ['APTY', 'APUB', 'RACN', 'FNOS', 'MISM'];
const RELATIONAL_TYPES = ['APTY', 'APUB', 'FNOS', 'RACN'];
const CHARGES_TYPES = ['APTY', 'APUB', 'RACN', 'FNOS'];

/** Organisation types each company product is sold for; anything else is `extract_unavailable_for_type`. */
export const organisationTypesFor = {
  current: EXTRACT_TYPES,
  historical: EXTRACT_TYPES,
  relational: RELATIONAL_TYPES,
  charges: CHARGES_TYPES,
} as const satisfies Record<CompanyExtractType | 'charges', readonly string[]>;

export const productAvailableFor = (product: keyof typeof organisationTypesFor, organisationType: string) =>
  (organisationTypesFor[product] as readonly string[]).includes(organisationType);

/** One personal name extract: one fee per person, whatever the type or shareholdings. */
export const personExtractProduct = { product: 'person_extract', feeCode: '958' } as const;

/** Charges extract orders: 955E for the satisfied charges extract, 955C for pre-2012 current charges. */
export const chargesExtractProduct = {
  product: 'charges_extract',
  feeCodes: { satisfied: '955E', current: '955C' },
} as const;

/** Document image orders: the fee follows whose record the document was lodged against. */
export const documentImageProduct = {
  product: 'document_image',
  feeCodes: { organisation: '951', person: '954', other: '949' },
  /** Supplementary documents (form 902) come free with an image order. */
  freeFormCode: '902',
} as const;

/** Offline name searches, billed at acceptance (online searches are free). */
export const offlineSearchProduct = { product: 'name_search', feeCode: '934' } as const;

/** Weekly summaries: one fee code per type (930C, the charges register summary, is no longer produced). */
export const weeklySummaryProduct = {
  product: 'weekly_summary',
  feeCodes: {
    'new-registrations': '930A',
    'name-changes': '930B',
    'external-administrations': '930D',
    'licences-granted': '930E',
    'disqualified-directors': '930F',
    'new-schemes': '930G',
  },
} as const;
