import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DERIVED_PEOPLE_FIRST_IDENTIFIER,
  SIMULATOR_PEOPLE,
  SMITH_FIRST_IDENTIFIER,
  simulatorDataset,
} from '../../local/generated-data.ts';
import { type RegistrySimulator, startRegistrySimulator } from '../../local/registry-simulator.ts';
import { SANDBOX, sandboxRecords } from '../../shared/adapters/sandbox/data/companies.ts';
import { organisation } from '../../shared/adapters/sandbox/data/company-builders.ts';
import {
  buildSandboxPeople,
  SANDBOX_PEOPLE,
  sandboxPeople,
} from '../../shared/adapters/sandbox/data/people.ts';
import { memberRole, personName, personRole } from '../../shared/adapters/sandbox/data/person-builders.ts';
import {
  buildDataset,
  normalizePersonName,
  type PersonRecord,
  personRecord,
} from '../../shared/adapters/sandbox/dataset.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import { HttpRegistry } from '../../shared/composition/registry/http-registry.ts';
import {
  buildSandboxDataset,
  createSandboxRegistry,
  sandboxDataset,
} from '../../shared/composition/registry/sandbox.ts';
import { logger } from '../../shared/kernel/observability.ts';
import { comparePersonRoles, sortLicences, sortPersonRoles } from '../../shared/kernel/registry-ordering.ts';
import { type RegistryCompany, RegistryRejection } from '../../shared/kernel/registry-port.ts';
import { personNoticeText } from '../../shared/people/adapters/sandbox.ts';
import {
  MAX_ROLES_PER_NAME,
  type PeopleSearchQuery,
  type PersonExtractOptions,
  type RegistryPersonExtract,
  type RegistryPersonRole,
} from '../../shared/people/registry-port.ts';

const caller = { accountId: 'acct_test', requestId: 'req_test' };
/** A fresh client key for each billable call. */
let keys = 0;
const nextKey = () => `key_${++keys}`;
const NOW = new Date('2025-07-01T09:30:00.456Z');
const registry = createSandboxRegistry(() => NOW);
const P = SANDBOX_PEOPLE;

async function rejected(promise: Promise<unknown>): Promise<RegistryRejection> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistryRejection);
  return error as RegistryRejection;
}

const code = async (promise: Promise<unknown>) => (await rejected(promise)).registryCode;
const rejection = async (promise: Promise<unknown>) => {
  const error = await rejected(promise);
  return [error.registryCode, error.details];
};

const q = (
  familyName: string,
  givenName: string,
  birthDateFrom: string | null = null,
  birthDateTo: string | null = null,
): PeopleSearchQuery => ({ familyName, givenName, birthDateFrom, birthDateTo });

const search = (query: PeopleSearchQuery) => registry.searchPeople(query, caller);
const ids = async (query: PeopleSearchQuery) =>
  (await search(query)).matches.map((m) => m.registryIdentifier);

const HISTORY_ALL: PersonExtractOptions = { history: true, includeShareholdings: true };
const HISTORY: PersonExtractOptions = { history: true, includeShareholdings: false };
const CURRENT: PersonExtractOptions = { history: false, includeShareholdings: false };
const CURRENT_SHARES: PersonExtractOptions = { history: false, includeShareholdings: true };

const extract = (id: string, options: PersonExtractOptions) =>
  registry.purchasePersonExtract(id, options, caller, nextKey());

/** role:status:company:appointedAt:ceasedAt */
const roles = (e: Pick<RegistryPersonExtract, 'roles'>) =>
  e.roles.map((r) => `${r.role}:${r.status}:${r.company.number}:${r.appointedAt ?? ''}:${r.ceasedAt ?? ''}`);
const licences = (e: RegistryPersonExtract) =>
  e.licences.map(
    (l) => `${l.type}:${l.status}:${l.licenceStatus}:${l.licenceNumber}:${l.from}:${l.to ?? ''}`,
  );
const holdings = (e: RegistryPersonExtract) =>
  e.shareholdings.map((s) => `${s.company.number}:${s.classCode}:${s.status}:${s.sharesHeld}`);
const documents = (e: RegistryPersonExtract) =>
  e.documents.map((d) => `${d.documentNumber}:${d.formCode}:${d.receivedAt}`);

const person = (id: string): PersonRecord => {
  const found = sandboxDataset().byRegistryIdentifier.get(id);
  if (!found) throw new Error(`no sandbox person ${id}`);
  return found;
};

