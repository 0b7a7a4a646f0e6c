/**
 * The sandbox people: hand-written, deterministic name records of the personal name index that
 * show every documented people case (docs/sandbox.md, "People"), plus two loops (120 CITIZENs for
 * a search that selects too many names, and the HALLORANs with 999 and 1,000 roles). Test keys
 * get these people; the registry simulator serves them too, beside people derived from its
 * generated companies (local/generated-data.ts).
 *
 * Roles point at the sandbox companies. Where a company's own record lists the person (O'BRIEN,
 * KOWALSKI and QUINN, the charity director) the role records agree with it; the other roles are
 * the index's alone, and are not mirrored in the companies' office-holder or member lists.
 *
 * Registry identifiers are nine digits in the block 990 1xx xxx; generated people stay below
 * 990 000 000. Roles are listed out of order on purpose, so that the registry's sorting shows.
 * Nothing is built at import time: `sandboxPeople()` builds once, on first use. The builders the
 * people are made with are in builders/people.ts.
 */

import { addDays } from '../../../kernel/calendar-days.ts';
import type { IsoDate, PeopleSearchQuery, RegistryPersonRole } from '../../../kernel/registry-port.ts';
import type { CompanyRecord, PersonRecord } from '../dataset.ts';
import { personRecord } from '../dataset.ts';
import { SANDBOX, sandboxRecords } from './companies.ts';
import { acnWithCheckDigit, australianAddress } from './company-builders.ts';
import {
  birth,
  licence,
  memberRole,
  PersonBook,
  personName,
  personRole,
  shareholding,
} from './person-builders.ts';

const query = (
  familyName: string,
  givenName: string,
  birthDateFrom: IsoDate | null = null,
  birthDateTo: IsoDate | null = null,
): PeopleSearchQuery => ({ familyName, givenName, birthDateFrom, birthDateTo });

