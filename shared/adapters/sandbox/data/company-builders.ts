/**
 * Builders of register records: check digits, dates, addresses, parties, office holders, share
 * classes, members, relationships, organisations, documents and charges. The sandbox cases
 * (sandbox-data.ts) and the simulator's generated organisations (local/generated-data.ts) are
 * made with them.
 */

import { addDays } from '../../../kernel/calendar-days.ts';
import { isValidAbn } from '../../../kernel/identifiers.ts';
import type {
  IsoDate,
  RegistryAddress,
  RegistryAddressRecord,
  RegistryCharge,
  RegistryCompany,
  RegistryDocument,
  RegistryMember,
  RegistryOfficeholder,
  RegistryParty,
  RegistryRelationship,
  RegistryShareClass,
  RegistrySourceDocument,
} from '../../../kernel/registry-port.ts';

const ACN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 1];

/** The nine-digit number whose first eight digits are given, with its check digit. */
export function acnWithCheckDigit(eightDigits: string): string {
  if (!/^\d{8}$/.test(eightDigits)) throw new Error(`Expected eight digits, got ${eightDigits}`);
  const sum = ACN_WEIGHTS.reduce((total, weight, i) => total + weight * Number(eightDigits[i]), 0);
  return `${eightDigits}${(10 - (sum % 10)) % 10}`;
}

const ABN_WEIGHTS = [3, 5, 7, 9, 11, 13, 15, 17, 19];

/**
 * The ABN for an ACN: the smallest two-digit prefix (10 to 99) that passes the modulus-89 test.
 * The prefix adds (prefix - 10) to the weighted sum, so it is 10 plus what the ACN's digits lack
 * of a multiple of 89 (no search needed).
 */
export function abnForAcn(acn: string): string {
  if (!/^\d{9}$/.test(acn)) throw new Error(`Expected nine digits, got ${acn}`);
  const sum = ABN_WEIGHTS.reduce((total, weight, i) => total + weight * Number(acn[i]), 0);
  const abn = `${10 + ((89 - (sum % 89)) % 89)}${acn}`;
  if (!isValidAbn(abn)) throw new Error(`No ABN prefix for ${acn}`);
  return abn;
}

export const AUSTRALIA = 'AUSTRALIA';

export const australianAddress = (
  street: string,
  locality: string,
  state: string,
  postcode: string | null,
  extra: { careOf?: string; line1?: string } = {},
): RegistryAddress => ({
  careOf: extra.careOf ?? null,
  line1: extra.line1 ?? null,
  street,
  locality,
  state,
  postcode,
  country: AUSTRALIA,
});

export const overseasAddress = (street: string, locality: string, country: string): RegistryAddress => ({
  careOf: null,
  line1: null,
  street,
  locality,
  state: null,
  postcode: null,
  country,
});

export const person = (
  familyName: string,
  givenNames: string,
  birth: [date: IsoDate, locality: string, stateOrCountry: string] | null = null,
): RegistryParty => ({
  type: 'person',
  person: { familyName, givenNames: givenNames.split(' ') },
  birth: birth ? { date: birth[0], locality: birth[1], stateOrCountry: birth[2] } : null,
  organisation: null,
});

/** An organisation as a party; a firm that is not a company has no number. */
export const organisationParty = (
  organisation: Pick<RegistryCompany, 'name'> &
    Partial<Pick<RegistryCompany, 'number' | 'numberType' | 'abn'>>,
): RegistryParty => ({
  type: 'organisation',
  person: null,
  birth: null,
  organisation: {
    number: organisation.number ?? null,
    numberType: organisation.numberType ?? null,
    name: organisation.name,
    abn: organisation.abn ?? null,
  },
});

export const sourceOf = (document: RegistryDocument): RegistrySourceDocument => ({
  documentNumber: document.documentNumber,
  qualifier: document.qualifier,
});

export interface OfficeholderSpec {
  status?: string;
  appointedAt: IsoDate | null;
  ceasedAt?: IsoDate | null;
  address?: RegistryAddress | null;
  source?: RegistryDocument | null;
}

