/**
 * The sandbox cases of the record lookups (docs/sandbox.md, "Documents, business names and name
 * reservations"): the documents to look up (most belong to the sandbox organisations), the
 * business names and the name reservations. Business names and reservations are organisations
 * of the register (BUSN, RSVN): `sandboxRecordOrganisations()` are joined to the sandbox
 * organisations, and `sandboxRecordsSource()` holds what the business names register and the
 * reservations add to them. HARBOUR LIGHTS CATERING (`SANDBOX.businessName`) is an organisation
 * of sandbox-data.ts; its business name facts are here.
 *
 * Numbers sit in the sandbox block, 990 003 0xx, and pass the check digit. Documents of these
 * organisations are numbered 9R + book + sequence. Nothing is built at import time.
 */

import { SANDBOX } from '../../adapters/sandbox/data/companies.ts';
import {
  abnForAcn,
  acnWithCheckDigit,
  addressRecord,
  australianAddress,
  DocumentBook,
  organisation,
  organisationParty,
  person,
} from '../../adapters/sandbox/data/company-builders.ts';
import { type CompanyRecord, companyRecord } from '../../adapters/sandbox/dataset.ts';
import type { RegistryParty } from '../../kernel/registry-port.ts';
import type { BusinessNameFacts, NameReservationFacts, RecordsSource } from './sandbox.ts';

const number = (sequence: number) => acnWithCheckDigit(`990003${String(sequence).padStart(2, '0')}`);
/** A valid ABN of no organisation in the register: a sole trader's or a partnership's. */
const soleTraderAbn = (sequence: number) =>
  abnForAcn(acnWithCheckDigit(`990004${String(sequence).padStart(2, '0')}`));

export const SANDBOX_RECORDS = {
  documents: {
    /** BLUEGUM ORCHARDS' 484 of 2016 with three sub-forms (484A1, 484E, 484G). */
    withSubForms: '9E0010007',
    /** BLUEGUM ORCHARDS' financial report 388, qualifier FR2014, with its XBRL document 9X0010005. */
    financialReport: '9E0010005',
    /** BLUEGUM ORCHARDS' 484 of 2025 effective in 2030: under requisition. */
    underRequisition: '9E0010015',
    /** ZENITH NOVELTY IMPORTS' form 9ZZ, which the form schedule does not know: formDescription 9ZZ. */
    unknownForm: '9E0170002',
    /** LYREBIRD ARCHIVES' 1984 form 201, never imaged: 200 with imaged false. */
    notImaged: SANDBOX.documents.notImaged,
    /** A 484 lodged against MICHAEL PATRICK O'BRIEN's name record only: subject person. */
    person: SANDBOX.documents.person,
    /** HARBOUR LIGHTS CATERING's BN01: a business name's document, subject other. */
    businessName: SANDBOX.documents.other,
    /** Nine characters starting with a digit, of no document: document_not_found (DD51). */
    unknown: SANDBOX.documents.unknown,
  },
  businessNames: {
    /** HARBOUR LIGHTS CATERING: registered 2009 in NSW (state number BN00731224), one holder. */
    stateRegistered: SANDBOX.businessName,
    /** BLUEGUM ORCHARD TOURS, held by BLUEGUM ORCHARDS PTY LTD (a sandbox company). */
    companyHeld: number(1),
    /** TWO RIVERS PLUMBING: a partnership of two holders. */
    partnership: number(2),
    /** SEASIDE SURF HIRE: cancelled (CNCL). */
    cancelled: number(3),
    /** OUTBACK LENS PHOTOGRAPHY: not renewed (REXP). */
    expired: number(4),
    /** WATTLE CREEK BAKERY: registered 2005 in QLD (state number BN2027148). */
    queensland: number(5),
    /** Passes the check digit; no business name has it (CD08). */
    unknown: SANDBOX.unknownNumber,
  },
  stateNumbers: {
    /** HARBOUR LIGHTS CATERING's NSW number. */
    nsw: { stateNumber: 'BN00731224', jurisdiction: 'NSW' },
    /** WATTLE CREEK BAKERY's QLD number. */
    qld: { stateNumber: 'BN2027148', jurisdiction: 'QLD' },
    /** A number no state gave a sandbox business name (CD09). */
    unknown: { stateNumber: 'BN99999999', jurisdiction: 'NSW' },
  },
  nameReservations: {
    /** KOOKABURRA LANE PTY LTD: reserved for a proprietary company limited by shares, extended by a 410F. */
    current: number(11),
    /** BILLABONG BREWING CO PTY LTD: lapsed (CNCL) after its two months. */
    lapsed: number(12),
    /** BLUEGUM ESTATE PTY LTD: reserved by BLUEGUM ORCHARDS PTY LTD to change its name. */
    changeOfName: number(13),
    /** Passes the check digit; no reservation has it (CE03). */
    unknown: SANDBOX.unknownNumber,
  },
  /** The name search that finds the current reservation (type RSVN). */
  reservationSearch: 'kookaburra lane',
} as const;