describe('sandbox people data', () => {
  const documented = [
    P.director.registryIdentifier,
    ...P.namesakes.registryIdentifiers,
    P.namesakePrefix.registryIdentifier,
    P.namesakeOtherOrder.registryIdentifier,
    P.charityDirector.registryIdentifier,
    P.shareholder.registryIdentifier,
    P.roles999.registryIdentifier,
    P.roles1000.registryIdentifier,
    P.disqualified.registryIdentifier,
    P.banned.registryIdentifier,
    P.noBirthDate.registryIdentifier,
    P.citizens.firstIdentifier,
    P.citizens.lastIdentifier,
  ];

  it('has every documented person under its identifier and names, and no one under the unknown one', () => {
    expect(documented).toHaveLength(15);
    expect(new Set(documented).size).toBe(15);
    for (const id of documented) expect(id).toMatch(/^990\d{6}$/);
    const named = [
      P.director,
      P.namesakePrefix,
      P.namesakeOtherOrder,
      P.charityDirector,
      P.shareholder,
      P.roles999,
      P.roles1000,
      P.disqualified,
      P.banned,
      P.noBirthDate,
    ];
    for (const { registryIdentifier, familyName, givenName } of named) {
      const { name } = person(registryIdentifier).match;
      expect([name.familyName, name.givenNames.join(' ')]).toEqual([familyName, givenName]);
    }
    for (const id of P.namesakes.registryIdentifiers) {
      expect(person(id).match.name).toEqual({ familyName: 'KOWALSKI', givenNames: ['ANNA', 'MARIA'] });
    }
    expect(sandboxDataset().byRegistryIdentifier.has(P.unknownIdentifier)).toBe(false);
    expect(sandboxPeople()).toHaveLength(13 + 120);
    expect(sandboxDataset().people).toHaveLength(133);
  });

  it('counts every role record, Member roles included, in roleCount', () => {
    for (const record of sandboxPeople()) expect(record.match.roleCount).toBe(record.roles.length);
    expect(person(P.director.registryIdentifier).match.roleCount).toBe(11);
    expect(person(P.roles999.registryIdentifier).match.roleCount).toBe(999);
    expect(person(P.roles1000.registryIdentifier).match.roleCount).toBe(1000);
    expect(person(P.roles1000.registryIdentifier).roles.filter((r) => r.role === 'SH')).toHaveLength(10);
  });

  it('keeps person documents with status and priced null, numbered like every document', () => {
    const all = sandboxPeople().flatMap((record) => record.documents);
    expect(all.length).toBeGreaterThan(20);
    for (const document of all) {
      expect([document.status, document.priced]).toEqual([null, null]);
      expect(document.documentNumber).toMatch(/^\d[0-9A-Z]{8}$/);
    }
  });

  it('agrees with the company records that list the same person', () => {
    const company = (number: string) => sandboxDataset().byNumber.get(number);
    const holderRoles = (number: string, familyName: string) =>
      (company(number)?.officeholders ?? [])
        .filter((holder) => holder.party.person?.familyName === familyName)
        .map((holder) => `${holder.role}:${holder.status}:${holder.appointedAt}:${holder.ceasedAt ?? ''}`)
        .sort();
    const personRoles = (id: string, number: string) =>
      person(id)
        .roles.filter((role) => role.company.number === number && role.role !== 'SH')
        .map((role) => `${role.role}:${role.status}:${role.appointedAt}:${role.ceasedAt ?? ''}`)
        .sort();
    expect(personRoles(P.director.registryIdentifier, SANDBOX.proprietary)).toEqual(
      holderRoles(SANDBOX.proprietary, "O'BRIEN"),
    );
    expect(personRoles(P.namesakes.registryIdentifiers[0], SANDBOX.externalAdministration)).toEqual(
      holderRoles(SANDBOX.externalAdministration, 'KOWALSKI'),
    );
    expect(personRoles(P.noBirthDate.registryIdentifier, SANDBOX.unknownCodes)).toEqual(
      holderRoles(SANDBOX.unknownCodes, 'QUINN'),
    );
    for (const number of [SANDBOX.charity, SANDBOX.association]) {
      expect(personRoles(P.charityDirector.registryIdentifier, number)).toEqual(
        holderRoles(number, 'MACKENZIE-REID'),
      );
    }
    expect(company(SANDBOX.charity)?.company).toMatchObject({
      name: 'GREAT DIVIDE RURAL HEALTH FOUNDATION LIMITED',
      type: 'APUB',
      class: 'LMGT',
      subClass: 'ULSN',
      registeredCharity: true,
    });
    expect(company(SANDBOX.association)?.company.registeredCharity).toBe(true);
  });

  it('is deterministic, memoised, and cheap to build', () => {
    const first = buildSandboxDataset();
    expect(buildSandboxDataset().people).toEqual(first.people);
    expect(first.people).toEqual(sandboxDataset().people);
    expect(sandboxPeople()).toBe(sandboxPeople());
    const records = sandboxRecords();
    buildSandboxPeople(records);
    const times = Array.from({ length: 3 }, () => {
      const start = performance.now();
      buildSandboxPeople(records);
      return performance.now() - start;
    });
    expect(Math.min(...times)).toBeLessThan(30);
  });

  it('builds people given as a function on first use only', () => {
    const people = vi.fn(() => [sandboxPeople()[0] as PersonRecord]);
    const dataset = buildDataset(sandboxRecords().slice(0, 2), people);
    expect(dataset.byNumber.size).toBe(2);
    expect(people).not.toHaveBeenCalled();
    expect(dataset.byRegistryIdentifier.has(P.director.registryIdentifier)).toBe(true);
    expect(dataset.people).toHaveLength(1);
    expect(people).toHaveBeenCalledTimes(1);
  });

  it('refuses duplicate registry identifiers and identifiers that are not one to nine digits', () => {
    const [one] = sandboxPeople();
    if (!one) throw new Error('no people');
    expect(() => buildDataset([], [one, structuredClone(one)])).toThrow(
      'Duplicate registry identifier 990100001',
    );
    const renamed = (registryIdentifier: string) => ({ ...one, match: { ...one.match, registryIdentifier } });
    expect(() => buildDataset([], [renamed('1234567890')])).toThrow(/not one to nine digits/);
    expect(() => buildDataset([], [renamed('12A')])).toThrow(/not one to nine digits/);
    expect(buildDataset([], [renamed('7')]).byRegistryIdentifier.has('7')).toBe(true);
  });

  it('normalises person names: case, apostrophes and hyphens, letters of every script kept', () => {
    expect(normalizePersonName("o'brien")).toBe('OBRIEN');
    expect(normalizePersonName('O’BRIEN')).toBe('OBRIEN');
    expect(normalizePersonName('Mackenzie-Reid')).toBe('MACKENZIE REID');
    expect(normalizePersonName('  anna   maria ')).toBe('ANNA MARIA');
    expect(normalizePersonName('müller')).toBe('MÜLLER');
    expect(normalizePersonName('mu\u0308ller')).toBe('MÜLLER');
    expect(normalizePersonName('MÖLLER')).not.toBe(normalizePersonName('MÜLLER'));
  });
});

