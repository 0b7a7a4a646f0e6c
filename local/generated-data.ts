/**
 * A larger, seeded pseudo-random register for the registry simulator (live keys, locally):
 * realistic names, addresses, office holders, documents, charges and holding-company links, with
 * valid check digits. The same seed always gives the same data.
 *
 * Generated numbers stay below 990 000 000 and charge numbers have nine digits starting with 2,
 * so they never reuse a sandbox identifier (sandbox numbers are 990 0xx xxx, its charges seven
 * digits), and the word lists avoid the sandbox search words (SOUTHERN, CROSS, ACME, WIDGETS,
 * BLUEGUM, ZYZZYVA) so the documented searches answer the same in the simulator.
 *
 * People: every person who holds an office or shares in a generated organisation is one name
 * record of the personal name index (`derivePeople`), so person and company extracts agree. The
 * family names avoid the sandbox people's (O'BRIEN, KOWALSKI, CITIZEN…), and SMITH is kept for
 * `generateSmiths`: exactly 100 JOHN SMITHs, so one search selects the most a search returns.
 */

import { sandboxRecords } from '../shared/adapters/sandbox/data/companies.ts';
import {
  abnForAcn,
  acnWithCheckDigit,
  addressRecord,
  australianAddress,
  charge,
  chargeSeries,
  DocumentBook,
  member,
  officeholder,
  organisation,
  organisationParty,
  overseasAddress,
  person,
  relationship,
  shareClass,
} from '../shared/adapters/sandbox/data/company-builders.ts';
import { sandboxPeople } from '../shared/adapters/sandbox/data/people.ts';
import {
  memberRole,
  personDocument,
  personName,
  personRole,
  shareholding,
} from '../shared/adapters/sandbox/data/person-builders.ts';
import {
  buildDataset,
  type CompanyRecord,
  companyRecord,
  type Dataset,
  type PersonRecord,
  personRecord,
} from '../shared/adapters/sandbox/dataset.ts';
import { addDays, dateOfDay, dayNumber } from '../shared/kernel/calendar-days.ts';
import { MEMBER_ROLE } from '../shared/kernel/registry-ordering.ts';
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
} from '../shared/kernel/registry-port.ts';
import type {
  PeopleSearchQuery,
  RegistryPersonRole,
  RegistryShareholding,
} from '../shared/people/registry-port.ts';
import type { RecordsSource } from '../shared/records/adapters/sandbox.ts';
import { sandboxRecordOrganisations, sandboxRecordsSource } from '../shared/records/adapters/sandbox-data.ts';
import { type GeneratedRecords, generateRecords } from './generated-records.ts';

/** The simulator's dataset: the sandbox sample plus this many generated organisations. */
export const SIMULATOR_COMPANY_COUNT = 2000;
export const SIMULATOR_SEED = 20_240_601;

/** mulberry32: a tiny, fast 32-bit PRNG; returns numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

class Random {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(list: readonly T[]): T {
    const item = list[Math.floor(this.next() * list.length)];
    if (item === undefined) throw new Error('Random.pick on an empty list');
    return item;
  }

  /** A date from `from` to `to` (both `YYYY-MM-DD`), included. */
  date(from: IsoDate, to: IsoDate): IsoDate {
    const start = dayNumber(from);
    const days = dayNumber(to) - start;
    return dateOfDay(start + (days < 0 ? 0 : this.int(0, days)));
  }
}