export const officeholder = (
  role: string,
  party: RegistryParty,
  spec: OfficeholderSpec,
): RegistryOfficeholder => ({
  role,
  status: spec.status ?? (spec.ceasedAt ? 'E' : 'C'),
  appointedAt: spec.appointedAt,
  ceasedAt: spec.ceasedAt ?? null,
  party,
  address: spec.address ?? null,
  sourceDocument: spec.source ? sourceOf(spec.source) : null,
});

export const addressRecord = (
  type: string,
  from: IsoDate,
  to: IsoDate | null,
  address: RegistryAddress,
  source: RegistryDocument,
): RegistryAddressRecord => ({
  type,
  status: to === null ? 'C' : 'E',
  from,
  to,
  address,
  sourceDocument: sourceOf(source),
});

export const shareClass = (
  classCode: string,
  description: string,
  status: string,
  sharesIssued: number,
  amountPaid: string,
  source: RegistryDocument,
): RegistryShareClass => ({
  classCode,
  description,
  status,
  sharesIssued,
  amountPaid,
  amountDue: '0.00',
  sourceDocument: sourceOf(source),
});

export const member = (
  classCode: string,
  status: string,
  party: RegistryParty,
  sharesHeld: number,
  source: RegistryDocument,
  beneficiallyHeld = true,
): RegistryMember => ({
  classCode,
  status,
  party,
  sharesHeld,
  fullyPaid: true,
  beneficiallyHeld,
  sourceDocument: sourceOf(source),
});

export const relationship = (
  role: string,
  company: RegistryCompany,
  appointedAt: IsoDate,
  ceasedAt: IsoDate | null = null,
): RegistryRelationship => ({ role, status: ceasedAt ? 'E' : 'C', appointedAt, ceasedAt, company });

const NUMBER_TYPES: Record<string, string> = {
  APTY: 'ACN',
  APUB: 'ACN',
  FNOS: 'ARBN',
  RACN: 'ARBN',
  MISM: 'ARSN',
};
const CLASSES: Record<string, string> = {
  APTY: 'LMSH',
  APUB: 'LMSH',
  FNOS: 'LMSH',
  RACN: 'LMGT',
  MISM: 'PROP',
};
const SUB_CLASSES: Record<string, string> = { APTY: 'PROP', APUB: 'ULST', FNOS: 'FXPT', RACN: 'RACA' };

/**
 * A company with the usual values for its type: number type, class, sub-class, governance (public
 * companies) and an ABN built from the number (ACN and ARBN holders; pass `abn: null` for none).
 */
export function organisation(
  spec: Pick<RegistryCompany, 'number' | 'name' | 'type' | 'status' | 'registeredAt'> &
    Partial<RegistryCompany>,
): RegistryCompany {
  const numberType = spec.numberType ?? NUMBER_TYPES[spec.type] ?? 'NUMBER';
  return {
    number: spec.number,
    numberType,
    name: spec.name,
    type: spec.type,
    class: spec.class === undefined ? (CLASSES[spec.type] ?? null) : spec.class,
    subClass: spec.subClass === undefined ? (SUB_CLASSES[spec.type] ?? null) : spec.subClass,
    status: spec.status,
    abn:
      spec.abn === undefined
        ? numberType === 'ACN' || numberType === 'ARBN'
          ? abnForAcn(spec.number)
          : null
        : spec.abn,
    registeredCharity: spec.registeredCharity ?? false,
    registeredAt: spec.registeredAt,
    governanceType:
      spec.governanceType === undefined ? (spec.type === 'APUB' ? 'C' : null) : spec.governanceType,
    schemeCategories: spec.schemeCategories ?? [],
    deregistration: spec.deregistration ?? null,
    formerNames: spec.formerNames ?? [],
    chargesExtractPages: 0,
  };
}

const DEFAULT_PAGES: Record<string, number> = {
  '201': 8,
  '309': 4,
  '312': 3,
  '350': 2,
  '388': 24,
  '402': 10,
  '484': 3,
  '505': 2,
  '5100': 12,
  '6010': 2,
};

export interface LodgeOptions {
  effectiveAt?: IsoDate | null;
  qualifier?: string;
  pageCount?: number;
  subForms?: [code: string, description: string][];
  imaged?: boolean;
  underRequisition?: boolean;
  xbrl?: boolean;
  priced?: boolean;
}