const bluegum: RegistryParty = organisationParty({
  number: SANDBOX.proprietary,
  numberType: 'ACN',
  name: 'BLUEGUM ORCHARDS PTY LTD',
  abn: SANDBOX.abnRecorded,
});

const recordsBook = (book: number): DocumentBook => {
  let sequence = 0;
  return new DocumentBook(() => `9R${String(book).padStart(3, '0')}${String(++sequence).padStart(4, '0')}`);
};

interface BusinessNameCase {
  facts: BusinessNameFacts;
  name: string;
  status: string;
  registeredAt: string;
  place: [street: string, locality: string, state: string, postcode: string];
  renewals?: readonly string[];
}

function businessNameCases(): BusinessNameCase[] {
  const names = SANDBOX_RECORDS.businessNames;
  return [
    {
      facts: {
        number: names.companyHeld,
        renewalDueAt: '2027-05-02',
        cancelledAt: null,
        holders: [{ party: bluegum, abn: SANDBOX.abnRecorded }],
        stateRegistrations: [],
      },
      name: 'BLUEGUM ORCHARD TOURS',
      status: 'REGD',
      registeredAt: '2016-05-02',
      place: ['14 ORCHARD ROAD', 'ORANGE', 'NSW', '2800'],
      renewals: ['2019-05-01', '2022-04-28', '2025-04-30'],
    },
    {
      facts: {
        number: names.partnership,
        renewalDueAt: '2028-08-19',
        cancelledAt: null,
        holders: [
          { party: person('KELLY', 'SEAN PATRICK'), abn: soleTraderAbn(2) },
          { party: person('NAKAMURA', 'YUKI'), abn: soleTraderAbn(2) },
        ],
        stateRegistrations: [],
      },
      name: 'TWO RIVERS PLUMBING',
      status: 'REGD',
      registeredAt: '2019-08-19',
      place: ['3 BRIDGE STREET', 'WAGGA WAGGA', 'NSW', '2650'],
      renewals: ['2022-08-15', '2025-08-18'],
    },
    {
      facts: {
        number: names.cancelled,
        renewalDueAt: null,
        cancelledAt: '2021-08-31',
        holders: [{ party: person('PEARCE', 'OLIVIA'), abn: soleTraderAbn(3) }],
        stateRegistrations: [],
      },
      name: 'SEASIDE SURF HIRE',
      status: 'CNCL',
      registeredAt: '2015-11-09',
      place: ['1 MARINE PARADE', 'COOLANGATTA', 'QLD', '4225'],
    },
    {
      facts: {
        number: names.expired,
        renewalDueAt: '2023-04-11',
        cancelledAt: null,
        holders: [{ party: person('ROSSI', 'MARCO'), abn: soleTraderAbn(4) }],
        stateRegistrations: [],
      },
      name: 'OUTBACK LENS PHOTOGRAPHY',
      status: 'REXP',
      registeredAt: '2020-04-11',
      place: ['27 TODD STREET', 'ALICE SPRINGS', 'NT', '0870'],
    },
    {
      facts: {
        number: names.queensland,
        renewalDueAt: '2027-01-30',
        cancelledAt: null,
        holders: [{ party: person('WALSH', 'BRIDGET ANNE'), abn: soleTraderAbn(5) }],
        stateRegistrations: [SANDBOX_RECORDS.stateNumbers.qld].map(({ stateNumber, jurisdiction }) => ({
          number: stateNumber,
          jurisdiction,
        })),
      },
      name: 'WATTLE CREEK BAKERY',
      status: 'REGD',
      registeredAt: '2005-06-20',
      place: ['9 MAIN STREET', 'MALENY', 'QLD', '4552'],
      renewals: ['2012-05-28', '2015-01-27', '2018-01-29', '2021-01-28', '2024-01-29'],
    },
  ];
}