const FIRST_WORDS = [
  'ALPINE',
  'AURORA',
  'BANKSIA',
  'BOTANY',
  'BRIGHTWATER',
  'CEDAR',
  'CORAL',
  'DIAMOND',
  'DUNES',
  'EMERALD',
  'EUCALYPT',
  'FALCON',
  'GRANITE',
  'GREENFIELD',
  'HILLTOP',
  'HORIZON',
  'IRONWOOD',
  'JARRAH',
  'KESTREL',
  'KINGFISHER',
  'LAKESIDE',
  'LIGHTHOUSE',
  'MAGPIE',
  'MALLEE',
  'NORTHERN',
  'NULLARBOR',
  'OCEANIC',
  'OUTBACK',
  'PACIFIC',
  'PELICAN',
  'QUANDONG',
  'REDGUM',
  'RIVERSTONE',
  'SAPPHIRE',
  'SILVER',
  'TASMAN',
  'TIMBERLINE',
  'URBAN',
  'WARATAH',
  'WESTERLY',
  'YARRA',
  'ZEPHYR',
];
const MIDDLE_WORDS = [
  'UNITED',
  'GLOBAL',
  'NATIONAL',
  'PREMIER',
  'COASTAL',
  'FIRST',
  'CLASSIC',
  'MODERN',
  'ROYAL',
];
const INDUSTRIES = [
  'AGRICULTURE',
  'BUILDING',
  'CAPITAL',
  'CARPENTRY',
  'CLEANING',
  'CONSTRUCTIONS',
  'CONSULTING',
  'DENTAL',
  'DESIGN',
  'DIGITAL',
  'EDUCATION',
  'ELECTRICAL',
  'ENERGY',
  'ENGINEERING',
  'FINANCIAL',
  'FITNESS',
  'FOODS',
  'HOLDINGS',
  'HOSPITALITY',
  'INVESTMENTS',
  'LANDSCAPING',
  'LOGISTICS',
  'MARINE',
  'MEDIA',
  'MEDICAL',
  'MINING',
  'PHARMACY',
  'PLUMBING',
  'PROPERTIES',
  'RESOURCES',
  'SECURITY',
  'SERVICES',
  'STORAGE',
  'TECHNOLOGIES',
  'TEXTILES',
  'TIMBER',
  'TRADING',
  'TRANSPORT',
  'TRAVEL',
  'VETERINARY',
  'WINES',
];
const FAMILY_NAMES = [
  'ABBOTT',
  'BAKER',
  'CAMPBELL',
  'CHEN',
  'DAVIS',
  'EDWARDS',
  'FERGUSON',
  'GREEN',
  'HARRIS',
  'HUANG',
  'JACKSON',
  'KAUR',
  'KELLY',
  'KING',
  'LEE',
  'LI',
  'MARTIN',
  'MITCHELL',
  'MURPHY',
  'NGUYEN',
  'OCONNELL',
  'PATEL',
  'ROBERTS',
  'ROSSI',
  'RYAN',
  'SINGH',
  'TAYLOR',
  'THOMPSON',
  'TRAN',
  'WALKER',
  'WANG',
  'WHITE',
  'WILLIAMS',
  'WILSON',
  'WONG',
  'YOUNG',
];
const GIVEN_NAMES = [
  'ADAM',
  'AMELIA',
  'ANDREW',
  'CHARLOTTE',
  'CHLOE',
  'DAVID',
  'ELLA',
  'GEORGE',
  'HANNAH',
  'ISAAC',
  'JAMES',
  'JESSICA',
  'LIAM',
  'LUCY',
  'MATTHEW',
  'MEI',
  'NOAH',
  'OLIVIA',
  'PETER',
  'RAJ',
  'RUBY',
  'SAMUEL',
  'SOPHIE',
  'THOMAS',
  'WEI',
  'ZOE',
];
const LOCALITIES: readonly (readonly [locality: string, state: string, postcode: string])[] = [
  ['SYDNEY', 'NSW', '2000'],
  ['PARRAMATTA', 'NSW', '2150'],
  ['NEWCASTLE', 'NSW', '2300'],
  ['WOLLONGONG', 'NSW', '2500'],
  ['BATHURST', 'NSW', '2795'],
  ['MELBOURNE', 'VIC', '3000'],
  ['RICHMOND', 'VIC', '3121'],
  ['GEELONG', 'VIC', '3220'],
  ['BENDIGO', 'VIC', '3550'],
  ['BRISBANE', 'QLD', '4000'],
  ['SOUTHPORT', 'QLD', '4215'],
  ['TOWNSVILLE', 'QLD', '4810'],
  ['CAIRNS', 'QLD', '4870'],
  ['ADELAIDE', 'SA', '5000'],
  ['MOUNT GAMBIER', 'SA', '5290'],
  ['PERTH', 'WA', '6000'],
  ['FREMANTLE', 'WA', '6160'],
  ['BUNBURY', 'WA', '6230'],
  ['HOBART', 'TAS', '7000'],
  ['LAUNCESTON', 'TAS', '7250'],
  ['DARWIN', 'NT', '0800'],
  ['ALICE SPRINGS', 'NT', '0870'],
  ['CANBERRA', 'ACT', '2601'],
  ['BELCONNEN', 'ACT', '2617'],
];
const STREETS = [
  'GEORGE',
  'KING',
  'QUEEN',
  'VICTORIA',
  'ELIZABETH',
  'HIGH',
  'MAIN',
  'STATION',
  'CHURCH',
  'PARK',
];
const STREET_TYPES = ['STREET', 'ROAD', 'AVENUE', 'PARADE', 'LANE', 'TERRACE'];
const OVERSEAS: readonly (readonly [street: string, locality: string, country: string])[] = [
  ['1 CANADA SQUARE', 'LONDON', 'UNITED KINGDOM'],
  ['8 MARINA BOULEVARD', 'SINGAPORE', 'SINGAPORE'],
  ['21 QUEEN STREET', 'AUCKLAND', 'NEW ZEALAND'],
  ['88 QUEENSWAY', 'HONG KONG', 'HONG KONG'],
  ['200 PARK AVENUE', 'NEW YORK', 'UNITED STATES'],
  ['5 FRIEDRICHSTRASSE', 'BERLIN', 'GERMANY'],
];
const AUDIT_FIRMS = [
  'HARTLEY & PARTNERS',
  'MCINTYRE ROSS AUDIT',
  'CLEARVIEW ASSURANCE',
  'DUNMORE LANE ACCOUNTANTS',
];
const LENDER_NAMES = [
  'COMMONWEALTH MERCANTILE BANK LIMITED',
  'PACIFIC FIRST BANKING CORPORATION LIMITED',
  'HERITAGE CAPITAL FINANCE PTY LTD',
  'TASMAN EQUIPMENT FINANCE LIMITED',
];
const DEREGISTRATION_REASONS = ['S601AA', 'S601AA', 'S601AB', 'S601AB', 'S601AL', 'S509', 'S481'];
const ADMINISTRATOR_ROLES = ['AC', 'AD', 'VQ', 'RC', 'CQ'];
const LAST_DATE = '2025-06-30';
const FIRST_DAY = dayNumber('1960-01-01');

