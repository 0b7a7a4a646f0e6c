import { afterEach, describe, expect, it } from 'vitest';
import { SIMULATOR_PEOPLE } from '../../local/generated-data.ts';
import { SANDBOX_PEOPLE } from '../../shared/adapters/sandbox/data/people.ts';
import {
  call,
  clock,
  createKey,
  expectError,
  type PersonMatch,
  searchedPeople,
  searchPeople,
  simulator,
  type TestKey,
  validationError,
} from '../support/api.ts';

/**
 * POST /v1/people/searches and GET /v1/people/{personId} (spec document 3, 7.5 and 7.7;
 * docs/decisions/0045-people.md; docs/sandbox.md "People"). Test keys get the sandbox people,
 * live keys the registry simulator (which serves the same sandbox people plus generated SMITHs).
 */

const DAY = 86_400_000;
const P = SANDBOX_PEOPLE;

afterEach(async () => {
  await clock.reset();
  await simulator.clearFaults();
});

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

/** The director's personMatch, as the sandbox shows it (the id is the search's). */
const director = (id: string): PersonMatch => ({
  object: 'person',
  id,
  name: { familyName: "O'BRIEN", givenNames: ['MICHAEL', 'PATRICK'], formatted: "MICHAEL PATRICK O'BRIEN" },
  birth: { date: '1975-06-01', locality: 'DUBLIN', stateOrCountry: 'IRELAND' },
  formerName: {
    familyName: "O'BRIAIN",
    givenNames: ['MICHEAL', 'PADRAIG'],
    formatted: "MICHEAL PADRAIG O'BRIAIN",
  },
});

/** People searches the simulator received for a key's account. */
async function registrySearches(key: TestKey): Promise<number> {
  const { calls } = await simulator.calls();
  return calls.filter((c) => c.accountId === key.accountId && c.operation === 'person.search').length;
}

const noMatches = (found: number, returned = 0) => ({
  type: 'not_found_error',
  code: 'no_matches',
  param: null,
  registryCode: 'PN51',
  details: { counts: { returned, found } },
});

const tooMany = (found: number) => ({
  type: 'invalid_request_error',
  code: 'too_many_matches',
  param: null,
  registryCode: 'PN52',
  details: { counts: { returned: 0, found } },
});