describe('searchPeople: rejections', () => {
  it('PN01 without a family name, PN02 without a given name (family name checked first)', async () => {
    expect(await code(search(q('', 'ANNA')))).toBe('PN01');
    expect(await code(search(q('   ', 'ANNA')))).toBe('PN01');
    expect(await code(search({ givenName: 'ANNA' } as PeopleSearchQuery))).toBe('PN01');
    expect(await code(search(q('', '')))).toBe('PN01');
    expect(await code(search(q('KOWALSKI', '')))).toBe('PN02');
    expect(await code(search(q('KOWALSKI', ' ')))).toBe('PN02');
    expect(await code(search({ familyName: 'KOWALSKI' } as PeopleSearchQuery))).toBe('PN02');
  });

  it('PN03 for characters other than letters, hyphens, apostrophes and spaces, in either name', async () => {
    for (const [familyName, givenName] of [
      ['SMITH2', 'ANNA'],
      ['SMITH & CO', 'ANNA'],
      ['KOWALSKI', 'ANNA.'],
      ['KOWALSKI', 'ANNA_MARIA'],
      ['KOWALSKI', 'ANNA*'],
    ] as const) {
      const error = await rejected(search(q(familyName, givenName)));
      expect([error.registryCode, error.message]).toEqual([
        'PN03',
        'Names may hold only letters, hyphens, apostrophes and spaces.',
      ]);
    }
    // Letters of any script, hyphens and both apostrophes are allowed: these find nobody.
    expect(await rejection(search(q('MÜLLER', 'ZOË')))).toEqual([
      'PN51',
      { counts: { returned: 0, found: 0 } },
    ]);
    expect(await ids(q('O’BRIEN', 'MICHAEL'))).toEqual([P.director.registryIdentifier]);
  });

  it('PN05 for half a range or a date that is not YYYY-MM-DD', async () => {
    expect(await code(search(q('KOWALSKI', 'ANNA', '1970-01-01', null)))).toBe('PN05');
    expect(await code(search(q('KOWALSKI', 'ANNA', null, '1970-01-01')))).toBe('PN05');
    expect(await code(search(q('KOWALSKI', 'ANNA', '1970-02-30', '1980-01-01')))).toBe('PN05');
    expect(await code(search(q('KOWALSKI', 'ANNA', '1970-01-01', '01/01/1980')))).toBe('PN05');
  });

  it('PN06 when the range starts after today (the registry clock), PN07 when it starts after it ends', async () => {
    expect(await code(search(q('KOWALSKI', 'ANNA', '2025-07-02', '2025-12-31')))).toBe('PN06');
    expect(await code(search(q('KOWALSKI', 'ANNA', '2025-07-02', '2025-01-01')))).toBe('PN06');
    expect(await rejection(search(q('KOWALSKI', 'ANNA', '2025-07-01', '2025-07-01')))).toEqual([
      'PN51',
      { counts: { returned: 0, found: 4 } },
    ]);
    expect(await code(search(q('KOWALSKI', 'ANNA', '1990-01-01', '1980-01-01')))).toBe('PN07');
  });

  it('PN51 with counts when nothing is found, or everything found is outside the birth-date range', async () => {
    expect(await rejection(search(P.search.none))).toEqual(['PN51', { counts: { returned: 0, found: 0 } }]);
    expect(await rejection(search(P.search.rejectedByBirthDate))).toEqual([
      'PN51',
      { counts: { returned: 0, found: 4 } },
    ]);
    const noBirth = await rejected(search(P.search.noBirthDateInRange));
    expect([noBirth.registryCode, noBirth.details, noBirth.message]).toEqual([
      'PN51',
      { counts: { returned: 0, found: 1 } },
      '1 name matches, but none in the birth-date range.',
    ]);
    // The family name must be equal, not a prefix.
    expect(await rejection(search(q('MACKENZIE', 'ELEANOR')))).toEqual([
      'PN51',
      { counts: { returned: 0, found: 0 } },
    ]);
  });

  it('PN52 with counts over 100 people; exactly 100 is answered', async () => {
    expect(await rejection(search(P.search.tooMany))).toEqual([
      'PN52',
      { counts: { returned: 0, found: 120 } },
    ]);
    expect(await rejection(search(q('CITIZEN', 'J', '1950-01-01', '1990-01-01')))).toEqual([
      'PN52',
      { counts: { returned: 0, found: 120 } },
    ]);
    const hundred = await search(P.search.hundred);
    expect([hundred.found, hundred.matches.length]).toEqual([120, 100]);
    for (const match of hundred.matches) {
      expect(match.birth?.date && match.birth.date >= '1950-01-01' && match.birth.date <= '1989-12-31').toBe(
        true,
      );
    }
  });
});