interface Draft {
  company: RegistryCompany;
  record?: CompanyRecord;
}

/** The generated organisations (deterministic for a seed). Each call builds new objects. */
export function generateCompanyRecords(count: number, seed: number): CompanyRecord[] {
  const random = new Random(seed);
  const usedNumbers = new Set<string>();
  const usedNames = new Set<string>();
  let documentSequence = 0;
  let chargeSequence = 0;

  /** Numbers roughly follow registration dates, as the registry issues them; all below 990 000 000. */
  const numberFor = (registeredAt: IsoDate): string => {
    const position = (dayNumber(registeredAt) - FIRST_DAY) / (dayNumber(LAST_DATE) - FIRST_DAY);
    for (;;) {
      const base = 10_000_000 + Math.floor(position * 88_000_000) + random.int(0, 899_999);
      const number = acnWithCheckDigit(String(Math.min(base, 98_999_999)));
      if (!usedNumbers.has(number)) {
        usedNumbers.add(number);
        return number;
      }
    }
  };

  const uniqueName = (stem: string, suffix: string): string => {
    for (let attempt = 0; ; attempt++) {
      const name =
        attempt === 0
          ? `${stem} ${suffix}`
          : attempt === 1
            ? `${stem} (${random.pick(LOCALITIES)[1]}) ${suffix}`
            : `${stem} NO. ${attempt} ${suffix}`;
      if (!usedNames.has(name)) {
        usedNames.add(name);
        return name;
      }
    }
  };

  const nameStem = (): string => {
    const roll = random.int(0, 3);
    if (roll === 0) return `${random.pick(FAMILY_NAMES)} ${random.pick(INDUSTRIES)}`;
    if (roll === 1)
      return `${random.pick(FIRST_WORDS)} ${random.pick(MIDDLE_WORDS)} ${random.pick(INDUSTRIES)}`;
    return `${random.pick(FIRST_WORDS)} ${random.pick(INDUSTRIES)}`;
  };

  const suffixFor = (type: string): string =>
    ({
      APTY: 'PTY LTD',
      APUB: 'LIMITED',
      FNOS: random.pick(['LIMITED', 'INC', 'PLC', 'GMBH']),
      RACN: 'INCORPORATED',
    })[type] ??
    { MISM: 'FUND', ASSN: 'CLUB INCORPORATED', NRET: 'PARTNERSHIP' }[type] ??
    'PTY LTD';

  const localAddress = (): RegistryAddress => {
    const [locality, state, postcode] = random.pick(LOCALITIES);
    const line1 = random.chance(0.25) ? `LEVEL ${random.int(1, 30)}` : undefined;
    return australianAddress(
      `${random.int(1, 400)} ${random.pick(STREETS)} ${random.pick(STREET_TYPES)}`,
      locality,
      state,
      postcode,
      line1 ? { line1 } : {},
    );
  };

  /** A person old enough (18 to 70) on `at`, the date they take the role. */
  const someone = (at: IsoDate): RegistryParty => {
    const [locality, state] = random.pick(LOCALITIES);
    const first = random.pick(GIVEN_NAMES);
    const second = random.pick(GIVEN_NAMES);
    const given = second !== first && random.chance(0.5) ? `${first} ${second}` : first;
    const born = random.date(addDays(at, -70 * 365), addDays(at, -18 * 365));
    return person(random.pick(FAMILY_NAMES), given, [born, locality, state]);
  };

  const lenders: RegistryParty[] = LENDER_NAMES.map((name) => {
    const number = numberFor('1985-01-01');
    return organisationParty({ name, number, numberType: 'ACN', abn: abnForAcn(number) });
  });

  // Pass 1: the organisations themselves, so that records can refer to each other.
  const drafts: Draft[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random.int(0, 999);
    const type =
      roll < 820
        ? 'APTY'
        : roll < 900
          ? 'APUB'
          : roll < 930
            ? 'FNOS'
            : roll < 950
              ? 'RACN'
              : roll < 970
                ? 'MISM'
                : roll < 985
                  ? 'ASSN'
                  : 'NRET';
    const registeredAt = random.date('1965-01-01', '2024-12-31');
    const number = numberFor(registeredAt);
    const statusRoll = random.int(0, 99);
    const corporate = type === 'APTY' || type === 'APUB';
    const status =
      statusRoll < 84 || !(corporate || type === 'MISM')
        ? 'REGD'
        : statusRoll < 93
          ? 'DRGD'
          : statusRoll < 96 && corporate
            ? 'EXAD'
            : corporate
              ? 'SOFF'
              : 'REGD';
    const numberType = type === 'ASSN' || type === 'NRET' ? 'NUMBER' : undefined;
    const company = organisation({
      number,
      name: uniqueName(nameStem(), suffixFor(type)),
      type,
      status,
      registeredAt,
      ...(numberType ? { numberType, abn: null } : {}),
      ...(type === 'MISM'
        ? { schemeCategories: random.chance(0.5) ? ['MTGE'] : ['REAL', 'LPTR'], class: 'PROP', abn: null }
        : {}),
      ...(type === 'APUB' && random.chance(0.3) ? { subClass: 'LIST' } : {}),
      ...(corporate && random.chance(0.1) ? { abn: null } : {}),
      ...(status === 'DRGD'
        ? {
            deregistration: {
              date: random.date(addDays(registeredAt, 400), LAST_DATE),
              reason: type === 'MISM' ? 'S601PB' : random.pick(DEREGISTRATION_REASONS),
            },
          }
        : {}),
    });
    if (random.chance(0.15)) {
      const to = random.date(addDays(registeredAt, 200), LAST_DATE);
      company.formerNames.push({
        name: uniqueName(nameStem(), suffixFor(type)),
        from: registeredAt,
        to,
      });
    }
    drafts.push({ company });
  }
  const links: { parent: Draft; relationship: RegistryRelationship }[] = [];
  const publicCompanies = drafts.filter(
    (draft) => draft.company.type === 'APUB' && draft.company.status === 'REGD',
  );

  // Pass 2: each organisation's records.
  for (const draft of drafts) {
    const { company } = draft;
    const registeredAt = company.registeredAt ?? '1990-01-01';
    const endDate = company.deregistration?.date ?? LAST_DATE;
    const book = new DocumentBook(() => `8E${String(++documentSequence).padStart(7, '0')}`);
    const registrationForm =
      { FNOS: '402', RACN: '402', MISM: '5100', ASSN: '902', NRET: '902' }[company.type] ?? '201';
    const registration = book.lodge(registrationForm, registeredAt, { imaged: registeredAt >= '1991-01-01' });
    const later = (): IsoDate => random.date(addDays(registeredAt, 30), endDate);

    const officeholders: RegistryOfficeholder[] = [];
    const members: RegistryMember[] = [];
    const shareClasses: RegistryShareClass[] = [];
    const addresses: RegistryAddressRecord[] = [];
    const documents: RegistryDocument[] = [];
    const charges: RegistryCharge[] = [];

    // Directors (current, some ceased) and a secretary; members for companies with shares.
    const directorCount = company.type === 'MISM' ? 0 : random.int(1, company.type === 'APUB' ? 6 : 3);
    for (let d = 0; d < directorCount; d++) {
      const appointedAt = d === 0 ? registeredAt : later();
      const party = someone(appointedAt);
      const lodged =
        d === 0
          ? registration
          : book.lodge('484', appointedAt, {
              subForms: [['484E', 'Appointment or cessation of a company officeholder']],
            });
      const address = company.type === 'FNOS' ? overseasAddress(...random.pick(OVERSEAS)) : localAddress();
      officeholders.push(officeholder('DR', party, { appointedAt, address, source: lodged }));
      if (random.chance(0.3)) {
        const ceasedAt = random.date(addDays(registeredAt, 1), endDate);
        const lodgedCeasing = book.lodge('370', ceasedAt, { pageCount: 1 });
        officeholders.push(
          officeholder('DR', someone(registeredAt), {
            appointedAt: registeredAt,
            ceasedAt,
            address: localAddress(),
            source: lodgedCeasing,
          }),
        );
      }
      if ((company.type === 'APTY' || company.type === 'APUB') && d < 2) {
        members.push(member('ORD', 'C', party, random.int(1, 100) * 10, lodged));
      }
    }
    if (company.type === 'APTY' || company.type === 'APUB' || company.type === 'RACN') {
      officeholders.push(
        officeholder('SR', someone(registeredAt), {
          appointedAt: registeredAt,
          address: localAddress(),
          source: registration,
        }),
      );
    }
    if (company.type === 'APTY' || company.type === 'APUB') {
      const issued = members.reduce((total, holder) => total + holder.sharesHeld, 0) || 100;
      shareClasses.push(shareClass('ORD', 'ORDINARY SHARES', 'C', issued, `${issued}.00`, registration));
    }
    if (company.type === 'APUB') {
      officeholders.push(
        officeholder('AA', organisationParty({ name: random.pick(AUDIT_FIRMS) }), {
          appointedAt: registeredAt,
          address: localAddress(),
          source: registration,
        }),
      );
    }

    // Addresses: registered office (maybe moved once), principal place, sometimes a contact address.
    if (company.type === 'FNOS') {
      addresses.push(addressRecord('RP', registeredAt, null, localAddress(), registration));
      addresses.push(
        addressRecord('RO', registeredAt, null, overseasAddress(...random.pick(OVERSEAS)), registration),
      );
    } else if (company.type === 'RACN') {
      addresses.push(addressRecord('RP', registeredAt, null, localAddress(), registration));
    } else {
      const office = localAddress();
      if (random.chance(0.35)) {
        const moved = later();
        const lodged = book.lodge('484', moved, { subForms: [['484A1', 'Change of address']] });
        addresses.push(addressRecord('RG', registeredAt, addDays(moved, -1), localAddress(), registration));
        addresses.push(addressRecord('RG', moved, null, office, lodged));
      } else {
        addresses.push(addressRecord('RG', registeredAt, null, office, registration));
      }
    }
    if (company.type !== 'MISM')
      addresses.push(addressRecord('PA', registeredAt, null, localAddress(), registration));
    if (random.chance(0.4)) {
      addresses.push(addressRecord('CC', registeredAt, null, localAddress(), registration));
    }

    // Other lodgements: annual returns, financial reports, share and change notices.
    const extra = random.int(1, 10);
    for (let n = 0; n < extra; n++) {
      const receivedAt = later();
      const year = receivedAt.slice(0, 4);
      const kind = random.int(0, 5);
      if (kind === 0) book.lodge('480', receivedAt, { qualifier: `AR${year}` });
      else if (kind === 1) {
        book.lodge('388', receivedAt, {
          qualifier: `FR${year}`,
          pageCount: random.int(12, 120),
          xbrl: receivedAt >= '2012-01-01' && random.chance(0.5),
        });
      } else if (kind === 2) book.lodge('2205', receivedAt);
      else if (kind === 3) book.lodge('902', receivedAt, { priced: false });
      else book.lodge('484', receivedAt, { subForms: [['484A1', 'Change of address']] });
    }

    // Holding companies and responsible entities: both sides of the link.
    // Every scheme has a responsible entity; some proprietary companies have a holding company.
    const parentCandidates = publicCompanies.filter((candidate) => candidate !== draft);
    if (
      parentCandidates.length > 0 &&
      (company.type === 'MISM' || (company.type === 'APTY' && random.chance(0.12)))
    ) {
      const parent = random.pick(parentCandidates);
      const role = company.type === 'MISM' ? 'RN' : 'UH';
      const appointedAt = random.date(registeredAt, endDate);
      const ceasedAt = role === 'UH' && random.chance(0.25) ? random.date(appointedAt, endDate) : null;
      officeholders.push(
        officeholder(role, organisationParty(parent.company), {
          appointedAt,
          ceasedAt,
          source: registration,
        }),
      );
      links.push({ parent, relationship: relationship(role, company, appointedAt, ceasedAt) });
    }

    // External administration: one appointee and the 505 that notified it.
    let externalAdministration: CompanyRecord['externalAdministration'] = null;
    if (company.status === 'EXAD') {
      const appointedAt = random.date(addDays(LAST_DATE, -400), LAST_DATE);
      const notice = book.lodge('505', appointedAt);
      const appointee = officeholder(random.pick(ADMINISTRATOR_ROLES), someone(appointedAt), {
        appointedAt,
        address: localAddress(),
        source: notice,
      });
      officeholders.push(appointee);
      externalAdministration = { appointees: [appointee], documents: [notice] };
    }
    if (company.status === 'DRGD' && company.deregistration?.reason === 'S601AA') {
      book.lodge('6010', addDays(company.deregistration.date, -90));
    }

    // Charges: satisfied (309, 350, 312) or deleted (309 only).
    const chargeable = ['APTY', 'APUB', 'FNOS', 'RACN'].includes(company.type);
    const chargeCount = chargeable && random.chance(0.15) ? random.int(1, 3) : 0;
    for (let c = 0; c < chargeCount; c++) {
      const createdAt = later();
      const preAsic = createdAt < '1991-01-01';
      const registeredOn = addDays(createdAt, random.int(1, 20));
      const time = preAsic
        ? '00:00:00'
        : `${String(random.int(8, 17)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}`;
      const deleted = random.chance(0.1);
      const satisfiedAt = deleted ? null : random.date(addDays(registeredOn, 180), LAST_DATE);
      const chargeDocuments = [
        book.lodgeForCharge('309', registeredOn, { pageCount: random.int(2, 8), imaged: !preAsic }),
      ];
      if (!deleted) {
        if (random.chance(0.6)) {
          chargeDocuments.push(book.lodgeForCharge('350', addDays(registeredOn, 3), { imaged: !preAsic }));
        }
        if (satisfiedAt)
          chargeDocuments.push(book.lodgeForCharge('312', satisfiedAt, { pageCount: random.int(1, 4) }));
      }
      charges.push(
        charge(company, {
          chargeNumber: String(200_000_000 + ++chargeSequence),
          status: deleted ? 'DELT' : 'SATF',
          type: random.pick(['X', 'F', 'B']),
          registeredAt: `${registeredOn}T${time}Z`,
          createdAt,
          satisfiedAt,
          preAsicChargeNumber: preAsic ? String(random.int(10_000, 999_999)).padStart(8, '0') : null,
          chargees: random.chance(0.1) ? [someone(createdAt), someone(createdAt)] : [random.pick(lenders)],
          documents: chargeDocuments,
        }),
      );
    }

    documents.push(...book.documents);
    draft.record = companyRecord({
      company,
      officeholders,
      addresses,
      shareClasses,
      members,
      documents,
      externalAdministration,
      charges,
    });
  }
  const records = drafts.map((draft) => {
    if (!draft.record) throw new Error('generateCompanyRecords: record not built');
    return draft.record;
  });
  for (const { parent, relationship: link } of links) parent.record?.relationships.push(link);
  return records;
}