describe('POST /v1/people/searches', () => {
  it('201 with the whole peopleSearch: uppercased names, 30-day expiry, free', async () => {
    const key = await createKey('test');
    const response = await searchPeople(key.secret, { familyName: "  o'brien ", givenName: 'michael' });
    expect(response.status, response.text).toBe(201);
    const body = response.body;
    expect(body.id).toMatch(/^psr_[0-9a-f]{24}$/);
    expect(body.data[0]?.id).toMatch(/^prs_[0-9a-f]{24}$/);
    expect(body).toStrictEqual({
      object: 'peopleSearch',
      id: body.id,
      familyName: "O'BRIEN",
      givenName: 'MICHAEL',
      birthDateFrom: null,
      birthDateTo: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      totalCount: 1,
      found: 1,
      data: [director(body.data[0]?.id as string)],
      meta: { billable: false, product: null, requestId: response.headers.get('x-request-id') },
    });
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(30 * DAY);
    expect(Math.abs(Date.parse(body.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('apostrophes are ignored and a hyphen matches a space; every search gives new ids', async () => {
    const key = await createKey('test');
    const first = await searchedPeople(key.secret, "O'BRIEN", 'MICHAEL');
    const plain = await searchedPeople(key.secret, 'OBRIEN', 'M');
    expect(plain.familyName).toBe('OBRIEN');
    expect(plain.data).toStrictEqual([director(plain.data[0]?.id as string)]);
    expect(plain.id).not.toBe(first.id);
    expect(plain.data[0]?.id).not.toBe(first.data[0]?.id);
    const charity = await searchedPeople(key.secret, 'MACKENZIE REID', 'E G');
    expect(charity.data.map((person) => person.name.formatted)).toStrictEqual([
      'ELEANOR GRACE MACKENZIE-REID',
    ]);
  });

  it('namesakes: four matches in the registry order, each with its own id', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    expect(search.totalCount).toBe(4);
    expect(search.found).toBe(4);
    expect(search.data.map((person) => [person.name.formatted, person.birth?.date])).toStrictEqual([
      ['ANNA MARIA KOWALSKI', '1958-04-12'],
      ['ANNA MARIA KOWALSKI', '1971-09-30'],
      ['ANNA MARIA KOWALSKI', '1986-01-05'],
      ['ANNABEL KOWALSKI', '1990-11-11'],
    ]);
    expect(search.data[1]?.formerName).toStrictEqual({
      familyName: 'NOWAK',
      givenNames: ['ANNA', 'MARIA'],
      formatted: 'ANNA MARIA NOWAK',
    });
    expect(new Set(search.data.map((person) => person.id)).size).toBe(4);
  });

  it('a birth-date range keeps its dates and narrows the matches; found counts before the range', async () => {
    const key = await createKey('test');
    const { familyName, givenName, birthDateFrom, birthDateTo } = P.search.birthRange;
    const search = await searchedPeople(key.secret, familyName, givenName, {
      birthDateFrom: birthDateFrom as string,
      birthDateTo: birthDateTo as string,
    });
    expect(search.birthDateFrom).toBe('1970-01-01');
    expect(search.birthDateTo).toBe('1979-12-31');
    expect(search.totalCount).toBe(1);
    expect(search.found).toBe(4);
    expect(search.data.map((person) => person.birth?.date)).toStrictEqual(['1971-09-30']);
  });

  it('a person without a birth date has birth null', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, 'QUINN', 'ZARA');
    expect(search.data).toHaveLength(1);
    expect(search.data[0]?.birth).toBeNull();
    expect(search.data[0]?.formerName).toBeNull();
  });

  it('exactly 100 matches is the most a search returns (found 120)', async () => {
    const key = await createKey('test');
    const { familyName, givenName, birthDateFrom, birthDateTo } = P.search.hundred;
    const search = await searchedPeople(key.secret, familyName, givenName, {
      birthDateFrom: birthDateFrom as string,
      birthDateTo: birthDateTo as string,
    });
    expect(search.totalCount).toBe(100);
    expect(search.found).toBe(120);
    expect(search.data).toHaveLength(100);
    expect(new Set(search.data.map((person) => person.id)).size).toBe(100);
  });

  it.each([
    ['nobody of that name', P.search.none, 0],
    ['names match but nobody is in the range', P.search.rejectedByBirthDate, 4],
    ['a range leaves out people without a birth date', P.search.noBirthDateInRange, 1],
  ])('%s → 404 no_matches PN51 with the counts', async (_case, query, found) => {
    const key = await createKey('test');
    const body = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== null));
    expectError(await searchPeople(key.secret, body), 404, noMatches(found));
  });

  it('over 100 names → 422 too_many_matches PN52 with the counts', async () => {
    const key = await createKey('test');
    expectError(await searchPeople(key.secret, { familyName: 'CITIZEN', givenName: 'J' }), 422, tooMany(120));
  });

  it('live keys reach the registry: SMITH / JOHN gives exactly 100, SMITH / J is PN52 with found 140', async () => {
    const key = await createKey('live');
    const { familyName, givenName } = SIMULATOR_PEOPLE.hundred;
    const search = await searchedPeople(key.secret, familyName, givenName);
    expect(search.totalCount).toBe(100);
    expect(search.found).toBe(100);
    expect(search.data).toHaveLength(100);
    expect(search.meta.billable).toBe(false);
    expect(search.data.every((person) => person.name.familyName === 'SMITH')).toBe(true);
    expectError(
      await searchPeople(key.secret, { familyName: 'SMITH', givenName: 'J' }),
      422,
      tooMany(SIMULATOR_PEOPLE.tooManyFound),
    );
    expect(await registrySearches(key)).toBe(2);
  });

  it('a maintenance window reaches live searches as 503 with Retry-After 300', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ51', operations: ['person.search'], accountId: key.accountId });
    const response = await searchPeople(key.secret, { familyName: 'SMITH', givenName: 'JOHN' });
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(response.headers.get('retry-after')).toBe('300');
  });
});