describe('searchPeople: matching and order', () => {
  it('matches the family name after normalisation: case, apostrophes and hyphens', async () => {
    for (const familyName of ["O'BRIEN", 'OBRIEN', "o'brien", 'O’BRIEN', " O'BRIEN "]) {
      expect(await ids(q(familyName, 'M'))).toEqual([P.director.registryIdentifier]);
    }
    for (const familyName of ['MACKENZIE-REID', 'MACKENZIE REID', 'mackenzie-reid']) {
      expect(await ids(q(familyName, 'ELEANOR'))).toEqual([P.charityDirector.registryIdentifier]);
    }
  });

  it('matches each query word against the start of the given name in the same place', async () => {
    const [older, middle, younger] = P.namesakes.registryIdentifiers;
    const annabel = P.namesakePrefix.registryIdentifier;
    expect(await ids(P.search.namesakes)).toEqual([older, middle, younger, annabel]);
    expect(await ids(q('KOWALSKI', 'A'))).toEqual([older, middle, younger, annabel]);
    expect(await ids(q('KOWALSKI', 'ANNA M'))).toEqual([older, middle, younger]);
    expect(await ids(q('KOWALSKI', 'ANNA-MARIA'))).toEqual([older, middle, younger]);
    expect(await ids(q('KOWALSKI', 'ANNABEL'))).toEqual([annabel]);
    expect(await ids(q('KOWALSKI', 'MARIA'))).toEqual([P.namesakeOtherOrder.registryIdentifier]);
    expect(await ids(q('KOWALSKI', 'M A'))).toEqual([P.namesakeOtherOrder.registryIdentifier]);
    expect(await code(search(q('KOWALSKI', 'ANNA MARIA X')))).toBe('PN51');
    expect(await code(search(q('KOWALSKI', 'MARIA MARIA')))).toBe('PN51');
    expect(await ids(q('MACKENZIE-REID', 'E G'))).toEqual([P.charityDirector.registryIdentifier]);
    expect((await search(q('CITIZEN', 'JOHN'))).found).toBe(10);
    expect((await search(q('CITIZEN', 'JO'))).found).toBe(40);
  });

  it('orders by family name, given names, birth date, then identifier', async () => {
    const citizens = await search(q('CITIZEN', 'JOHN'));
    expect(citizens.matches.map((m) => m.name.givenNames.join(' '))).toEqual([
      'JOHN ALAN',
      'JOHN BETH',
      'JOHN COLIN',
      'JOHN DIANE',
      'JOHN EDWARD',
      'JOHN FAYE',
      'JOHN GORDON',
      'JOHN HOPE',
      'JOHN IAN',
      'JOHN KAY',
    ]);
    expect(citizens.matches.map((m) => m.registryIdentifier)).toEqual(
      [1, 13, 25, 37, 49, 61, 73, 85, 97, 109].map((n) => String(990_101_000 + n)),
    );
    // Same names and birth dates: none last, then identifiers as numbers (7 before 10).
    const company = organisation({
      number: '990000014',
      name: 'X PTY LTD',
      type: 'APTY',
      status: 'REGD',
      registeredAt: null,
    });
    const twin = (registryIdentifier: string, date: string | null, given = 'ANN') =>
      personRecord({
        match: {
          registryIdentifier,
          name: personName('TWIN', given),
          birth: date === null ? null : { date, locality: 'X', stateOrCountry: 'NSW' },
          formerName: null,
        },
        roles: [personRole('DR', company, { appointedAt: '2020-01-01' })],
      });
    const twins = new DatasetRegistry(
      buildDataset(
        [],
        [
          twin('10', null),
          twin('9', '1980-01-01'),
          twin('100', '1970-01-01'),
          twin('7', null),
          twin('8', '1970-01-01'),
          twin('5', '1960-01-01', 'ANNE'),
        ],
      ),
      () => NOW,
    );
    const answer = await twins.searchPeople(q('TWIN', 'ANN'), caller);
    expect(answer.matches.map((m) => m.registryIdentifier)).toEqual(['8', '100', '9', '7', '10', '5']);
  });

  it('counts found before the birth-date range, both ends included, people without a birth date dropped', async () => {
    const inRange = await search(P.search.birthRange);
    expect([inRange.found, inRange.matches.map((m) => m.registryIdentifier)]).toEqual([
      4,
      [P.namesakes.registryIdentifiers[1]],
    ]);
    expect(await ids(q('KOWALSKI', 'ANNA', '1971-09-30', '1971-09-30'))).toEqual([
      P.namesakes.registryIdentifiers[1],
    ]);
    expect(await ids(q('KOWALSKI', 'ANNA', '1958-04-12', '1986-01-05'))).toEqual(
      P.namesakes.registryIdentifiers,
    );
    expect(await ids(q('QUINN', 'ZARA'))).toEqual([P.noBirthDate.registryIdentifier]);
  });

  it('answers the search match: names, birth, former name and role count', async () => {
    expect(await search(P.search.director)).toEqual({
      found: 1,
      matches: [
        {
          registryIdentifier: '990100001',
          name: { familyName: "O'BRIEN", givenNames: ['MICHAEL', 'PATRICK'] },
          birth: { date: '1975-06-01', locality: 'DUBLIN', stateOrCountry: 'IRELAND' },
          formerName: { familyName: "O'BRIAIN", givenNames: ['MICHEAL', 'PADRAIG'] },
          roleCount: 11,
        },
      ],
    });
    const halloran = await search(q('HALLORAN', 'B'));
    expect(
      halloran.matches.map((m) => [m.registryIdentifier, m.name.givenNames.join(' '), m.roleCount]),
    ).toEqual([
      ['990100010', 'BERNARD JOSEPH', 1000],
      ['990100009', 'BRIDGET ANNE', 999],
    ]);
    const quinn = await search(P.search.withoutApostrophe);
    expect(quinn.matches[0]?.registryIdentifier).toBe(P.director.registryIdentifier);
    expect((await search(q('QUINN', 'Z'))).matches[0]?.birth).toBeNull();
  });

  it('answers copies', async () => {
    const first = await search(P.search.director);
    const match = first.matches[0];
    if (!match) throw new Error('no match');
    match.name.familyName = 'CHANGED';
    match.roleCount = 0;
    expect((await search(P.search.director)).matches[0]?.name.familyName).toBe("O'BRIEN");
    expect(person(P.director.registryIdentifier).match.roleCount).toBe(11);
  });
});