// ---------------------------------------------------------------------------------------------
// People
// ---------------------------------------------------------------------------------------------

/** Identifiers of people derived from generated organisations start here (nine digits). */
export const DERIVED_PEOPLE_FIRST_IDENTIFIER = 100_000_001;
/** Identifiers of the generated SMITHs start here. */
export const SMITH_FIRST_IDENTIFIER = 300_000_001;

const query = (familyName: string, givenName: string): PeopleSearchQuery => ({
  familyName,
  givenName,
  birthDateFrom: null,
  birthDateTo: null,
});

/** The documented simulator people searches (docs/sandbox.md, docs/registry-protocol.md). */
export const SIMULATOR_PEOPLE = {
  /** Exactly 100 matches (found 100): JOHN SMITHs with two to four roles each, some Member roles. */
  hundred: query('SMITH', 'JOHN'),
  hundredCount: 100,
  /** PN52: the JOHNs plus 40 other J SMITHs, counts {returned: 0, found: 140}. */
  tooMany: query('SMITH', 'J'),
  tooManyFound: 140,
} as const;

interface PersonDraft {
  party: RegistryParty;
  roles: RegistryPersonRole[];
  shareholdings: RegistryShareholding[];
  documents: Map<string, RegistryDocument>;
}

/**
 * One name record per person party of the organisations' office holders and members: a party
 * object that appears in several lists (a director who is also a member) is one person. Roles
 * and shareholdings copy the company records; documents are the roles' source documents.
 */
