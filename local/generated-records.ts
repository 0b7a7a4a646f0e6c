/**
 * The simulator's business names and name reservations at scale: 1,500 business names (about
 * 40% registered before 2012 with a state number, some partnerships, some cancelled, expired,
 * archived or removed) and 400 reservations (some lapsed, some to change a company's name),
 * each an organisation of the dataset (BUSN, RSVN) plus what its register adds. Numbers are in
 * the block 991 0xx xxx (with their check digit); documents are numbered 8R + seven digits.
 * Deterministic for a given `random` (the simulator's seeded generator).
 */

import {
  abnForAcn,
  acnWithCheckDigit,
  addressRecord,
  australianAddress,
  DocumentBook,
  organisation,
  organisationParty,
  person,
} from '../shared/adapters/sandbox/data/company-builders.ts';
import { type CompanyRecord, companyRecord } from '../shared/adapters/sandbox/dataset.ts';
import { addDays } from '../shared/kernel/calendar-days.ts';
import type { IsoDate } from '../shared/kernel/registry-port.ts';
import type {
  BusinessNameFacts,
  NameReservationFacts,
  RecordsSource,
} from '../shared/records/adapters/sandbox.ts';

export const GENERATED_BUSINESS_NAMES = 1500;
export const GENERATED_RESERVATIONS = 400;

const WORDS = [
  'SUNRISE',
  'HARBOUR',
  'GOLDEN',
  'RIVERSIDE',
  'MOUNTAIN',
  'COASTAL',
  'URBAN',
  'WILDFLOWER',
  'IRONBARK',
];
const TRADES = [
  'CAFE',
  'PLUMBING',
  'LANDSCAPING',
  'BOOKKEEPING',
  'CLEANING',
  'DESIGN',
  'MOTORS',
  'BAKERY',
  'TUTORING',
];
const FAMILY = ['NGUYEN', 'SMITH', 'PATEL', 'WILLIAMS', 'KHAN', 'BROWN', 'TAYLOR', 'LEE', 'MARTIN', 'WHITE'];
const GIVEN = ['OLIVIA', 'JACK', 'AMELIA', 'NOAH', 'ISLA', 'LEO', 'MIA', 'HENRY', 'ZOE', 'OSCAR'];
const PLACES: readonly (readonly [string, string, string])[] = [
  ['SYDNEY', 'NSW', '2000'],
  ['MELBOURNE', 'VIC', '3000'],
  ['BRISBANE', 'QLD', '4000'],
  ['ADELAIDE', 'SA', '5000'],
  ['PERTH', 'WA', '6000'],
  ['HOBART', 'TAS', '7000'],
  ['DARWIN', 'NT', '0800'],
  ['CANBERRA', 'ACT', '2601'],
];
const STATUSES = ['REGD', 'REGD', 'REGD', 'REGD', 'REGD', 'REGD', 'CNCL', 'REXP', 'ARCH', 'RMVD'];
const NATIONAL_REGISTER = '2012-05-28';

export interface GeneratedRecords {
  organisations: CompanyRecord[];
  source: RecordsSource;
}

/**
 * `companies` are the organisations a change-of-name reservation may belong to (their numbers are
 * only referred to, so they must be in the same dataset).
 */
export function generateRecords(next: () => number, companies: readonly CompanyRecord[]): GeneratedRecords {
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)] as T;
  const date = (from: IsoDate, days: number) => addDays(from, int(0, days));
  let documentSequence = 0;
  const book = () => new DocumentBook(() => `8R${String(++documentSequence).padStart(7, '0')}`);
  const organisations: CompanyRecord[] = [];
  const businessNames: BusinessNameFacts[] = [];
  const nameReservations: NameReservationFacts[] = [];
  const renamable = companies.filter((record) => record.company.type === 'APTY');

  for (let i = 0; i < GENERATED_BUSINESS_NAMES; i++) {
    const number = acnWithCheckDigit(`9910${String(i).padStart(4, '0')}`);
    const [locality, state, postcode] = pick(PLACES);
    const registeredAt = date('1995-01-01', 11_000);
    const status = pick(STATUSES);
    const documents = book();
    const registration = documents.lodge('BN01', registeredAt, { pageCount: 2 });
    const partners = next() < 0.15 ? int(2, 3) : 1;
    const abn = abnForAcn(acnWithCheckDigit(`9920${String(i).padStart(4, '0')}`));
    const held = next() < 0.1;
    businessNames.push({
      number,
      renewalDueAt:
        status === 'CNCL' || status === 'RMVD'
          ? null
          : addDays(registeredAt < NATIONAL_REGISTER ? NATIONAL_REGISTER : registeredAt, 365 * 3 * int(1, 4)),
      cancelledAt: status === 'CNCL' ? date(registeredAt, 2000) : null,
      holders: held
        ? [{ party: organisationParty({ name: `${pick(FAMILY)} HOLDINGS PTY LTD` }), abn }]
        : Array.from({ length: partners }, () => ({ party: person(pick(FAMILY), pick(GIVEN)), abn })),
      stateRegistrations:
        registeredAt < NATIONAL_REGISTER
          ? [{ number: `BN${String(10_000_000 + i * 7919).slice(0, 8)}`, jurisdiction: state }]
          : [],
    });
    organisations.push(
      companyRecord({
        company: organisation({
          number,
          name: `${pick(WORDS)} ${pick(TRADES)} ${i + 1}`,
          type: 'BUSN',
          status,
          registeredAt,
        }),
        addresses: [
          addressRecord(
            'PA',
            registeredAt,
            null,
            australianAddress(`${int(1, 300)} MAIN STREET`, locality, state, postcode),
            registration,
          ),
        ],
        documents: documents.documents,
      }),
    );
  }

  for (let i = 0; i < GENERATED_RESERVATIONS; i++) {
    const number = acnWithCheckDigit(`9911${String(i).padStart(4, '0')}`);
    const reservedAt = date('2023-01-01', 1400);
    const extended = next() < 0.3;
    const documents = book();
    documents.lodge('410', reservedAt, { pageCount: 2 });
    if (extended) documents.lodge('410F', addDays(reservedAt, 50), { pageCount: 1 });
    const company = renamable.length > 0 && next() < 0.2 ? pick(renamable) : null;
    nameReservations.push({
      number,
      reservedFor: company ? null : { type: 'APTY', class: 'LMSH' },
      companyNumber: company?.company.number ?? null,
      expiresAt: addDays(reservedAt, extended ? 121 : 60),
    });
    organisations.push(
      companyRecord({
        company: organisation({
          number,
          name: `${pick(WORDS)} ${pick(TRADES)} RESERVED ${i + 1} PTY LTD`,
          type: 'RSVN',
          status: next() < 0.3 ? 'CNCL' : 'REGD',
          registeredAt: reservedAt,
        }),
        documents: documents.documents,
      }),
    );
  }
  return { organisations, source: { businessNames, nameReservations } };
}