describe('purchasePersonExtract', () => {
  it('historical with shareholdings: every role in display order, Member roles last', async () => {
    const e = await extract(P.director.registryIdentifier, HISTORY_ALL);
    expect([e.type, e.asOf]).toEqual(['historical', '2025-07-01T09:30:00Z']);
    expect(e.person).toEqual(person(P.director.registryIdentifier).match);
    expect(roles(e)).toEqual([
      'EO:E:990000201:1999-03-01:2004-06-30',
      'DR:C:990000023:2020-02-03:',
      'DR:F:990000176:2030-01-01:',
      // Ceased the same day: the newer appointment first.
      'DR:E:990000112:2008-10-20:2021-03-15',
      'DR:E:990000103:2005-04-01:2021-03-15',
      'DR:E:990000014:2012-01-16:2019-11-30',
      'SR:C:990000149:2019-12-02:',
      'SR:E:990000014:2012-01-16:2018-09-30',
      'SR:E:990000121:2009-04-01:2015-08-31',
      'LD:C:990000167:2021-07-01:',
      'SH:E:990000014::2016-03-04',
    ]);
    expect(holdings(e)).toEqual(['990000014:A:E:100']);
    expect(e.licences).toEqual([]);
    expect(e.notices).toEqual([]);
    expect(documents(e)).toEqual([
      '9P0010003:484:2025-05-30',
      '9P0010002:484:2021-07-05',
      '9P0010004:370:2021-03-10',
      '9P0010001:484:2020-02-05',
      '9E0010012:484:2019-12-02',
      '9E0010010:484:2018-10-03',
      '9E0010008:2205:2016-03-04',
      '9E0010003:484:2012-01-20',
    ]);
    for (const document of e.documents) expect([document.status, document.priced]).toEqual([null, null]);
    expect(e.roles.find((r) => r.role === 'SH')?.appointedAt).toBeNull();
  });

  it('historical without shareholdings: no Member roles, no shareholdings', async () => {
    const e = await extract(P.director.registryIdentifier, HISTORY);
    expect(roles(e)).toHaveLength(10);
    expect(roles(e).some((r) => r.startsWith('SH:'))).toBe(false);
    expect(e.shareholdings).toEqual([]);
  });

  it('current: C and F roles only, every document', async () => {
    const e = await extract(P.director.registryIdentifier, CURRENT);
    expect(e.type).toBe('current');
    expect(roles(e)).toEqual([
      'DR:C:990000023:2020-02-03:',
      'DR:F:990000176:2030-01-01:',
      'SR:C:990000149:2019-12-02:',
      'LD:C:990000167:2021-07-01:',
    ]);
    expect(documents(e)).toHaveLength(8);
    expect((await extract(P.director.registryIdentifier, CURRENT_SHARES)).roles).toHaveLength(4);
  });

  it('shareholdings: current and ceased with history, current only without, none unless asked', async () => {
    const id = P.shareholder.registryIdentifier;
    const all = await extract(id, HISTORY_ALL);
    expect(roles(all)).toEqual([
      'DR:C:990000130:2003-08-11:',
      'SR:E:990000096:2011-02-01:2016-05-31',
      'SH:C:990000130::',
      'SH:C:990000149::',
      'SH:E:990000158::2021-09-01',
    ]);
    expect(holdings(all)).toEqual([
      '990000130:ORD:C:500',
      '990000130:PREF:C:100',
      '990000149:ORD:C:250',
      '990000158:ORD:E:1000',
    ]);
    expect(all.shareholdings[1]).toMatchObject({
      classDescription: 'PREFERENCE SHARES',
      fullyPaid: true,
      beneficiallyHeld: false,
    });
    const current = await extract(id, CURRENT_SHARES);
    expect(roles(current)).toEqual(['DR:C:990000130:2003-08-11:', 'SH:C:990000130::', 'SH:C:990000149::']);
    expect(holdings(current)).toEqual(['990000130:ORD:C:500', '990000130:PREF:C:100', '990000149:ORD:C:250']);
    const without = await extract(id, HISTORY);
    expect(roles(without)).toEqual(['DR:C:990000130:2003-08-11:', 'SR:E:990000096:2011-02-01:2016-05-31']);
    expect(without.shareholdings).toEqual([]);
    expect(roles(await extract(id, CURRENT))).toEqual(['DR:C:990000130:2003-08-11:']);
  });

  it('acnc_charity: one notice per registered charity of a current directorship', async () => {
    const id = P.charityDirector.registryIdentifier;
    const notice = {
      type: 'acnc_charity',
      acn: SANDBOX.charity,
      text:
        'GREAT DIVIDE RURAL HEALTH FOUNDATION LIMITED is registered with the Australian Charities and ' +
        'Not-for-profits Commission. Details of its responsible persons are held on the ACNC Charity ' +
        'Register, which should also be consulted.',
    };
    const historical = await extract(id, HISTORY_ALL);
    expect(roles(historical)).toEqual([
      'DR:C:990000185:2015-11-02:',
      'DR:E:990000087:2004-03-01:2016-06-30',
      'SR:C:990000087:2016-07-01:',
    ]);
    // Both companies are registered charities; only the current directorship gives a notice.
    expect(historical.roles.map((r) => r.company.registeredCharity)).toEqual([true, true, true]);
    expect(historical.notices).toEqual([notice]);
    const current = await extract(id, CURRENT);
    expect(roles(current)).toEqual(['DR:C:990000185:2015-11-02:', 'SR:C:990000087:2016-07-01:']);
    expect(current.notices).toEqual([notice]);
  });

  it('same_name: for each namesake, never for a prefix or another order of the names', async () => {
    const notice = {
      type: 'same_name',
      acn: null,
      text:
        'Other people are recorded under the same name. This extract covers only the name record ' +
        'identified; check the birth details before relying on it.',
    };
    for (const id of P.namesakes.registryIdentifiers) {
      expect((await extract(id, CURRENT)).notices).toEqual([notice]);
    }
    expect((await extract(P.namesakePrefix.registryIdentifier, HISTORY_ALL)).notices).toEqual([]);
    expect((await extract(P.namesakeOtherOrder.registryIdentifier, HISTORY_ALL)).notices).toEqual([]);
    const administrator = await extract(P.namesakes.registryIdentifiers[0], HISTORY_ALL);
    expect(roles(administrator)).toEqual([
      'AC:E:990000096:2023-12-04:2024-03-01',
      'AD:C:990000096:2024-03-01:',
    ]);
    expect(licences(administrator)).toEqual(['RQ:C:APPR:401234:1995-02-01:']);
    expect(roles(await extract(P.namesakes.registryIdentifiers[0], CURRENT))).toEqual([
      'AD:C:990000096:2024-03-01:',
    ]);
  });

  it('licences: disqualified and banned people, ceased licences only with history', async () => {
    const disqualified = await extract(P.disqualified.registryIdentifier, HISTORY_ALL);
    expect(roles(disqualified)).toEqual([
      'DR:E:990000096:2012-03-01:2021-05-31',
      'DR:E:990000112:2002-10-31:2019-08-02',
    ]);
    expect(licences(disqualified)).toEqual([
      'DD:C:APPR:000312440:2021-06-01:2031-05-31',
      'DD:E:NOAC:000198032:2009-01-15:2012-01-14',
      'FR:E:NOAC:000245117:2001-03-01:2008-12-31',
    ]);
    const disqualifiedNow = await extract(P.disqualified.registryIdentifier, CURRENT);
    expect([disqualifiedNow.roles, licences(disqualifiedNow)]).toEqual([
      [],
      ['DD:C:APPR:000312440:2021-06-01:2031-05-31'],
    ]);
    expect(licences(await extract(P.banned.registryIdentifier, HISTORY))).toEqual([
      'BF:E:NOAC:000150922:2006-04-01:2011-03-31',
      'BS:E:NOAC:000150921:2006-04-01:2011-03-31',
      'FR:E:SUSP:000281334:2012-07-01:2022-09-11',
      'FX:C:APPR:000400017:2022-09-12:',
    ]);
    expect(licences(await extract(P.banned.registryIdentifier, CURRENT))).toEqual([
      'FX:C:APPR:000400017:2022-09-12:',
    ]);
  });

  it('a person without a birth date; unknown roles after the known ones', async () => {
    const e = await extract(P.noBirthDate.registryIdentifier, CURRENT);
    expect(e.person.birth).toBeNull();
    expect(roles(e)).toEqual(['DR:C:990000176:2017-03-17:', 'ZX:C:990000176:2022-02-22:']);
    expect(documents(e)).toEqual(['9E0170002:9ZZ:2022-02-22', '9E0170001:201:2017-03-17']);
  });

  it('999 roles is an extract; 1,000 is PE51', async () => {
    expect(MAX_ROLES_PER_NAME).toBe(999);
    const id = P.roles999.registryIdentifier;
    const all = await extract(id, HISTORY_ALL);
    expect([all.person.roleCount, all.roles.length]).toEqual([999, 999]);
    expect(all.roles.slice(-10).every((r) => r.role === 'SH')).toBe(true);
    expect((await extract(id, HISTORY)).roles).toHaveLength(989);
    expect(roles(await extract(id, CURRENT))).toEqual([
      'DR:C:990010056:1985-02-28:',
      'DR:C:990010038:1985-02-02:',
      'DR:C:990010010:1985-01-07:',
      'SR:C:990010029:1985-01-20:',
      'LD:C:990010047:1985-02-15:',
    ]);
    for (const options of [HISTORY_ALL, CURRENT]) {
      const error = await rejected(extract(P.roles1000.registryIdentifier, options));
      expect([error.registryCode, error.message, error.details]).toEqual([
        'PE51',
        'The name holds 1000 roles; an extract is available up to 999.',
        undefined,
      ]);
    }
  });

  it('PE03 for an unknown or malformed identifier; RS02 for options that are not booleans', async () => {
    for (const id of [P.unknownIdentifier, '1234567890', 'abc', '']) {
      expect(await code(extract(id, CURRENT))).toBe('PE03');
    }
    expect(await code(extract(P.director.registryIdentifier, { history: 'yes' } as never))).toBe('RS02');
    expect(
      await code(extract(P.director.registryIdentifier, { history: true, includeShareholdings: 1 } as never)),
    ).toBe('RS02');
    expect(await code(extract(P.unknownIdentifier, undefined as never))).toBe('RS02');
  });

  it('answers copies', async () => {
    const first = await extract(P.director.registryIdentifier, HISTORY_ALL);
    (first.roles[0] as RegistryPersonRole).company.name = 'CHANGED';
    first.person.roleCount = 0;
    const second = await extract(P.director.registryIdentifier, HISTORY_ALL);
    expect(second.roles[0]?.company.name).toBe('MERIDIAN NATIONAL HOLDINGS LIMITED');
    expect(second.person.roleCount).toBe(11);
  });

  it('acnc_charity counts current (C and F) directorships once per company, in role order', async () => {
    const company = (number: string, name: string, registeredCharity: boolean): RegistryCompany =>
      organisation({
        number,
        name,
        type: 'APUB',
        status: 'REGD',
        registeredAt: '2000-01-01',
        registeredCharity,
      });
    const first = company('990000014', 'FIRST CHARITY LIMITED', true);
    const second = company('990000023', 'SECOND CHARITY LIMITED', true);
    const plain = company('990000032', 'PLAIN LIMITED', false);
    const ceased = company('990000041', 'CEASED CHARITY LIMITED', true);
    const record = personRecord({
      match: { registryIdentifier: '42', name: personName('TEST', 'PERSON'), birth: null, formerName: null },
      roles: [
        personRole('DR', second, { status: 'F', appointedAt: '2030-01-01' }),
        personRole('SR', first, { appointedAt: '2001-01-01' }),
        personRole('DR', first, { appointedAt: '2001-01-01' }),
        personRole('DR', first, { status: 'F', appointedAt: '2031-01-01' }),
        personRole('DR', plain, { appointedAt: '2001-01-01' }),
        personRole('DR', ceased, { appointedAt: '2001-01-01', ceasedAt: '2010-01-01' }),
        memberRole(first),
      ],
    });
    const own = new DatasetRegistry(buildDataset([], [record]), () => NOW);
    const e = await own.purchasePersonExtract('42', CURRENT, caller, nextKey());
    expect(e.notices.map((n) => [n.type, n.acn, n.text])).toEqual([
      ['acnc_charity', '990000014', personNoticeText.acncCharity(first)],
      ['acnc_charity', '990000023', personNoticeText.acncCharity(second)],
    ]);
  });
});