/** The documented people cases (docs/sandbox.md lists them). */
export const SANDBOX_PEOPLE = {
  /**
   * MICHAEL PATRICK O'BRIEN: current, future and ceased roles of types EO, DR, SR and LD in nine
   * companies (two DR records ceased on the same day), a ceased Member role, eight documents and
   * a former name.
   */
  director: {
    registryIdentifier: '990100001',
    familyName: "O'BRIEN",
    givenName: 'MICHAEL PATRICK',
    birthDate: '1975-06-01',
  },
  /** Three different people named ANNA MARIA KOWALSKI: each extract has a same_name notice. */
  namesakes: {
    familyName: 'KOWALSKI',
    givenName: 'ANNA MARIA',
    /** Born 1958-04-12 (the administrator of COASTAL BUILDERS), 1971-09-30 and 1986-01-05. */
    registryIdentifiers: ['990100002', '990100003', '990100004'],
  },
  /** ANNABEL KOWALSKI: found by the given name ANNA (a prefix); no namesake. */
  namesakePrefix: { registryIdentifier: '990100005', familyName: 'KOWALSKI', givenName: 'ANNABEL' },
  /** MARIA ANNA KOWALSKI: not found by ANNA, which must begin the first given name. */
  namesakeOtherOrder: { registryIdentifier: '990100006', familyName: 'KOWALSKI', givenName: 'MARIA ANNA' },
  /**
   * ELEANOR GRACE MACKENZIE-REID: current director of the registered charity `SANDBOX.charity`
   * (one acnc_charity notice), secretary and former director of the registered charity
   * `SANDBOX.association` (no notice for either).
   */
  charityDirector: {
    registryIdentifier: '990100007',
    familyName: 'MACKENZIE-REID',
    givenName: 'ELEANOR GRACE',
    charity: SANDBOX.charity,
  },
  /** GEORGE PAPADOPOULOS: office roles, Member (SH) roles current and ceased, four shareholdings. */
  shareholder: { registryIdentifier: '990100008', familyName: 'PAPADOPOULOS', givenName: 'GEORGE' },
  /** BRIDGET ANNE HALLORAN: exactly 999 roles (989 office roles, 10 Member roles); the extract works. */
  roles999: {
    registryIdentifier: '990100009',
    familyName: 'HALLORAN',
    givenName: 'BRIDGET ANNE',
    roleCount: 999,
  },
  /** BERNARD JOSEPH HALLORAN: 1,000 roles; the extract is refused (PE51). */
  roles1000: {
    registryIdentifier: '990100010',
    familyName: 'HALLORAN',
    givenName: 'BERNARD JOSEPH',
    roleCount: 1000,
  },
  /** VICTOR JAMES DRAKE: disqualified (DD current, DD and FR ceased), ceased directorships. */
  disqualified: { registryIdentifier: '990100011', familyName: 'DRAKE', givenName: 'VICTOR JAMES' },
  /** ROSALIE JANE FAIRWEATHER: banned (FX current; BF, BS and FR ceased). */
  banned: { registryIdentifier: '990100012', familyName: 'FAIRWEATHER', givenName: 'ROSALIE JANE' },
  /** ZARA QUINN: no birth recorded (`birth` null); roles DR and the unknown role ZX. */
  noBirthDate: { registryIdentifier: '990100013', familyName: 'QUINN', givenName: 'ZARA' },
  /** JOHN, JANE, JACK… CITIZEN: 120 people, 990 101 001 to 990 101 120. */
  citizens: { familyName: 'CITIZEN', count: 120, firstIdentifier: '990101001', lastIdentifier: '990101120' },
  /** No name record has it (PE03). */
  unknownIdentifier: '990199999',
  search: {
    /** One match: the director. */
    director: query("O'BRIEN", 'MICHAEL'),
    /** The same match: apostrophes are ignored. */
    withoutApostrophe: query('OBRIEN', 'M'),
    /** Four matches, found 4: the three ANNA MARIAs oldest first, then ANNABEL. */
    namesakes: query('KOWALSKI', 'ANNA'),
    /** One match (990100003, born 1971), found 4. */
    birthRange: query('KOWALSKI', 'ANNA', '1970-01-01', '1979-12-31'),
    /** PN51 with counts {returned: 0, found: 4}: names match, but nobody in the range. */
    rejectedByBirthDate: query('KOWALSKI', 'ANNA', '2000-01-01', '2010-12-31'),
    /** PN51 with counts {returned: 0, found: 1}: a range drops people without a birth date. */
    noBirthDateInRange: query('QUINN', 'ZARA', '1900-01-01', '2010-12-31'),
    /** Exactly 100 matches (the most a search returns), found 120. */
    hundred: query('CITIZEN', 'J', '1950-01-01', '1989-12-31'),
    /** PN52 with counts {returned: 0, found: 120}. */
    tooMany: query('CITIZEN', 'J'),
    /** PN51 with counts {returned: 0, found: 0}. */
    none: query('ZYZZYVA', 'ZED'),
  },
} as const;

// ---------------------------------------------------------------------------------------------
// The people
// ---------------------------------------------------------------------------------------------

type Companies = (number: string) => CompanyRecord;