/** HARBOUR LIGHTS CATERING's business name facts; its organisation is in sandbox-data.ts. */
const harbourLights: BusinessNameFacts = {
  number: SANDBOX.businessName,
  renewalDueAt: '2027-03-16',
  cancelledAt: null,
  holders: [{ party: person('MARCHETTI', 'LUCIA'), abn: soleTraderAbn(1) }],
  stateRegistrations: [
    {
      number: SANDBOX_RECORDS.stateNumbers.nsw.stateNumber,
      jurisdiction: SANDBOX_RECORDS.stateNumbers.nsw.jurisdiction,
    },
  ],
};

interface ReservationCase {
  facts: NameReservationFacts;
  name: string;
  status: string;
  reservedAt: string;
  extendedAt?: string;
}

function reservationCases(): ReservationCase[] {
  const reservations = SANDBOX_RECORDS.nameReservations;
  return [
    {
      facts: {
        number: reservations.current,
        reservedFor: { type: 'APTY', class: 'LMSH' },
        companyNumber: null,
        expiresAt: '2027-01-15',
      },
      name: 'KOOKABURRA LANE PTY LTD',
      status: 'REGD',
      reservedAt: '2026-09-15',
      extendedAt: '2026-11-10',
    },
    {
      facts: {
        number: reservations.lapsed,
        reservedFor: { type: 'APTY', class: 'LMSH' },
        companyNumber: null,
        expiresAt: '2024-04-01',
      },
      name: 'BILLABONG BREWING CO PTY LTD',
      status: 'CNCL',
      reservedAt: '2024-02-01',
    },
    {
      facts: {
        number: reservations.changeOfName,
        reservedFor: null,
        companyNumber: SANDBOX.proprietary,
        expiresAt: '2027-01-02',
      },
      name: 'BLUEGUM ESTATE PTY LTD',
      status: 'REGD',
      reservedAt: '2026-11-02',
    },
  ];
}

function businessNameOrganisation(spec: BusinessNameCase, book: DocumentBook): CompanyRecord {
  const registration = book.lodge('BN01', spec.registeredAt, { pageCount: 2 });
  for (const renewal of spec.renewals ?? []) book.lodge('BN03', renewal, { pageCount: 1 });
  const [street, locality, state, postcode] = spec.place;
  return companyRecord({
    company: organisation({
      number: spec.facts.number,
      name: spec.name,
      type: 'BUSN',
      status: spec.status,
      registeredAt: spec.registeredAt,
    }),
    addresses: [
      addressRecord(
        'PA',
        spec.registeredAt,
        null,
        australianAddress(street, locality, state, postcode),
        registration,
      ),
    ],
    documents: book.documents,
  });
}

function reservationOrganisation(spec: ReservationCase, book: DocumentBook): CompanyRecord {
  book.lodge('410', spec.reservedAt, { pageCount: 2 });
  if (spec.extendedAt) book.lodge('410F', spec.extendedAt, { pageCount: 1 });
  return companyRecord({
    company: organisation({
      number: spec.facts.number,
      name: spec.name,
      type: 'RSVN',
      status: spec.status,
      registeredAt: spec.reservedAt,
    }),
    documents: book.documents,
  });
}

/** The BUSN and RSVN organisations of the record cases (HARBOUR LIGHTS aside), built afresh. */
export function buildSandboxRecordOrganisations(): CompanyRecord[] {
  let book = 0;
  return [
    ...businessNameCases().map((spec) => businessNameOrganisation(spec, recordsBook(++book))),
    ...reservationCases().map((spec) => reservationOrganisation(spec, recordsBook(++book))),
  ];
}

let organisations: readonly CompanyRecord[] | undefined;

/** The BUSN and RSVN organisations, built on first call and shared (treat as read-only). */
export function sandboxRecordOrganisations(): readonly CompanyRecord[] {
  organisations ??= buildSandboxRecordOrganisations();
  return organisations;
}

/** What the business names register and the reservations add to the organisations. */
export function sandboxRecordsSource(): RecordsSource {
  return {
    businessNames: [harbourLights, ...businessNameCases().map((spec) => spec.facts)],
    nameReservations: reservationCases().map((spec) => spec.facts),
  };
}