describe('person role and licence order', () => {
  const company = (number: string) =>
    organisation({
      number,
      name: `C${number}`,
      type: 'APTY',
      status: 'REGD',
      registeredAt: '2000-01-01',
      abn: null,
    });
  const role = (
    code: string,
    status: string,
    appointedAt: string | null,
    ceasedAt: string | null,
    number = '1',
  ) => personRole(code, company(number), { status, appointedAt, ceasedAt });
  const label = (r: RegistryPersonRole) =>
    `${r.role}:${r.status}:${r.appointedAt ?? ''}:${r.ceasedAt ?? ''}:${r.company.number}`;

  it('display order of roles, unknown roles by code, Member roles last', () => {
    const sorted = sortPersonRoles([
      role('SH', 'C', null, null),
      role('ZX', 'C', '2001-01-01', null),
      role('SB', 'C', '2001-01-01', null),
      role('DR', 'C', '2001-01-01', null),
      role('AB', 'C', '2001-01-01', null),
      role('RN', 'C', '2001-01-01', null),
      role('SR', 'C', '2001-01-01', null),
      role('EO', 'C', '2001-01-01', null),
    ]);
    expect(sorted.map((r) => r.role)).toEqual(['RN', 'EO', 'DR', 'SR', 'SB', 'AB', 'ZX', 'SH']);
  });

  it('within a role: C, F, then ceased newest first, then newest appointment, then company number', () => {
    const list = [
      role('SH', 'E', null, '2010-01-01', '5'),
      role('DR', 'E', '2001-01-01', null, '1'),
      role('DR', 'E', '2001-01-01', '2015-01-01', '2'),
      role('DR', 'F', '2030-01-01', null, '3'),
      role('DR', 'E', '2005-01-01', '2015-01-01', '4'),
      role('DR', 'C', null, null, '5'),
      role('DR', 'C', '2001-01-01', null, '7'),
      role('DR', 'C', '2001-01-01', null, '6'),
      role('DR', 'E', '2001-01-01', '2020-01-01', '8'),
      role('SH', 'C', null, null, '9'),
    ];
    expect(sortPersonRoles(list).map(label)).toEqual([
      'DR:C:2001-01-01::6',
      'DR:C:2001-01-01::7',
      'DR:C:::5',
      'DR:F:2030-01-01::3',
      'DR:E:2001-01-01:2020-01-01:8',
      'DR:E:2005-01-01:2015-01-01:4',
      'DR:E:2001-01-01:2015-01-01:2',
      'DR:E:2001-01-01::1',
      'SH:C:::9',
      'SH:E::2010-01-01:5',
    ]);
    expect(sortPersonRoles(list)).not.toBe(list);
    expect(comparePersonRoles(list[0] as RegistryPersonRole, list[0] as RegistryPersonRole)).toBe(0);
  });

  it('licences by type in the person-licence-roles order, current first, then ceased newest first', () => {
    const licence = (type: string, status: string, from: string, to: string | null, licenceNumber = '1') => ({
      type,
      status,
      licenceNumber,
      licenceStatus: 'APPR',
      from,
      to,
      address: null,
      sourceDocument: null,
    });
    const sorted = sortLicences([
      licence('RA', 'C', '2001-01-01', null),
      licence('ZZ', 'C', '2001-01-01', null),
      licence('DD', 'E', '2001-01-01', '2005-01-01'),
      licence('DD', 'E', '2002-01-01', '2008-01-01'),
      licence('DD', 'C', '2010-01-01', '2030-01-01'),
      licence('BF', 'E', '2001-01-01', '2002-01-01'),
    ]);
    expect(sorted.map((l) => `${l.type}:${l.status}:${l.to ?? ''}`)).toEqual([
      'BF:E:2002-01-01',
      'DD:C:2030-01-01',
      'DD:E:2008-01-01',
      'DD:E:2005-01-01',
      'RA:C:',
      'ZZ:C:',
    ]);
  });
});