function director(companies: Companies): PersonRecord {
  const bluegum = companies(SANDBOX.proprietary);
  const book = new PersonBook(1);
  book.file(bluegum, '484', '2012-01-20');
  const shares = book.file(bluegum, '2205', '2016-03-04');
  const secretary = book.file(bluegum, '484', '2018-10-03');
  const cessation = book.file(bluegum, '484', '2019-12-02');
  const holdings = book.lodge('484', '2020-02-05', { subForms: [['484E', 'Appointment or cessation']] });
  const pinnacle = book.lodge('484', '2021-07-05');
  const zenith = book.lodge('484', '2025-05-30', { effectiveAt: '2030-01-01' });
  const bakery = book.lodge('370', '2021-03-10', { pageCount: 1 });
  const home = australianAddress('31 CANOBOLAS ROAD', 'ORANGE', 'NSW', '2800');
  const co = (number: string) => companies(number).company;
  return personRecord({
    match: {
      registryIdentifier: SANDBOX_PEOPLE.director.registryIdentifier,
      name: personName("O'BRIEN", 'MICHAEL PATRICK'),
      birth: birth('1975-06-01', 'DUBLIN', 'IRELAND'),
      formerName: personName("O'BRIAIN", 'MICHEAL PADRAIG'),
    },
    roles: [
      personRole('SR', co(SANDBOX.strikeOff), {
        appointedAt: '2009-04-01',
        ceasedAt: '2015-08-31',
        address: home,
      }),
      personRole('DR', bluegum.company, {
        appointedAt: '2012-01-16',
        ceasedAt: '2019-11-30',
        source: cessation,
      }),
      personRole('LD', co(SANDBOX.hugeChargesExtract), {
        appointedAt: '2021-07-01',
        address: home,
        source: pinnacle,
      }),
      personRole('DR', co(SANDBOX.deregistered), {
        appointedAt: '2005-04-01',
        ceasedAt: '2021-03-15',
        address: home,
        source: bakery,
      }),
      memberRole(bluegum.company, { status: 'E', ceasedAt: '2016-03-04', source: shares }),
      personRole('SR', bluegum.company, {
        appointedAt: '2012-01-16',
        ceasedAt: '2018-09-30',
        source: secretary,
      }),
      personRole('DR', co(SANDBOX.unknownCodes), {
        status: 'F',
        appointedAt: '2030-01-01',
        address: home,
        source: zenith,
      }),
      personRole('EO', co(SANDBOX.largeCompany), { appointedAt: '1999-03-01', ceasedAt: '2004-06-30' }),
      personRole('DR', co(SANDBOX.deregisteredUnknownReason), {
        appointedAt: '2008-10-20',
        ceasedAt: '2021-03-15',
        address: home,
      }),
      personRole('DR', co(SANDBOX.public), { appointedAt: '2020-02-03', address: home, source: holdings }),
      personRole('SR', co(SANDBOX.satisfiedCharges), { appointedAt: '2019-12-02', address: home }),
    ],
    shareholdings: [
      shareholding(bluegum.company, 'A', 'A CLASS SHARES', 100, { status: 'E', source: shares }),
    ],
    documents: book.documents,
  });
}

function namesakes(companies: Companies): PersonRecord[] {
  const [older, middle, younger] = SANDBOX_PEOPLE.namesakes.registryIdentifiers;
  const coastal = companies(SANDBOX.externalAdministration);
  const book = new PersonBook(2);
  const administration = book.file(coastal, '505', '2023-12-05');
  const deed = book.file(coastal, '505', '2024-03-04');
  const insolvency = australianAddress('200 ADELAIDE STREET', 'BRISBANE', 'QLD', '4000', {
    line1: 'LEVEL 8',
  });
  const name = personName('KOWALSKI', 'ANNA MARIA');
  const other = new PersonBook(3);
  const youngest = new PersonBook(4);
  return [
    personRecord({
      match: {
        registryIdentifier: older,
        name,
        birth: birth('1958-04-12', 'KRAKOW', 'POLAND'),
        formerName: null,
      },
      roles: [
        personRole('AC', coastal.company, {
          appointedAt: '2023-12-04',
          ceasedAt: '2024-03-01',
          address: insolvency,
          source: administration,
        }),
        personRole('AD', coastal.company, { appointedAt: '2024-03-01', address: insolvency, source: deed }),
      ],
      licences: [
        licence('RQ', '401234', 'APPR', '1995-02-01', null, {
          address: insolvency,
          source: book.lodge('902', '1995-02-01'),
        }),
      ],
      documents: book.documents,
    }),
    personRecord({
      match: {
        registryIdentifier: middle,
        name,
        birth: birth('1971-09-30', 'NEWCASTLE', 'NSW'),
        formerName: personName('NOWAK', 'ANNA MARIA'),
      },
      roles: [
        personRole('DR', companies(SANDBOX.smallChargesExtract).company, {
          appointedAt: '2018-05-01',
          address: australianAddress('9 LAKE STREET', 'STRAHAN', 'TAS', '7468'),
          source: other.lodge('484', '2018-05-03'),
        }),
      ],
      documents: other.documents,
    }),
    personRecord({
      match: {
        registryIdentifier: younger,
        name,
        birth: birth('1986-01-05', 'PERTH', 'WA'),
        formerName: null,
      },
      roles: [
        personRole('SR', companies(SANDBOX.hugeChargesExtract).company, {
          appointedAt: '2014-02-10',
          ceasedAt: '2020-06-30',
          source: youngest.lodge('484', '2020-07-02'),
        }),
      ],
      documents: youngest.documents,
    }),
    personRecord({
      match: {
        registryIdentifier: SANDBOX_PEOPLE.namesakePrefix.registryIdentifier,
        name: personName('KOWALSKI', 'ANNABEL'),
        birth: birth('1990-11-11', 'HOBART', 'TAS'),
        formerName: null,
      },
      roles: [personRole('DR', companies(SANDBOX.preAsicAddresses).company, { appointedAt: '2019-03-01' })],
    }),
    personRecord({
      match: {
        registryIdentifier: SANDBOX_PEOPLE.namesakeOtherOrder.registryIdentifier,
        name: personName('KOWALSKI', 'MARIA ANNA'),
        birth: birth('1964-07-21', 'WARSAW', 'POLAND'),
        formerName: null,
      },
      roles: [
        personRole('SR', companies(SANDBOX.preAsicAddresses).company, {
          appointedAt: '1992-01-01',
          ceasedAt: '2019-02-28',
        }),
      ],
    }),
  ];
}

