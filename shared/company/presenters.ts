/**
 * Registry records → the API's shapes (document 1, section 2). Codes become `{code, label}`
 * from the code tables; a code no table knows keeps label = code.
 */
import { formatNineDigit } from '../domain/identifiers.ts';
import type {
  RegistryAddress,
  RegistryAddressRecord,
  RegistryCharge,
  RegistryCompany,
  RegistryCompanyExtract,
  RegistryCompanyMatch,
  RegistryDocument,
  RegistryExternalAdministration,
  RegistryMember,
  RegistryOfficeholder,
  RegistryParty,
  RegistryPersonName,
  RegistryRelationship,
  RegistryShareClass,
} from '../ports/registry.ts';
import { labelFor } from '../reference/code-tables.ts';
import { forms } from '../reference/forms.ts';

export interface Coded {
  code: string;
  label: string;
}

export const coded = (table: string, code: string): Coded => ({ code, label: labelFor(table, code) });
export const codedOrNull = (table: string, code: string | null): Coded | null =>
  code === null ? null : coded(table, code);

const formDescriptions = new Map(forms.map((form) => [form.formCode, form.description]));

/**
 * Business names and name reservations are organisations to the register (the company search and
 * lookup answer them), with lookups of their own: their summary names it in `detailsPath`.
 */
const RECORD_PATHS: Readonly<Record<string, string>> = {
  BUSN: '/v1/business-names',
  RSVN: '/v1/name-reservations',
};

/** The company summary embedded in charges, relationships and matches (document 1, 2.2). */
export function presentCompanySummary(
  company: Pick<
    RegistryCompany,
    'number' | 'numberType' | 'name' | 'type' | 'status' | 'abn' | 'registeredCharity' | 'schemeCategories'
  >,
) {
  const summary = {
    acn: company.number as string | null,
    formatted: formatNineDigit(company.number),
    numberType: coded('number-types', company.numberType),
    name: company.name,
    type: coded('organisation-types', company.type),
    status: coded('organisation-statuses', company.status),
    abn: company.abn,
    registeredCharity: company.registeredCharity,
  };
  const recordPath = RECORD_PATHS[company.type];
  if (recordPath) return { ...summary, detailsPath: `${recordPath}/${company.number}` };
  if (company.type !== 'MISM') return summary;
  return {
    ...summary,
    id: company.number,
    arsn: company.number,
    acn: null,
    schemeCategories: company.schemeCategories.map((code) => coded('scheme-categories', code)),
  };
}

/** The full company object: lookup responses and the `company` of a company extract. */
export function presentCompany(company: RegistryCompany) {
  return {
    object: 'company' as const,
    ...presentCompanySummary(company),
    class: codedOrNull('organisation-classes', company.class),
    subClass: codedOrNull('organisation-sub-classes', company.subClass),
    registeredAt: company.registeredAt,
    governanceType: codedOrNull('governance-types', company.governanceType),
    schemeCategories: company.schemeCategories.map((code) => coded('scheme-categories', code)),
    deregistration: company.deregistration
      ? {
          date: company.deregistration.date,
          reason: coded('deregistration-reasons', company.deregistration.reason),
        }
      : null,
    formerNames: company.formerNames,
  };
}

export const personName = (name: RegistryPersonName) => ({
  familyName: name.familyName,
  givenNames: name.givenNames,
  formatted: [...name.givenNames, name.familyName].join(' '),
});

export function presentParty(party: RegistryParty) {
  return {
    type: party.type,
    person: party.person ? personName(party.person) : null,
    birth: party.birth,
    organisation: party.organisation
      ? {
          number: party.organisation.number,
          numberType: codedOrNull('number-types', party.organisation.numberType),
          name: party.organisation.name,
          abn: party.organisation.abn,
        }
      : null,
  };
}

export const presentAddress = (address: RegistryAddress) => ({ ...address });

export function presentDocument(document: RegistryDocument) {
  return {
    object: 'document' as const,
    documentNumber: document.documentNumber,
    formCode: document.formCode,
    formDescription: formDescriptions.get(document.formCode) ?? document.formCode,
    subForms: document.subForms,
    receivedAt: document.receivedAt,
    processedAt: document.processedAt,
    effectiveAt: document.effectiveAt,
    qualifier: document.qualifier,
    pageCount: document.pageCount,
    imaged: document.imaged,
    underRequisition: document.underRequisition,
    xbrlAvailable: document.xbrlDocumentNumber !== null,
    xbrlDocumentNumber: document.xbrlDocumentNumber,
    status: document.status,
    priced: document.priced,
  };
}

export function presentOfficeholder(record: RegistryOfficeholder) {
  return {
    object: 'officeholder' as const,
    role: coded('office-holder-roles', record.role),
    status: coded('record-status', record.status),
    appointedAt: record.appointedAt,
    ceasedAt: record.ceasedAt,
    party: presentParty(record.party),
    address: record.address ? presentAddress(record.address) : null,
    sourceDocument: record.sourceDocument,
  };
}