export function derivePeople(
  records: readonly CompanyRecord[],
  firstIdentifier = DERIVED_PEOPLE_FIRST_IDENTIFIER,
): PersonRecord[] {
  const drafts = new Map<RegistryParty, PersonDraft>();
  const draftOf = (party: RegistryParty): PersonDraft => {
    let draft = drafts.get(party);
    if (!draft) {
      draft = { party, roles: [], shareholdings: [], documents: new Map() };
      drafts.set(party, draft);
    }
    return draft;
  };
  for (const record of records) {
    const documents = new Map(record.documents.map((document) => [document.documentNumber, document]));
    const file = (draft: PersonDraft, number: string | undefined) => {
      const document = number === undefined ? undefined : documents.get(number);
      if (document && !draft.documents.has(document.documentNumber))
        draft.documents.set(document.documentNumber, personDocument(document));
    };
    for (const holder of record.officeholders) {
      if (holder.party.type !== 'person' || !holder.party.person) continue;
      const draft = draftOf(holder.party);
      draft.roles.push({
        role: holder.role,
        status: holder.status,
        appointedAt: holder.appointedAt,
        ceasedAt: holder.ceasedAt,
        company: record.company,
        address: holder.address,
        sourceDocument: holder.sourceDocument,
      });
      file(draft, holder.sourceDocument?.documentNumber);
    }
    for (const holding of record.members) {
      if (holding.party.type !== 'person' || !holding.party.person) continue;
      const draft = draftOf(holding.party);
      draft.roles.push({
        role: MEMBER_ROLE,
        status: holding.status,
        appointedAt: null,
        ceasedAt: null,
        company: record.company,
        address: null,
        sourceDocument: holding.sourceDocument,
      });
      const shareClass = record.shareClasses.find((candidate) => candidate.classCode === holding.classCode);
      draft.shareholdings.push({
        company: record.company,
        classCode: holding.classCode,
        classDescription: shareClass?.description ?? holding.classCode,
        status: holding.status,
        sharesHeld: holding.sharesHeld,
        fullyPaid: holding.fullyPaid,
        beneficiallyHeld: holding.beneficiallyHeld,
        sourceDocument: holding.sourceDocument,
      });
      file(draft, holding.sourceDocument.documentNumber);
    }
  }
  let next = firstIdentifier;
  return [...drafts.values()].map((draft) =>
    personRecord({
      match: {
        registryIdentifier: String(next++),
        name: structuredClone(draft.party.person as NonNullable<RegistryParty['person']>),
        birth: draft.party.birth,
        formerName: null,
      },
      roles: draft.roles,
      shareholdings: draft.shareholdings,
      documents: [...draft.documents.values()],
    }),
  );
}