/**
 * The documents of one organisation, numbered from a sequence. `lodge` files a document in the
 * company's list; `lodgeForCharge` also files it there and returns the charge's copy, whose
 * status is null (spec 2.3: null in charges).
 */
export class DocumentBook {
  readonly documents: RegistryDocument[] = [];

  constructor(private readonly nextNumber: () => string) {}

  lodge(formCode: string, receivedAt: IsoDate, options: LodgeOptions = {}): RegistryDocument {
    const documentNumber = this.nextNumber();
    const document: RegistryDocument = {
      documentNumber,
      formCode,
      subForms: (options.subForms ?? []).map(([code, description]) => ({ code, description })),
      receivedAt,
      processedAt: addDays(receivedAt, 2),
      effectiveAt: options.effectiveAt === undefined ? receivedAt : options.effectiveAt,
      qualifier: options.qualifier ?? null,
      pageCount: options.pageCount ?? DEFAULT_PAGES[formCode] ?? 2,
      imaged: options.imaged ?? true,
      underRequisition: options.underRequisition ?? false,
      xbrlDocumentNumber: options.xbrl ? `${documentNumber[0]}X${documentNumber.slice(2)}` : null,
      status: 'PROCESSED',
      priced: options.priced ?? true,
    };
    this.documents.push(document);
    return document;
  }

  lodgeForCharge(formCode: string, receivedAt: IsoDate, options: LodgeOptions = {}): RegistryDocument {
    return { ...this.lodge(formCode, receivedAt, options), status: null };
  }
}

export interface ChargeSpec {
  chargeNumber: string;
  status: string;
  type: string | null;
  registeredAt: string | null;
  createdAt: IsoDate | null;
  expiresAt?: IsoDate | null;
  satisfiedAt: IsoDate | null;
  preAsicChargeNumber?: string | null;
  chargees: RegistryParty[];
  documents: RegistryDocument[];
}

export const charge = (company: RegistryCompany, spec: ChargeSpec): RegistryCharge => ({
  chargeNumber: spec.chargeNumber,
  company,
  status: spec.status,
  type: spec.type,
  registeredAt: spec.registeredAt,
  createdAt: spec.createdAt,
  expiresAt: spec.expiresAt ?? null,
  satisfiedAt: spec.satisfiedAt,
  preAsicChargeNumber: spec.preAsicChargeNumber ?? null,
  chargees: spec.chargees,
  documents: spec.documents,
});

export interface ChargeSeriesSpec {
  count: number;
  /** Charge numbers count up from this one. */
  firstChargeNumber: number;
  /** When the first security instrument was made; each next one `everyDays` later. */
  firstCreatedAt: IsoDate;
  everyDays: number;
  /** Pages of each charge's notification (309), stamp duty certificate (350, none when 0) and discharge (312). */
  pages: readonly [notification: number, stampDuty: number, discharge: number];
  chargee: RegistryParty;
}

/** Satisfied charges that all look alike, filed in `book`: for extracts of a chosen size. */
export function chargeSeries(
  company: RegistryCompany,
  book: DocumentBook,
  spec: ChargeSeriesSpec,
): RegistryCharge[] {
  const [notification, stampDuty, discharge] = spec.pages;
  return Array.from({ length: spec.count }, (_, n) => {
    const createdAt = addDays(spec.firstCreatedAt, n * spec.everyDays);
    const registeredOn = addDays(createdAt, 3);
    const satisfiedAt = addDays(createdAt, 1200);
    const documents = [book.lodgeForCharge('309', registeredOn, { pageCount: notification })];
    if (stampDuty > 0)
      documents.push(book.lodgeForCharge('350', addDays(registeredOn, 2), { pageCount: stampDuty }));
    documents.push(book.lodgeForCharge('312', addDays(satisfiedAt, 4), { pageCount: discharge }));
    return charge(company, {
      chargeNumber: String(spec.firstChargeNumber + n),
      status: 'SATF',
      type: n % 2 === 0 ? 'F' : 'B',
      registeredAt: `${registeredOn}T1${n % 10}:${String((n * 7) % 60).padStart(2, '0')}:00Z`,
      createdAt,
      satisfiedAt,
      chargees: [spec.chargee],
      documents,
    });
  });
}