export function presentAddressRecord(record: RegistryAddressRecord) {
  return {
    object: 'address' as const,
    type: coded('address-types', record.type),
    status: coded('record-status', record.status),
    from: record.from,
    to: record.to,
    address: presentAddress(record.address),
    sourceDocument: record.sourceDocument,
  };
}

export const presentShareClass = (record: RegistryShareClass) => ({
  object: 'shareClass' as const,
  classCode: record.classCode,
  description: record.description,
  status: coded('record-status', record.status),
  sharesIssued: record.sharesIssued,
  amountPaid: record.amountPaid,
  amountDue: record.amountDue,
  sourceDocument: record.sourceDocument,
});

export const presentMember = (record: RegistryMember) => ({
  object: 'member' as const,
  classCode: record.classCode,
  status: coded('record-status', record.status),
  party: presentParty(record.party),
  sharesHeld: record.sharesHeld,
  fullyPaid: record.fullyPaid,
  beneficiallyHeld: record.beneficiallyHeld,
  sourceDocument: record.sourceDocument,
});

export function presentCharge(charge: RegistryCharge) {
  return {
    object: 'charge' as const,
    chargeNumber: charge.chargeNumber,
    company: presentCompanySummary(charge.company),
    status: coded('charge-statuses', charge.status),
    type: codedOrNull('charge-types', charge.type),
    registeredAt: charge.registeredAt,
    createdAt: charge.createdAt,
    expiresAt: charge.expiresAt,
    satisfiedAt: charge.satisfiedAt,
    preAsicChargeNumber: charge.preAsicChargeNumber,
    chargees: charge.chargees.map((party) => ({ party: { ...presentParty(party), birth: null } })),
    documents: charge.documents.map((document) => ({ ...presentDocument(document), status: null })),
  };
}

export const presentExternalAdministration = (section: RegistryExternalAdministration) => ({
  appointees: section.appointees.map(presentOfficeholder),
  documents: section.documents.map(presentDocument),
});

export const presentRelationship = (record: RegistryRelationship) => ({
  object: 'relationship' as const,
  role: coded('company-roles', record.role),
  status: coded('record-status', record.status),
  appointedAt: record.appointedAt,
  ceasedAt: record.ceasedAt,
  company: presentCompanySummary(record.company),
});

/** Australian: locality, state, postcode; overseas: locality, country (document 1, 2.3). */
/** The partial address of search results (document 1, 2.3). */
export function partialAddress(address: RegistryCompanyMatch['address']) {
  if (!address) return null;
  return address.country === 'AUSTRALIA'
    ? { locality: address.locality, state: address.state, postcode: address.postcode }
    : { locality: address.locality, country: address.country };
}

export function presentCompanyMatch(match: RegistryCompanyMatch) {
  return {
    object: 'companyMatch' as const,
    ...presentCompanySummary(match.company),
    matchedName: match.matchedName,
    nameStatus: match.nameStatus,
    score: match.score,
    address: partialAddress(match.address),
  };
}

/** Which sections each extract type holds; the others are null in the extract object. */
export const sectionsByType = {
  current: ['officeholders', 'addresses', 'shareStructure', 'documents', 'externalAdministration'],
  historical: [
    'officeholders',
    'addresses',
    'shareStructure',
    'documents',
    'externalAdministration',
    'charges',
  ],
  relational: ['relationships'],
} as const;

export type CompanySectionName =
  | 'officeholders'
  | 'addresses'
  | 'shareStructure'
  | 'documents'
  | 'externalAdministration'
  | 'charges'
  | 'relationships';

/** The stored sections of a company extract, already in API shape. */
export function presentCompanySections(extract: RegistryCompanyExtract): Record<string, unknown> {
  const all: Record<CompanySectionName, unknown> = {
    officeholders: extract.officeholders.map(presentOfficeholder),
    addresses: {
      records: extract.addresses.map(presentAddressRecord),
      contactAddress: extract.contactAddress ? presentAddressRecord(extract.contactAddress) : null,
    },
    shareStructure: {
      shareClasses: extract.shareClasses.map(presentShareClass),
      members: extract.members.map(presentMember),
    },
    documents: extract.documents.map(presentDocument),
    externalAdministration: extract.externalAdministration
      ? presentExternalAdministration(extract.externalAdministration)
      : null,
    charges: extract.charges.map(presentCharge),
    relationships: extract.relationships.map(presentRelationship),
  };
  return Object.fromEntries(sectionsByType[extract.type].map((name) => [name, all[name]]));
}

const SUMMARY_FIELDS = [
  'acn',
  'formatted',
  'numberType',
  'name',
  'type',
  'status',
  'abn',
  'registeredCharity',
];
const SCHEME_FIELDS = ['id', 'arsn', 'schemeCategories'];

/** The summary part of a presented full company object (for a stored extract's company). */
export function summaryOfCompany(company: Record<string, unknown>): Record<string, unknown> {
  const isScheme = (company.type as Coded | undefined)?.code === 'MISM';
  const fields = isScheme ? [...SUMMARY_FIELDS, ...SCHEME_FIELDS] : SUMMARY_FIELDS;
  return Object.fromEntries(fields.map((field) => [field, company[field]]));
}
