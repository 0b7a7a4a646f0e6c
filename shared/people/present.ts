/**
 * Registry people records → the API's shapes (document 1, section 2.6).
 */

import {
  coded,
  personName,
  presentAddress,
  presentCompanySummary,
  presentDocument,
} from '../companies/present.ts';
import { personExtractProduct } from '../companies/products.ts';
import type { StoredExtract } from '../extracts/store-port.ts';
import type { HandlerResult } from '../kernel/http/handler-types.ts';
import { MEMBER_ROLE } from '../kernel/registry-ordering.ts';
import type {
  RegistryLicence,
  RegistryPersonExtract,
  RegistryPersonMatch,
  RegistryPersonNotice,
  RegistryPersonRole,
  RegistryShareholding,
} from './registry-port.ts';

/** The personMatch object: a person as a search found them, under that search's `prs_` id. */
export const presentPersonMatch = (id: string, match: RegistryPersonMatch) => ({
  object: 'person' as const,
  id,
  name: personName(match.name),
  birth: match.birth,
  formerName: match.formerName ? personName(match.formerName) : null,
});

export function presentRole(record: RegistryPersonRole) {
  return {
    object: 'role' as const,
    role:
      record.role === MEMBER_ROLE
        ? coded('person-additional-roles', record.role)
        : coded('office-holder-roles', record.role),
    status: coded('record-status', record.status),
    appointedAt: record.appointedAt,
    ceasedAt: record.ceasedAt,
    company: {
      ...presentCompanySummary(record.company),
      // In a person's roles the flag marks directorships of registered charities only.
      registeredCharity: record.role === 'DR' && record.company.registeredCharity,
    },
    address: record.address ? presentAddress(record.address) : null,
    sourceDocument: record.sourceDocument,
  };
}

export const presentLicence = (record: RegistryLicence) => ({
  object: 'licence' as const,
  type: coded('person-licence-roles', record.type),
  status: coded('record-status', record.status),
  licenceNumber: record.licenceNumber,
  licenceStatus: coded('licence-statuses', record.licenceStatus),
  from: record.from,
  to: record.to,
  address: record.address ? presentAddress(record.address) : null,
  sourceDocument: record.sourceDocument,
});

export const presentShareholding = (record: RegistryShareholding) => ({
  object: 'shareholding' as const,
  company: presentCompanySummary(record.company),
  classCode: record.classCode,
  classDescription: record.classDescription,
  status: coded('record-status', record.status),
  sharesHeld: record.sharesHeld,
  fullyPaid: record.fullyPaid,
  beneficiallyHeld: record.beneficiallyHeld,
  sourceDocument: record.sourceDocument,
});

const presentNotice = (notice: RegistryPersonNotice) => ({
  type: notice.type,
  acn: notice.acn,
  text: notice.text,
});

export const personSectionNames = ['roles', 'licences', 'shareholdings', 'documents', 'notices'] as const;
export type PersonSectionName = (typeof personSectionNames)[number];

/**
 * A person extract is stored as one section, `person`: the summary and every list. It is small
 * next to a company extract, and one item instead of six keeps a 100-person purchase's writes down.
 */
export const PERSON_SECTION = 'person';

export interface StoredPersonExtract extends Record<PersonSectionName, unknown[]> {
  summary: Record<string, unknown>;
}

/** What is stored for a bought extract, in API shape; documents show no status or price. */
export function personExtractToStore(
  summary: Record<string, unknown>,
  extract: RegistryPersonExtract,
): StoredPersonExtract {
  return {
    summary,
    roles: extract.roles.map(presentRole),
    licences: extract.licences.map(presentLicence),
    shareholdings: extract.shareholdings.map(presentShareholding),
    documents: extract.documents.map((document) => ({
      ...presentDocument(document),
      status: null,
      priced: null,
    })),
    notices: extract.notices.map(presentNotice),
  };
}

/** The person extract object from what was stored. */
export const presentPersonExtract = ({ summary, ...lists }: StoredPersonExtract) => ({
  ...summary,
  ...Object.fromEntries(personSectionNames.map((name) => [name, lists[name]])),
});

/** A stored person extract: everything is in its one section. */
export const presentStoredPersonExtract = ({ sections }: Pick<StoredExtract, 'sections'>) =>
  presentPersonExtract(sections[PERSON_SECTION] as StoredPersonExtract);

/** A batch purchase's response: one extract per person in the order asked, each with the shared meta. */
export function presentPersonExtractList(
  searchId: string,
  extracts: Record<string, unknown>[],
  billable: boolean,
  requestId: string,
): HandlerResult {
  const meta = { billable, product: personExtractProduct.product, requestId };
  return {
    body: {
      object: 'list',
      searchId,
      data: extracts.map((extract) => ({ ...extract, meta })),
      hasMore: false,
      nextCursor: null,
      totalCount: extracts.length,
    },
    billable,
    quantity: extracts.length,
  };
}