describe('simulator people', () => {
  const simulator = new DatasetRegistry(simulatorDataset(), () => NOW);

  it('answers every documented sandbox search exactly as the sandbox does', async () => {
    for (const query of Object.values(P.search)) {
      const sandbox = await search(query).then(
        (answer) => answer,
        (error: RegistryRejection) => [error.registryCode, error.details],
      );
      const simulated = await simulator.searchPeople(query, caller).then(
        (answer) => answer,
        (error: RegistryRejection) => [error.registryCode, error.details],
      );
      expect(simulated, JSON.stringify(query)).toEqual(sandbox);
    }
    for (const id of [P.director.registryIdentifier, P.charityDirector.registryIdentifier]) {
      expect(await simulator.purchasePersonExtract(id, HISTORY_ALL, caller, nextKey())).toEqual(
        await extract(id, HISTORY_ALL),
      );
    }
  });

  it('SMITH JOHN selects exactly 100 people with two to five roles each; SMITH J is PN52', async () => {
    const hundred = await simulator.searchPeople(SIMULATOR_PEOPLE.hundred, caller);
    expect([hundred.found, hundred.matches.length]).toEqual([100, 100]);
    expect(await rejection(simulator.searchPeople(SIMULATOR_PEOPLE.tooMany, caller))).toEqual([
      'PN52',
      { counts: { returned: 0, found: 140 } },
    ]);
    let members = 0;
    let ceased = 0;
    let namesakes = 0;
    for (const match of hundred.matches) {
      expect(match.name.givenNames[0]).toBe('JOHN');
      expect(match.roleCount).toBeGreaterThanOrEqual(2);
      expect(match.roleCount).toBeLessThanOrEqual(5);
      const e = await simulator.purchasePersonExtract(
        match.registryIdentifier,
        HISTORY_ALL,
        caller,
        nextKey(),
      );
      expect(e.roles).toHaveLength(match.roleCount);
      if (e.roles.some((r) => r.role === 'SH')) members += 1;
      if (e.roles.some((r) => r.status === 'E')) ceased += 1;
      if (e.notices.some((n) => n.type === 'same_name')) namesakes += 1;
      expect(e.shareholdings).toHaveLength(e.roles.filter((r) => r.role === 'SH').length);
    }
    expect(members).toBeGreaterThan(15);
    expect(ceased).toBeGreaterThan(30);
    expect(namesakes).toBeGreaterThan(10);
  });

  it('derives a person from each office holder and member of the generated organisations', () => {
    const dataset = simulatorDataset();
    const generated = dataset.companies.filter((record) => record.company.number < '990000000');
    const derived = dataset.people.filter(
      (p) =>
        Number(p.match.registryIdentifier) >= DERIVED_PEOPLE_FIRST_IDENTIFIER &&
        Number(p.match.registryIdentifier) < SMITH_FIRST_IDENTIFIER,
    );
    const roleCount = derived.reduce((total, p) => total + p.roles.length, 0);
    const holders = generated.reduce(
      (total, record) =>
        total +
        record.officeholders.filter((h) => h.party.type === 'person').length +
        record.members.filter((m) => m.party.type === 'person').length,
      0,
    );
    expect(roleCount).toBe(holders);
    expect(derived.length).toBeGreaterThan(5000);
    for (const p of dataset.people) {
      const id = p.match.registryIdentifier;
      if (!id.startsWith('990')) expect(Number(id)).toBeLessThan(990_000_000);
      expect(p.match.roleCount).toBeLessThanOrEqual(P.roles1000.roleCount);
    }
    expect(dataset.people.filter((p) => p.match.name.familyName === 'SMITH')).toHaveLength(140);
  });
});