function charityDirector(companies: Companies): PersonRecord {
  const charity = companies(SANDBOX.charity);
  const association = companies(SANDBOX.association);
  const book = new PersonBook(5);
  const board = book.file(charity, '484', '2015-11-04');
  return personRecord({
    match: {
      registryIdentifier: SANDBOX_PEOPLE.charityDirector.registryIdentifier,
      name: personName('MACKENZIE-REID', 'ELEANOR GRACE'),
      birth: birth('1962-08-19', 'ARMIDALE', 'NSW'),
      formerName: personName('MACKENZIE', 'ELEANOR GRACE'),
    },
    roles: [
      personRole('SR', association.company, { appointedAt: '2016-07-01' }),
      personRole('DR', association.company, { appointedAt: '2004-03-01', ceasedAt: '2016-06-30' }),
      personRole('DR', charity.company, {
        appointedAt: '2015-11-02',
        address: australianAddress('4 DANGAR STREET', 'ARMIDALE', 'NSW', '2350'),
        source: board,
      }),
    ],
    documents: book.documents,
  });
}

function shareholder(companies: Companies): PersonRecord {
  const carrington = companies(SANDBOX.preAsicAddresses).company;
  const ironbark = companies(SANDBOX.satisfiedCharges).company;
  const crossings = companies(SANDBOX.smallChargesExtract).company;
  const coastal = companies(SANDBOX.externalAdministration).company;
  const book = new PersonBook(6);
  const joined = book.lodge('484', '2003-08-12', { subForms: [['484G', 'Notification of share issue']] });
  const bought = book.lodge('484', '2012-02-20', { subForms: [['484G', 'Notification of share issue']] });
  const sold = book.lodge('484', '2021-09-03');
  const resigned = book.lodge('370', '2016-05-31', { pageCount: 1 });
  const home = australianAddress('27 VICTORIA STREET', 'MAITLAND', 'NSW', '2320');
  return personRecord({
    match: {
      registryIdentifier: SANDBOX_PEOPLE.shareholder.registryIdentifier,
      name: personName('PAPADOPOULOS', 'GEORGE'),
      birth: birth('1966-03-25', 'THESSALONIKI', 'GREECE'),
      formerName: null,
    },
    roles: [
      memberRole(crossings, { status: 'E', ceasedAt: '2021-09-01', source: sold }),
      personRole('DR', carrington, { appointedAt: '2003-08-11', address: home, source: joined }),
      memberRole(carrington, { source: joined }),
      personRole('SR', coastal, { appointedAt: '2011-02-01', ceasedAt: '2016-05-31', source: resigned }),
      memberRole(ironbark, { source: bought }),
    ],
    shareholdings: [
      shareholding(crossings, 'ORD', 'ORDINARY SHARES', 1000, { status: 'E', source: sold }),
      shareholding(carrington, 'ORD', 'ORDINARY SHARES', 500, { source: joined }),
      shareholding(carrington, 'PREF', 'PREFERENCE SHARES', 100, { beneficiallyHeld: false, source: joined }),
      shareholding(ironbark, 'ORD', 'ORDINARY SHARES', 250, { fullyPaid: false, source: bought }),
    ],
    documents: book.documents,
  });
}

const MANY_ROLES = ['DR', 'SR', 'DR', 'LD', 'DR', 'SR', 'AA'];

/**
 * `count` roles over the ACME WIDGETS companies: the last ten are Member roles, the first five
 * current, the rest ceased. Made by a loop; dates are day arithmetic only.
 */