describe('people search rejections (checked before the registry is asked)', () => {
  const nameRequired = (param: string) => ({
    type: 'invalid_request_error',
    code: 'name_required',
    param,
  });
  const invalidCharacters = (param: string) => ({
    type: 'invalid_request_error',
    code: 'name_invalid_characters',
    param,
  });
  const rangeInvalid = (param: string) => ({
    type: 'invalid_request_error',
    code: 'birth_date_range_invalid',
    param,
  });

  /** A live key's search: rejected with `status`/`expected`, and the registry never asked. */
  async function expectRejected(
    body: Record<string, unknown>,
    status: number,
    expected: { type: string; code: string; param: string },
  ) {
    const key = await createKey('live');
    expectError(await searchPeople(key.secret, body), status, expected);
    expect(await registrySearches(key)).toBe(0);
  }

  it.each([
    [{ givenName: 'JOHN' }, 'familyName'],
    [{ familyName: '   ', givenName: 'JOHN' }, 'familyName'],
    [{ familyName: '', givenName: 'JOHN' }, 'familyName'],
    [{ familyName: 'SMITH' }, 'givenName'],
    [{ familyName: 'SMITH', givenName: ' ' }, 'givenName'],
    [{}, 'familyName'],
    [{ familyName: ' ', givenName: 'J0HN' }, 'familyName'],
  ])('%j → 400 name_required on %s', async (body, param) => {
    await expectRejected(body, 400, nameRequired(param));
  });

  it.each([
    [{ familyName: 'SMITH2', givenName: 'JOHN' }, 'familyName'],
    [{ familyName: 'SMITH', givenName: 'J.' }, 'givenName'],
    [{ familyName: 'SMITH, JOHN', givenName: 'JOHN' }, 'familyName'],
    [{ familyName: 'SMITH', givenName: 'JOHN_PAUL' }, 'givenName'],
    [{ familyName: 'SMITH&CO', givenName: 'JOHN' }, 'familyName'],
    [{ familyName: 'SMITH', givenName: 'JOHN (JACK)' }, 'givenName'],
  ])('%j → 400 name_invalid_characters on %s', async (body, param) => {
    await expectRejected(body, 400, invalidCharacters(param));
  });

  it('letters of any script, hyphens, apostrophes and spaces are accepted (the registry answers)', async () => {
    const key = await createKey('live');
    for (const body of [
      { familyName: 'ΠΑΠΑΔΌΠΟΥΛΟΣ', givenName: 'ΓΙΏΡΓΟΣ' },
      { familyName: "D'ARCY-SMYTHE", givenName: 'ZOË ANNE' },
      // A typographic apostrophe, and Ë written as E plus a combining diaeresis.
      { familyName: 'O’BRIEN', givenName: 'ZOE\u0308' },
    ]) {
      expectError(await searchPeople(key.secret, body), 404, noMatches(0));
    }
    expect(await registrySearches(key)).toBe(3);
  });

  it.each([
    [{ birthDateFrom: '1970-01-01' }, 'birthDateTo'],
    [{ birthDateTo: '1970-01-01' }, 'birthDateFrom'],
    [{ birthDateFrom: '1980-01-02', birthDateTo: '1980-01-01' }, 'birthDateFrom'],
  ])('range %j → 400 birth_date_range_invalid on %s', async (range, param) => {
    await expectRejected({ familyName: 'SMITH', givenName: 'JOHN', ...range }, 400, rangeInvalid(param));
  });

  it('a range starting in the future → 400 birth_date_range_invalid; one day long is fine', async () => {
    await expectRejected(
      { familyName: 'SMITH', givenName: 'JOHN', birthDateFrom: isoDay(2), birthDateTo: isoDay(3) },
      400,
      rangeInvalid('birthDateFrom'),
    );
    const key = await createKey('live');
    const today = isoDay(0);
    expectError(
      await searchPeople(key.secret, {
        familyName: 'SMITH',
        givenName: 'JOHN',
        birthDateFrom: today,
        birthDateTo: today,
      }),
      404,
      noMatches(SIMULATOR_PEOPLE.hundredCount),
    );
  });

  const smith = { familyName: 'SMITH', givenName: 'JOHN' };
  it.each([
    [{ ...smith, birthDateFrom: '1970-1-1', birthDateTo: '1980-01-01' }, 'birthDateFrom'],
    [{ ...smith, birthDateFrom: '1970-01-01', birthDateTo: '1981-02-29' }, 'birthDateTo'],
    [{ ...smith, birthDateFrom: '1970/01/01', birthDateTo: '1980-01-01' }, 'birthDateFrom'],
    [{ ...smith, birthDateFrom: 19700101, birthDateTo: '1980-01-01' }, 'birthDateFrom'],
    [{ ...smith, birthDateFrom: '1970-01-01T00:00:00Z', birthDateTo: '1980-01-01' }, 'birthDateFrom'],
    [{ familyName: 'S'.repeat(101), givenName: 'JOHN' }, 'familyName'],
    [{ familyName: 'SMITH', givenName: 'J'.repeat(101) }, 'givenName'],
    [{ familyName: 42, givenName: 'JOHN' }, 'familyName'],
    [{ familyName: 'SMITH', givenName: ['JOHN'] }, 'givenName'],
    [{ familyName: 'SMITH', givenName: null }, 'givenName'],
    [{ ...smith, middleName: 'PAUL' }, 'middleName'],
  ])('%j → 422 validation_error on %s', async (body, param) => {
    await expectRejected(body, 422, validationError(param));
  });

  it('a name of exactly 100 characters is accepted', async () => {
    const key = await createKey('live');
    expectError(
      await searchPeople(key.secret, { familyName: 'S'.repeat(100), givenName: 'JOHN' }),
      404,
      noMatches(0),
    );
    expect(await registrySearches(key)).toBe(1);
  });

  it('a body that is not JSON → 400 invalid_json', async () => {
    const key = await createKey('live');
    expectError(
      await call('/v1/people/searches', { key: key.secret, method: 'POST', rawBody: '{"familyName":' }),
      400,
      { type: 'invalid_request_error', code: 'invalid_json', param: null },
    );
  });
});