describe('people over the registry protocol (sandbox behind the simulator)', () => {
  let server: RegistrySimulator;
  let live: HttpRegistry;

  beforeAll(async () => {
    logger.setLogLevel('SILENT');
    server = await startRegistrySimulator({ registry, credential: 'people' });
    live = new HttpRegistry({ baseUrl: server.url, credential: async () => 'people' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('round-trips searches and extracts; rejections keep their codes and counts; extracts are billed', async () => {
    expect(await live.searchPeople(P.search.namesakes, caller)).toEqual(await search(P.search.namesakes));
    expect(
      await live.purchasePersonExtract(P.shareholder.registryIdentifier, CURRENT_SHARES, caller, nextKey()),
    ).toEqual(await extract(P.shareholder.registryIdentifier, CURRENT_SHARES));
    const tooMany = await rejected(live.searchPeople(P.search.tooMany, caller));
    expect([tooMany.registryCode, tooMany.details]).toEqual([
      'PN52',
      { counts: { returned: 0, found: 120 } },
    ]);
    const none = await rejected(live.searchPeople(P.search.rejectedByBirthDate, caller));
    expect([none.registryCode, none.details]).toEqual(['PN51', { counts: { returned: 0, found: 4 } }]);
    expect(
      await code(live.purchasePersonExtract(P.roles1000.registryIdentifier, HISTORY_ALL, caller, nextKey())),
    ).toBe('PE51');
    expect(await code(live.purchasePersonExtract(P.unknownIdentifier, CURRENT, caller, nextKey()))).toBe(
      'PE03',
    );
    expect(server.calls.list().map((c) => [c.operation, c.outcome, c.status, c.billed])).toEqual([
      ['person.search', 'ok', 200, false],
      ['person.extract', 'ok', 200, true],
      ['person.search', 'PN52', 422, false],
      ['person.search', 'PN51', 422, false],
      ['person.extract', 'PE51', 422, false],
      ['person.extract', 'PE03', 422, false],
    ]);
    expect(server.calls.billed()).toBe(1);
  });
});