function manyRoles(companies: Companies, count: number, book: PersonBook): RegistryPersonRole[] {
  const roles: RegistryPersonRole[] = [];
  const source = book.lodge('484', '2019-01-10');
  for (let i = 0; i < count; i++) {
    const company = companies(acmeNumber(1 + (i % SANDBOX.acmeCompanies))).company;
    const current = i < 5;
    const member = i >= count - 10;
    const appointedAt = addDays('1985-01-07', i * 13);
    const ceasedAt = current ? null : addDays(appointedAt, 40 + (i % 60));
    roles.push(
      member
        ? memberRole(company, { ceasedAt })
        : personRole(MANY_ROLES[i % MANY_ROLES.length] ?? 'DR', company, {
            appointedAt,
            ceasedAt,
            source: i % 100 === 0 ? source : null,
          }),
    );
  }
  return roles;
}

/** ACME WIDGETS `n` (1 to 120): the eight digits 99001000 + n, then the check digit. */
const acmeNumber = (n: number): string => acnWithCheckDigit(String(99_001_000 + n));

function halloran(companies: Companies): PersonRecord[] {
  const bridget = new PersonBook(7);
  const bernard = new PersonBook(8);
  return [
    personRecord({
      match: {
        registryIdentifier: SANDBOX_PEOPLE.roles999.registryIdentifier,
        name: personName('HALLORAN', 'BRIDGET ANNE'),
        birth: birth('1960-01-01', 'GEELONG', 'VIC'),
        formerName: null,
      },
      roles: manyRoles(companies, 999, bridget),
      documents: bridget.documents,
    }),
    personRecord({
      match: {
        registryIdentifier: SANDBOX_PEOPLE.roles1000.registryIdentifier,
        name: personName('HALLORAN', 'BERNARD JOSEPH'),
        birth: birth('1955-05-05', 'GEELONG', 'VIC'),
        formerName: null,
      },
      roles: manyRoles(companies, 1000, bernard),
      documents: bernard.documents,
    }),
  ];
}

function disqualified(companies: Companies): PersonRecord {
  const book = new PersonBook(9);
  const home = australianAddress('6 SWAN STREET', 'FREMANTLE', 'WA', '6160');
  return personRecord({
    match: {
      registryIdentifier: SANDBOX_PEOPLE.disqualified.registryIdentifier,
      name: personName('DRAKE', 'VICTOR JAMES'),
      birth: birth('1958-02-14', 'PERTH', 'WA'),
      formerName: null,
    },
    roles: [
      personRole('DR', companies(SANDBOX.deregisteredUnknownReason).company, {
        appointedAt: '2002-10-31',
        ceasedAt: '2019-08-02',
        address: home,
      }),
      personRole('DR', companies(SANDBOX.externalAdministration).company, {
        appointedAt: '2012-03-01',
        ceasedAt: '2021-05-31',
        address: home,
        source: book.lodge('484', '2021-06-02'),
      }),
    ],
    licences: [
      licence('FR', '000245117', 'NOAC', '2001-03-01', '2008-12-31', { address: home }),
      licence('DD', '000312440', 'APPR', '2021-06-01', '2031-05-31', {
        status: 'C',
        address: home,
        source: book.lodge('902', '2021-06-01'),
      }),
      licence('DD', '000198032', 'NOAC', '2009-01-15', '2012-01-14', {
        address: home,
        source: book.lodge('902', '2009-01-15'),
      }),
    ],
    documents: book.documents,
  });
}

function banned(companies: Companies): PersonRecord {
  const book = new PersonBook(10);
  const office = australianAddress('100 EAGLE STREET', 'BRISBANE', 'QLD', '4000', { line1: 'LEVEL 3' });
  const ban = book.lodge('902', '2022-09-12');
  const lapsed = book.lodge('902', '2006-04-01');
  return personRecord({
    match: {
      registryIdentifier: SANDBOX_PEOPLE.banned.registryIdentifier,
      name: personName('FAIRWEATHER', 'ROSALIE JANE'),
      birth: birth('1971-11-03', 'BRISBANE', 'QLD'),
      formerName: null,
    },
    roles: [
      personRole('SR', companies(SANDBOX.strikeOff).company, {
        appointedAt: '2014-02-03',
        ceasedAt: '2022-09-30',
        address: office,
      }),
    ],
    licences: [
      licence('FR', '000281334', 'SUSP', '2012-07-01', '2022-09-11', { address: office }),
      licence('FX', '000400017', 'APPR', '2022-09-12', null, { address: office, source: ban }),
      licence('BS', '000150921', 'NOAC', '2006-04-01', '2011-03-31', { source: lapsed }),
      licence('BF', '000150922', 'NOAC', '2006-04-01', '2011-03-31', { source: lapsed }),
    ],
    documents: book.documents,
  });
}