const SMITH_SECOND_NAMES = [
  'ALBERT',
  'ANTHONY',
  'ARTHUR',
  'BRUCE',
  'CHARLES',
  'EDWARD',
  'FRANCIS',
  'GEORGE',
  'HENRY',
  'KEITH',
  'LEONARD',
  'MICHAEL',
  'PAUL',
  'RAYMOND',
  'RICHARD',
  'WILLIAM',
];
/** Other J SMITHs: none begins with JOHN, so SMITH JOHN selects exactly the 100. */
const OTHER_J_NAMES = ['JANE', 'JAMES', 'JESSICA', 'JULIE', 'JASON'];
const SMITH_ROLES = ['DR', 'DR', 'DR', 'SR', 'SR', 'LD', 'AA'];

/**
 * 100 JOHN SMITHs (some of them namesakes: the same two given names) and 40 other J SMITHs, each
 * with two to four roles in the generated organisations, current and ceased; a third of the JOHNs
 * also hold shares (a Member role and a shareholding) in a proprietary company. These roles are
 * the personal name index's alone: the organisations' own lists are not changed.
 */
export function generateSmiths(
  records: readonly CompanyRecord[],
  seed: number,
  firstIdentifier = SMITH_FIRST_IDENTIFIER,
): PersonRecord[] {
  const random = new Random(seed);
  const companies = records.filter((record) => ['APTY', 'APUB'].includes(record.company.type));
  const proprietary = companies.filter((record) => record.company.type === 'APTY');
  if (companies.length === 0 || proprietary.length === 0) return [];
  let sequence = 0;
  const people: PersonRecord[] = [];
  const givenNames = [
    ...Array.from({ length: SIMULATOR_PEOPLE.hundredCount }, () => `JOHN ${random.pick(SMITH_SECOND_NAMES)}`),
    ...Array.from({ length: SIMULATOR_PEOPLE.tooManyFound - SIMULATOR_PEOPLE.hundredCount }, (_, i) =>
      i % 3 === 0
        ? (OTHER_J_NAMES[i % OTHER_J_NAMES.length] as string)
        : `${OTHER_J_NAMES[i % OTHER_J_NAMES.length]} ${random.pick(SMITH_SECOND_NAMES)}`,
    ),
  ];
  for (const [index, given] of givenNames.entries()) {
    const book = new DocumentBook(() => `7P${String(++sequence).padStart(7, '0')}`);
    const [locality, state] = random.pick(LOCALITIES);
    const born = random.date('1940-01-01', '2000-12-31');
    const roles: RegistryPersonRole[] = [];
    const shareholdings: RegistryShareholding[] = [];
    const roleCount = random.int(2, 4);
    for (let r = 0; r < roleCount; r++) {
      const { company } = random.pick(companies);
      const earliest = addDays(born, 20 * 365);
      const from = company.registeredAt && company.registeredAt > earliest ? company.registeredAt : earliest;
      const end = company.deregistration?.date ?? LAST_DATE;
      const appointedAt = random.date(from, end);
      const ceased = company.deregistration !== null || random.chance(0.4);
      const ceasedAt = ceased ? random.date(appointedAt, end) : null;
      const source = book.lodge('484', appointedAt, {
        subForms: [['484E', 'Appointment or cessation of a company officeholder']],
      });
      roles.push(
        personRole(random.pick(SMITH_ROLES), company, {
          appointedAt,
          ceasedAt,
          address: localAddressFrom(random),
          source,
        }),
      );
    }
    if (index < SIMULATOR_PEOPLE.hundredCount && random.chance(1 / 3)) {
      const { company } = random.pick(proprietary);
      const ceased = random.chance(0.3);
      const lodged = book.lodge('484', random.date(company.registeredAt ?? '1990-01-01', LAST_DATE), {
        subForms: [['484G', 'Notification of share issue']],
      });
      const status = ceased ? 'E' : 'C';
      roles.push(
        memberRole(company, { status, ceasedAt: ceased ? lodged.receivedAt : null, source: lodged }),
      );
      shareholdings.push(
        shareholding(company, 'ORD', 'ORDINARY SHARES', random.int(1, 100) * 10, { status, source: lodged }),
      );
    }
    people.push(
      personRecord({
        match: {
          registryIdentifier: String(firstIdentifier + index),
          name: personName('SMITH', given),
          birth: { date: born, locality, stateOrCountry: state },
          formerName: null,
        },
        roles,
        shareholdings,
        documents: book.documents.map(personDocument),
      }),
    );
  }
  return people;
}

