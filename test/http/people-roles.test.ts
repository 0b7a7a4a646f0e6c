import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import {
  type ApiResponse,
  buyExtract,
  buyPeople,
  call,
  clock,
  createKey,
  expectError,
  type Meta,
  type RoleRecord,
  searchedPeople,
  type TestKey,
  validationError,
} from '../support/api.ts';
import { ROLE_ORDER } from '../support/spec.ts';

/**
 * GET /v1/people/{personId}/roles: a person's company roles read free from a held person extract
 * (spec document 2, 4.5; document 1, 2.1, 2.2, 2.6 and 2.9; document 3, 7.6 and 7.7;
 * docs/decisions/0045-people.md). Every test buys what it needs with a fresh test key.
 */

interface ExtractRef {
  id: string;
  type: string;
  purchasedAt: string;
  asOf: string;
}

interface RolesBody {
  object: 'list';
  data: RoleRecord[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number;
  extract: ExtractRef;
  meta: Meta;
}

interface Bought {
  id: string;
  type: string;
  purchasedAt: string;
  asOf: string;
  expiresAt: string;
  roles: RoleRecord[];
}

interface Person {
  key: TestKey;
  searchId: string;
  personId: string;
}

afterEach(async () => {
  await clock.reset();
});

/** Searches with `key` (a fresh test key by default) and takes the match whose formatted name is given. */
async function person(
  familyName: string,
  givenName: string,
  formatted: string,
  key?: TestKey,
): Promise<Person> {
  const owner = key ?? (await createKey('test'));
  const search = await searchedPeople(owner.secret, familyName, givenName);
  const match = search.data.find((candidate) => candidate.name.formatted === formatted);
  if (!match) throw new Error(`${formatted} not found by ${familyName} / ${givenName}`);
  return { key: owner, searchId: search.id, personId: match.id };
}

const director = (key?: TestKey) => person("O'BRIEN", 'MICHAEL', "MICHAEL PATRICK O'BRIEN", key);

/** Buys one person extract and returns it. */
async function buy(
  who: Person,
  options: { history?: boolean; includeShareholdings?: boolean } = {},
): Promise<Bought> {
  const response = await buyPeople<{ data: Bought[] }>(who.key.secret, {
    searchId: who.searchId,
    personIds: [who.personId],
    ...options,
  });
  expect(response.status, response.text.slice(0, 500)).toBe(201);
  return response.body.data[0] as Bought;
}

const refOf = (extract: Bought): ExtractRef => ({
  id: extract.id,
  type: extract.type,
  purchasedAt: extract.purchasedAt,
  asOf: extract.asOf,
});

const roles = (who: Person, query = '', key: TestKey = who.key) =>
  call<RolesBody>(`/v1/people/${who.personId}/roles${query}`, { key: key.secret });

/** A whole 200 page: envelope, free meta, the extract read, and the records. */
function expectRoles(
  response: ApiResponse<RolesBody>,
  extract: Bought,
  data: RoleRecord[],
  page: { totalCount?: number; hasMore?: boolean } = {},
) {
  expect(response.status, response.text.slice(0, 500)).toBe(200);
  expect(response.body).toStrictEqual({
    object: 'list',
    data,
    hasMore: page.hasMore ?? false,
    nextCursor: page.hasMore ? expect.any(String) : null,
    totalCount: page.totalCount ?? data.length,
    extract: refOf(extract),
    meta: { billable: false, product: null, requestId: response.headers.get('x-request-id') },
  });
}

function expectExtractRequired(response: ApiResponse<unknown>, who: Person, history: boolean) {
  expectError(response, 402, {
    type: 'extract_required_error',
    code: 'extract_required',
    param: null,
    details: {
      purchase: {
        method: 'POST',
        path: '/v1/people/extracts',
        body: { searchId: who.searchId, personIds: [who.personId], history },
        product: 'person_extract',
      },
    },
  });
}

const STATUS_ORDER: Record<string, number> = { C: 0, F: 1, E: 2 };
const roleRank = (code: string) =>
  code === 'SH' ? 1000 : ROLE_ORDER.includes(code) ? ROLE_ORDER.indexOf(code) : 500;

/** The registry's order: role display order, current before ceased, ceased newest first, SH last. */
function expectRegistryOrder(records: RoleRecord[]) {
  for (let i = 1; i < records.length; i++) {
    const [a, b] = [records[i - 1] as RoleRecord, records[i] as RoleRecord];
    const where = `records ${i - 1} and ${i}: ${JSON.stringify([a.role.code, a.status.code, a.ceasedAt])} then ${JSON.stringify([b.role.code, b.status.code, b.ceasedAt])}`;
    expect(roleRank(a.role.code), where).toBeLessThanOrEqual(roleRank(b.role.code));
    if (roleRank(a.role.code) !== roleRank(b.role.code)) continue;
    expect(STATUS_ORDER[a.status.code], where).toBeLessThanOrEqual(STATUS_ORDER[b.status.code] as number);
    if (a.status.code === 'E' && b.status.code === 'E') {
      expect((a.ceasedAt as string) >= (b.ceasedAt as string), where).toBe(true);
    }
  }
}

const rows = (records: RoleRecord[]) => records.map((r) => [r.role.code, r.status.code, r.company.acn]);
const isCurrent = (record: RoleRecord) => record.status.code !== 'E';

describe('which extract a roles read uses', () => {
  it('no extract held → 402 extract_required naming the purchase (history true for former and all)', async () => {
    const who = await director();
    expectExtractRequired(await roles(who), who, false);
    expectExtractRequired(await roles(who, '?status=current'), who, false);
    expectExtractRequired(await roles(who, '?status=former'), who, true);
    expectExtractRequired(await roles(who, '?status=all'), who, true);
  });

  it('only a current extract: current roles by default; former and all → 402 with history true', async () => {
    const who = await director();
    const current = await buy(who);
    const response = await roles(who);
    expectRoles(response, current, current.roles);
    expect(rows(response.body.data)).toStrictEqual([
      ['DR', 'C', SANDBOX.public],
      ['DR', 'F', SANDBOX.unknownCodes],
      ['SR', 'C', SANDBOX.satisfiedCharges],
      ['LD', 'C', SANDBOX.hugeChargesExtract],
    ]);
    expectRoles(await roles(who, '?status=current'), current, current.roles);
    expectExtractRequired(await roles(who, '?status=former'), who, true);
    expectExtractRequired(await roles(who, '?status=all'), who, true);
    expectExtractRequired(await roles(who, `?status=all&extract=${current.id}`), who, true);
  });

  it('a current extract without current roles → 200 with an empty list', async () => {
    const who = await person('DRAKE', 'VICTOR', 'VICTOR JAMES DRAKE');
    const current = await buy(who);
    expectRoles(await roles(who), current, []);
    expectExtractRequired(await roles(who, '?status=former'), who, true);
  });

  it('the most recent extract by default; an older one when named', async () => {
    const who = await director();
    const current = await buy(who);
    await clock.advance(60_000);
    const historical = await buy(who, { history: true, includeShareholdings: true });
    const byDefault = await roles(who);
    expectRoles(byDefault, historical, historical.roles.filter(isCurrent));
    const named = await roles(who, `?extract=${current.id}`);
    expectRoles(named, current, current.roles);
    // A newer current extract still leaves former roles to the historical one.
    await clock.advance(60_000);
    const newer = await buy(who);
    expectRoles(await roles(who), newer, newer.roles);
    expectRoles(
      await roles(who, '?status=former'),
      historical,
      historical.roles.filter((r) => !isCurrent(r)),
    );
  });

  it('a second search of the same person gives a new id that reads the extract bought through the first', async () => {
    const first = await director();
    const bought = await buy(first, { history: true });
    const second = await director(first.key);
    expect(second.personId).not.toBe(first.personId);
    expect(second.searchId).not.toBe(first.searchId);
    expectRoles(await roles(second, '?status=all'), bought, bought.roles);
    // Another account finding the same person holds nothing.
    const stranger = await director();
    expectExtractRequired(await roles(stranger), stranger, false);
  });
});

describe('status and role[] filters remove records and never reorder', () => {
  it('a historical extract with shareholdings: all, current, former and role filters', async () => {
    const who = await director();
    const extract = await buy(who, { history: true, includeShareholdings: true });
    const all = await roles(who, '?status=all');
    expectRoles(all, extract, extract.roles);
    expect(all.body.data).toHaveLength(11);
    expectRegistryOrder(all.body.data);
    expect(rows(all.body.data)).toStrictEqual([
      ['EO', 'E', SANDBOX.largeCompany],
      ['DR', 'C', SANDBOX.public],
      ['DR', 'F', SANDBOX.unknownCodes],
      ['DR', 'E', SANDBOX.deregisteredUnknownReason],
      ['DR', 'E', SANDBOX.deregistered],
      ['DR', 'E', SANDBOX.proprietary],
      ['SR', 'C', SANDBOX.satisfiedCharges],
      ['SR', 'E', SANDBOX.proprietary],
      ['SR', 'E', SANDBOX.strikeOff],
      ['LD', 'C', SANDBOX.hugeChargesExtract],
      ['SH', 'E', SANDBOX.proprietary],
    ]);
    const unfiltered = all.body.data;
    const cases: [string, (r: RoleRecord) => boolean][] = [
      ['', isCurrent],
      ['?status=current', isCurrent],
      ['?status=former', (r) => !isCurrent(r)],
      ['?status=all&role[]=DR', (r) => r.role.code === 'DR'],
      ['?status=all&role[]=SH&role[]=DR', (r) => r.role.code === 'DR' || r.role.code === 'SH'],
      ['?status=former&role[]=SR&role[]=EO', (r) => !isCurrent(r) && ['SR', 'EO'].includes(r.role.code)],
      ['?role[]=DR&role[]=DR', (r) => isCurrent(r) && r.role.code === 'DR'],
      // A plain repeated `role` is accepted too.
      ['?status=all&role=SR&role=LD', (r) => ['SR', 'LD'].includes(r.role.code)],
      ['?status=all&role[]=SH', (r) => r.role.code === 'SH'],
      ['?status=all&role[]=AA', () => false],
    ];
    for (const [query, keep] of cases) {
      const response = await roles(who, query);
      expectRoles(response, extract, unfiltered.filter(keep));
    }
    const member = (await roles(who, '?status=all&role[]=SH')).body.data[0];
    expect(member).toStrictEqual({
      object: 'role',
      role: { code: 'SH', label: 'Member' },
      status: { code: 'E', label: 'Ceased/Former' },
      appointedAt: null,
      ceasedAt: '2016-03-04',
      company: expect.objectContaining({ acn: SANDBOX.proprietary, registeredCharity: false }),
      address: null,
      sourceDocument: { documentNumber: expect.any(String), qualifier: null },
    });
  });

  it('a role record: coded role and status, dates, company summary, address and source document', async () => {
    const who = await director();
    await buy(who);
    const company = await call<Record<string, unknown>>(`/v1/companies/${SANDBOX.public}`, {
      key: who.key.secret,
    });
    expect(company.status, company.text).toBe(200);
    const [first] = (await roles(who, '?role[]=DR')).body.data;
    expect(first).toStrictEqual({
      object: 'role',
      role: { code: 'DR', label: 'Director' },
      status: { code: 'C', label: 'Current' },
      appointedAt: '2020-02-03',
      ceasedAt: null,
      company: {
        acn: SANDBOX.public,
        formatted: SANDBOX.public.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3'),
        numberType: { code: 'ACN', label: 'Australian Company Number' },
        name: company.body.name,
        type: company.body.type,
        status: company.body.status,
        abn: company.body.abn,
        registeredCharity: false,
      },
      address: expect.objectContaining({ locality: 'ORANGE', postcode: '2800' }),
      sourceDocument: { documentNumber: expect.stringMatching(/^9P/), qualifier: null },
    });
  });

  it('Member (SH) roles only from an extract bought with includeShareholdings', async () => {
    const who = await person('PAPADOPOULOS', 'GEORGE', 'GEORGE PAPADOPOULOS');
    const without = await buy(who);
    expectRoles(await roles(who, '?role[]=SH'), without, []);
    expect(rows((await roles(who)).body.data)).toStrictEqual([['DR', 'C', SANDBOX.preAsicAddresses]]);
    await clock.advance(60_000);
    const withShares = await buy(who, { includeShareholdings: true, history: true });
    const all = await roles(who, '?status=all');
    expectRoles(all, withShares, withShares.roles);
    expect(rows(all.body.data)).toStrictEqual([
      ['DR', 'C', SANDBOX.preAsicAddresses],
      ['SR', 'E', SANDBOX.externalAdministration],
      ['SH', 'C', SANDBOX.preAsicAddresses],
      ['SH', 'C', SANDBOX.satisfiedCharges],
      ['SH', 'E', SANDBOX.smallChargesExtract],
    ]);
    expectRegistryOrder(all.body.data);
    expectRoles(
      await roles(who, '?role[]=SH'),
      withShares,
      withShares.roles.filter((r) => r.role.code === 'SH' && isCurrent(r)),
    );
    expectRoles(await roles(who, `?role[]=SH&extract=${without.id}`), without, []);
  });

  it('role[] and a repeated role given together: both filter, and an unknown code in either is refused', async () => {
    const who = await director();
    const extract = await buy(who, { history: true });
    const all = (await roles(who, '?status=all')).body.data;
    expectRoles(
      await roles(who, '?status=all&role[]=DR&role=SR'),
      extract,
      all.filter((r) => ['DR', 'SR'].includes(r.role.code)),
    );
    const mixed = await roles(who, '?status=all&role[]=DR&role=XX');
    expect(mixed.status, mixed.text.slice(0, 300)).toBe(422);
    // Each parameter is checked on its own (the contract's enum): the unknown code is `role`'s.
    expectError(mixed, 422, validationError('role'));
  });

  it('registeredCharity is true only on directorships of a registered charity', async () => {
    const who = await person('MACKENZIE-REID', 'ELEANOR', 'ELEANOR GRACE MACKENZIE-REID');
    await buy(who, { history: true });
    const all = (await roles(who, '?status=all')).body.data;
    expect(
      all.map((r) => [r.role.code, r.status.code, r.company.acn, r.company.registeredCharity]),
    ).toStrictEqual([
      ['DR', 'C', SANDBOX.charity, true],
      ['DR', 'E', SANDBOX.association, true],
      ['SR', 'C', SANDBOX.association, false],
    ]);
  });

  it('a role the tables do not know comes after every known one', async () => {
    const who = await person('QUINN', 'ZARA', 'ZARA QUINN');
    await buy(who);
    const data = (await roles(who)).body.data;
    expect(data.map((r) => r.role.code)).toStrictEqual(['DR', 'ZX']);
    expect(data[1]?.role).toStrictEqual({ code: 'ZX', label: 'ZX' });
  });
});

describe('pages: 999 roles, 100 a page', () => {
  it('10 pages with the total on each, in order, the whole extract; a cursor with other filters → 400', async () => {
    const who = await person('HALLORAN', 'BRIDGET', 'BRIDGET ANNE HALLORAN');
    const extract = await buy(who, { history: true, includeShareholdings: true });
    expect(extract.roles).toHaveLength(999);
    const read = await call<{ roles: RoleRecord[] }>(`/v1/extracts/${extract.id}`, { key: who.key.secret });
    expect(read.body.roles).toStrictEqual(extract.roles);

    const pages: RolesBody[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?status=all&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await roles(who, query);
      const last = pages.length === 9;
      expectRoles(response, extract, extract.roles.slice(pages.length * 100, pages.length * 100 + 100), {
        totalCount: 999,
        hasMore: !last,
      });
      pages.push(response.body);
      cursor = response.body.nextCursor;
    } while (cursor && pages.length < 12);
    expect(pages.map((page) => page.data.length)).toStrictEqual([
      100, 100, 100, 100, 100, 100, 100, 100, 100, 99,
    ]);
    const whole = pages.flatMap((page) => page.data);
    expectRegistryOrder(whole);
    expect(whole.slice(-10).every((r) => r.role.code === 'SH')).toBe(true);
    expect(whole.filter((r) => r.role.code === 'SH')).toHaveLength(10);

    // The default page size is 20; the current roles are the five current office roles.
    const firstPage = await roles(who, '?status=all');
    expectRoles(firstPage, extract, extract.roles.slice(0, 20), { totalCount: 999, hasMore: true });
    expectRoles(await roles(who), extract, extract.roles.filter(isCurrent));
    expect((await roles(who)).body.totalCount).toBe(5);
    const members = await roles(who, '?status=all&role[]=SH');
    expectRoles(
      members,
      extract,
      extract.roles.filter((r) => r.role.code === 'SH'),
    );

    // limit may change between pages; the filters may not.
    const next = encodeURIComponent(pages[0]?.nextCursor as string);
    const smaller = await roles(who, `?status=all&limit=5&cursor=${next}`);
    expectRoles(smaller, extract, extract.roles.slice(100, 105), { totalCount: 999, hasMore: true });
    for (const query of [
      `?status=current&limit=100&cursor=${next}`,
      `?limit=100&cursor=${next}`,
      `?status=all&role[]=DR&limit=100&cursor=${next}`,
    ]) {
      expectError(await roles(who, query), 400, validationError('cursor'));
    }
    expectError(await roles(who, '?status=all&cursor=garbage'), 400, validationError('cursor'));
    // A cursor lives 30 minutes.
    await clock.advance(31 * 60_000);
    expectError(await roles(who, `?status=all&limit=100&cursor=${next}`), 400, validationError('cursor'));
  });
});

describe('rejections', () => {
  it.each([
    ['?role[]=XX', 'role[0]'],
    ['?role[]=DR&role[]=QQ', 'role[1]'],
    ['?role[]=dr', 'role[0]'],
    ['?role[]=', 'role[0]'],
    ['?role=DR&role=NOPE', 'role[1]'],
    ['?status=bogus', 'status'],
    ['?status=CURRENT', 'status'],
    ['?status=current&status=all', 'status'],
    ['?extract=ext_nope', 'extract'],
    ['?extract=ord_000000000000000000000000', 'extract'],
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=abc', 'limit'],
    ['?kind=person', 'kind'],
  ])('%s → 422 validation_error on %s', async (query, param) => {
    const who = await director();
    await buy(who, { history: true });
    expectError(await roles(who, query), 422, validationError(param));
  });

  it('a malformed person id → 422 on personId; an unknown one → 404 person_not_found', async () => {
    const key = await createKey('test');
    for (const id of ['prs_123', `psr_${'0'.repeat(24)}`]) {
      expectError(
        await call(`/v1/people/${id}/roles`, { key: key.secret }),
        422,
        validationError('personId'),
      );
    }
    expectError(await call(`/v1/people/prs_${'0'.repeat(24)}/roles`, { key: key.secret }), 404, {
      type: 'not_found_error',
      code: 'person_not_found',
      param: 'personId',
    });
  });

  it('a person of another account or of the other environment → 403 search_owner_mismatch', async () => {
    const who = await director();
    await buy(who);
    const mismatch = { type: 'permission_error', code: 'search_owner_mismatch', param: 'personId' };
    expectError(await roles(who, '', await createKey('test')), 403, mismatch);
    expectError(
      await roles(who, '', await createKey('live', { accountId: who.key.accountId })),
      403,
      mismatch,
    );
  });

  it('an extract that is not a person extract of this person → 404 extract_not_found on extract', async () => {
    const who = await director();
    await buy(who);
    const notFound = { type: 'not_found_error', code: 'extract_not_found', param: 'extract' };
    // Another person's extract, same account.
    const namesake = await person('KOWALSKI', 'ANNA', 'ANNABEL KOWALSKI', who.key);
    const theirs = await buy(namesake);
    expectError(await roles(who, `?extract=${theirs.id}`), 404, notFound);
    // A company extract, same account.
    const company = await buyExtract(who.key.secret, SANDBOX.public, 'current');
    expect(company.status).toBe(201);
    expectError(await roles(who, `?extract=${company.body.id}`), 404, notFound);
    // No extract has the id.
    expectError(await roles(who, `?extract=ext_${'0'.repeat(24)}`), 404, notFound);
  });

  it('another account’s or environment’s extract of the same person → 403 extract_owner_mismatch', async () => {
    const who = await director();
    await buy(who);
    const mismatch = { type: 'permission_error', code: 'extract_owner_mismatch', param: 'extract' };
    const stranger = await director();
    const theirs = await buy(stranger, { history: true });
    expectError(await roles(who, `?status=all&extract=${theirs.id}`), 403, mismatch);
    const live = await director(await createKey('live', { accountId: who.key.accountId }));
    const liveExtract = await buy(live);
    expectError(await roles(who, `?extract=${liveExtract.id}`), 403, mismatch);
  });

  it('12 months on: the extract → 410 extract_expired; by default the expired search → 410 search_expired', async () => {
    const who = await director();
    const extract = await buy(who, { history: true });
    // After the search's 30 days the held extract still serves the old person id.
    await clock.advance(31 * 86_400_000);
    expectRoles(await roles(who, '?status=all'), extract, extract.roles);
    await clock.advance(Date.parse(extract.expiresAt) - Date.now());
    expectError(await roles(who, `?extract=${extract.id}`), 410, {
      type: 'invalid_request_error',
      code: 'extract_expired',
      param: 'extract',
    });
    expectError(await roles(who), 410, {
      type: 'invalid_request_error',
      code: 'search_expired',
      param: 'personId',
    });
    // A new search names the purchase to make: the expired extract no longer counts.
    const again = await director(who.key);
    expectExtractRequired(await roles(again), again, false);
    expectExtractRequired(await roles(again, '?status=former'), again, true);
  });
});