function noBirthDate(companies: Companies): PersonRecord {
  const zenith = companies(SANDBOX.unknownCodes);
  const book = new PersonBook(11);
  const registration = book.file(zenith, '201', '2017-03-17');
  const odd = book.file(zenith, '9ZZ', '2022-02-22');
  const shop = australianAddress('88 RUNDLE MALL', 'ADELAIDE', 'SA', '5000');
  return personRecord({
    match: {
      registryIdentifier: SANDBOX_PEOPLE.noBirthDate.registryIdentifier,
      name: personName('QUINN', 'ZARA'),
      birth: null,
      formerName: null,
    },
    roles: [
      personRole('ZX', zenith.company, { appointedAt: '2022-02-22', address: shop, source: odd }),
      personRole('DR', zenith.company, { appointedAt: '2017-03-17', address: shop, source: registration }),
    ],
    documents: book.documents,
  });
}

const CITIZEN_FIRST_NAMES = [
  'JOHN',
  'JANE',
  'JACK',
  'JESSICA',
  'JAMES',
  'JULIA',
  'JOSHUA',
  'JASMINE',
  'JACOB',
  'JADE',
  'JORDAN',
  'JOY',
];
const CITIZEN_SECOND_NAMES = [
  'ALAN',
  'BETH',
  'COLIN',
  'DIANE',
  'EDWARD',
  'FAYE',
  'GORDON',
  'HOPE',
  'IAN',
  'KAY',
];

/**
 * 120 CITIZENs, one role each (a ceased directorship of an ACME WIDGETS company). The first 100
 * are born 1950 to 1989, the last 20 from 1990: one range selects exactly 100.
 */
function citizens(companies: Companies): PersonRecord[] {
  const people: PersonRecord[] = [];
  const first = Number(SANDBOX_PEOPLE.citizens.firstIdentifier);
  for (let i = 0; i < SANDBOX_PEOPLE.citizens.count; i++) {
    const given = `${CITIZEN_FIRST_NAMES[i % CITIZEN_FIRST_NAMES.length]} ${CITIZEN_SECOND_NAMES[Math.floor(i / CITIZEN_FIRST_NAMES.length)]}`;
    const born = i < 100 ? addDays('1950-01-01', i * 146) : addDays('1990-01-01', (i - 100) * 200);
    const appointedAt = addDays('2019-01-08', i);
    people.push(
      personRecord({
        match: {
          registryIdentifier: String(first + i),
          name: personName('CITIZEN', given),
          birth: birth(born, 'CANBERRA', 'ACT'),
          formerName: null,
        },
        roles: [
          personRole('DR', companies(acmeNumber(1 + i)).company, {
            appointedAt,
            ceasedAt: addDays(appointedAt, 365 + i),
          }),
        ],
      }),
    );
  }
  return people;
}

/** The sandbox people, their roles pointing at `records` (the sandbox organisations). */
export function buildSandboxPeople(records: readonly CompanyRecord[]): PersonRecord[] {
  const byNumber = new Map(records.map((record) => [record.company.number, record]));
  const companies: Companies = (number) => {
    const record = byNumber.get(number);
    if (!record) throw new Error(`No sandbox organisation ${number}`);
    return record;
  };
  return [
    director(companies),
    ...namesakes(companies),
    charityDirector(companies),
    shareholder(companies),
    ...halloran(companies),
    disqualified(companies),
    banned(companies),
    noBirthDate(companies),
    ...citizens(companies),
  ];
}

let people: PersonRecord[] | undefined;

/** The sandbox people, built on first call and shared afterwards (treat as read-only). */
export function sandboxPeople(): readonly PersonRecord[] {
  people ??= buildSandboxPeople(sandboxRecords());
  return people;
}