function localAddressFrom(random: Random): RegistryAddress {
  const [locality, state, postcode] = random.pick(LOCALITIES);
  return australianAddress(
    `${random.int(1, 400)} ${random.pick(STREETS)} ${random.pick(STREET_TYPES)}`,
    locality,
    state,
    postcode,
  );
}

// ---------------------------------------------------------------------------------------------
// Orders: charges extracts and image documents on chosen generated organisations
// ---------------------------------------------------------------------------------------------

/**
 * The documented simulator cases for orders (docs/sandbox.md): generated organisations given
 * charges and documents of known sizes after generation, so that the random data is unchanged.
 * Their charges are numbered from 290 000 001 and their documents from 8E9000001, out of the
 * generator's way. The sandbox cases work in the simulator too; these are live-only equivalents.
 */
export const SIMULATOR_ORDERS = {
  /** RYAN MEDICAL PTY LTD: one satisfied charge, 6 pages (small). */
  smallChargesExtract: '635516666',
  /** NULLARBOR FINANCIAL LIMITED: two satisfied charges, 30 pages (the benchmark size). */
  benchmarkChargesExtract: '552476043',
  /** KINGFISHER MODERN MEDIA LIMITED: 27 satisfied charges, 540 pages (post only). */
  postOnlyChargesExtract: '541022431',
  /** URBAN PROPERTIES PTY LTD (registered 1979): the organisation of the image documents. */
  imageOrders: '368326685',
  documents: {
    /** Form 388 of `imageOrders`, 64 pages: organisation context. */
    organisation: '8E9000003',
    /** Form 902 of `imageOrders`, 6 pages. */
    supplementary: '8E9000002',
    /** The 1979 registration (201) of `imageOrders`: `imaged` false. */
    notImaged: '8E0000001',
    /** Form 484 of `imageOrders` lodged with a state office in 1990: image unavailable. */
    unavailable: '8E9000001',
    /** A 484 lodged against the first generated SMITH's name record only: person context. */
    person: '7P0000001',
    /** An auditor's registration (RA01, 4 pages), of no organisation or person: other context. */
    other: '8B0000001',
  },
  /** The offline search of the sandbox works here too: 180 matches (docs/sandbox.md). */
  offlineSearch: 'widgets',
} as const;