describe('GET /v1/people/{personId}', () => {
  const getPerson = (secret: string, id: string) =>
    call<PersonMatch & Record<string, unknown>>(`/v1/people/${id}`, { key: secret });

  it('200: the personMatch with its search id and expiry, free', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, "O'BRIEN", 'MICHAEL');
    const id = search.data[0]?.id as string;
    const response = await getPerson(key.secret, id);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toStrictEqual({
      ...director(id),
      searchId: search.id,
      searchExpiresAt: search.expiresAt,
      meta: { billable: false, product: null, requestId: response.headers.get('x-request-id') },
    });
  });

  it('an unknown id → 404 person_not_found; a malformed id → 422 on personId', async () => {
    const key = await createKey('test');
    expectError(await getPerson(key.secret, `prs_${'0'.repeat(24)}`), 404, {
      type: 'not_found_error',
      code: 'person_not_found',
      param: 'personId',
    });
    for (const id of ['prs_123', `psr_${'0'.repeat(24)}`, `prs_${'G'.repeat(24)}`]) {
      expectError(await getPerson(key.secret, id), 422, validationError('personId'));
    }
  });

  it('another account, or the other environment of the same account → 403 search_owner_mismatch', async () => {
    const key = await createKey('test');
    const id = (await searchedPeople(key.secret, 'KOWALSKI', 'ANNA')).data[0]?.id as string;
    const mismatch = { type: 'permission_error', code: 'search_owner_mismatch', param: 'personId' };
    const stranger = await createKey('test');
    expectError(await getPerson(stranger.secret, id), 403, mismatch);
    const live = await createKey('live', { accountId: key.accountId });
    expectError(await getPerson(live.secret, id), 403, mismatch);
  });

  it('answers until the search is 30 days old, then 410 search_expired', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, "O'BRIEN", 'MICHAEL');
    const id = search.data[0]?.id as string;
    await clock.advance(Date.parse(search.expiresAt) - Date.now() - 60_000);
    expect((await getPerson(key.secret, id)).status).toBe(200);
    await clock.advance(60_000);
    const expired = { type: 'invalid_request_error', code: 'search_expired', param: 'personId' };
    expectError(await getPerson(key.secret, id), 410, expired);
    await clock.advance(300 * DAY);
    expectError(await getPerson(key.secret, id), 410, expired);
    // Ownership is checked first: another account still gets 403.
    const stranger = await createKey('test');
    expect((await getPerson(stranger.secret, id)).status).toBe(403);
  });
});