/** Documents of the professional registers, which the dataset keeps no records of. */
function registerDocuments(): RegistryDocument[] {
  let sequence = 0;
  const book = new DocumentBook(() => `8B${String(++sequence).padStart(7, '0')}`);
  book.lodge('RA01', '2015-07-01', { pageCount: 4 });
  book.lodge('RQ01', '2018-02-12', { pageCount: 3 });
  return book.documents;
}

/** The generated records, with `SIMULATOR_ORDERS`' organisations given their charges and documents. */
function withOrderFixtures(records: readonly CompanyRecord[]): CompanyRecord[] {
  let sequence = 0;
  const book = () => new DocumentBook(() => `8E9${String(++sequence).padStart(6, '0')}`);
  const lender = organisationParty({ name: 'PACIFIC FIRST BANKING CORPORATION LIMITED' });
  const changed = new Map<string, CompanyRecord>();
  const fixture = (
    number: string,
    build: (record: CompanyRecord, book: DocumentBook) => Partial<CompanyRecord>,
  ) => {
    const record = records.find((candidate) => candidate.company.number === number);
    if (record?.company.status !== 'REGD' || record.charges.length > 0) {
      throw new Error(
        `SIMULATOR_ORDERS: ${number} is not a registered generated organisation without charges`,
      );
    }
    const documents = book();
    const parts = build(record, documents);
    changed.set(
      number,
      companyRecord({ ...record, ...parts, documents: [...record.documents, ...documents.documents] }),
    );
  };
  const series =
    (firstChargeNumber: number, count: number, everyDays: number, pages: readonly [number, number, number]) =>
    (record: CompanyRecord, documents: DocumentBook): Partial<CompanyRecord> => ({
      charges: chargeSeries(record.company, documents, {
        count,
        firstChargeNumber,
        firstCreatedAt: addDays(record.company.registeredAt ?? '1991-01-01', 400),
        everyDays,
        pages,
        chargee: lender,
      }),
    });
  fixture(SIMULATOR_ORDERS.imageOrders, (_record, documents) => {
    const stateOffice = documents.lodge('484', '1990-06-12', { subForms: [['484A1', 'Change of address']] });
    documents.lodge('902', '2021-08-30', { pageCount: 6 });
    documents.lodge('388', '2023-10-27', { qualifier: 'FR2023', pageCount: 64, xbrl: true });
    return { unavailableImages: [stateOffice.documentNumber] };
  });
  fixture(SIMULATOR_ORDERS.smallChargesExtract, series(290_000_001, 1, 0, [4, 0, 2]));
  fixture(SIMULATOR_ORDERS.benchmarkChargesExtract, series(290_000_011, 2, 900, [10, 2, 3]));
  fixture(SIMULATOR_ORDERS.postOnlyChargesExtract, series(290_000_101, 27, 200, [12, 4, 4]));
  return records.map((record) => changed.get(record.company.number) ?? record);
}

/** A dataset of `count` generated organisations and their people only. */
export function generateDataset(count: number, seed: number): Dataset {
  const records = generateCompanyRecords(count, seed);
  return buildDataset(records, derivePeople(records));
}

let simulator: Dataset | undefined;
let simulatorRecords: GeneratedRecords | undefined;

/**
 * What the registry simulator serves: the sandbox organisations and people (so the documented
 * identifiers and searches work with live keys too), 2,000 generated organisations (a few with
 * the order cases of `SIMULATOR_ORDERS`), their people, the generated SMITHs, two register
 * documents, and the sandbox's and generated business names and reservations
 * (generated-records.ts). Built on first call, then shared.
 */
export function simulatorDataset(): Dataset {
  if (!simulator) {
    const generated = withOrderFixtures(generateCompanyRecords(SIMULATOR_COMPANY_COUNT, SIMULATOR_SEED));
    simulatorRecords = generateRecords(mulberry32(SIMULATOR_SEED + 2), generated);
    simulator = buildDataset(
      [...sandboxRecords(), ...sandboxRecordOrganisations(), ...generated, ...simulatorRecords.organisations],
      [...sandboxPeople(), ...derivePeople(generated), ...generateSmiths(generated, SIMULATOR_SEED + 1)],
      registerDocuments(),
    );
  }
  return simulator;
}

/** What the simulator's business names and reservations add to their organisations: the sandbox's and the generated ones. */
export function simulatorRecordsSource(): RecordsSource {
  simulatorDataset();
  const generated = (simulatorRecords as GeneratedRecords).source;
  const sandbox = sandboxRecordsSource();
  return {
    businessNames: [...sandbox.businessNames, ...generated.businessNames],
    nameReservations: [...sandbox.nameReservations, ...generated.nameReservations],
  };
}
