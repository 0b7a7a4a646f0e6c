import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { isValidAbn, isValidAcn } from '../../shared/kernel/identifiers.ts';
import {
  type ApiResponse,
  call,
  createKey,
  expectError,
  simulator,
  type TestKey,
  validationError,
} from '../support/api.ts';

/**
 * Free company lookups and name searches over real HTTP (spec document 1, 2.1–2.2 and 2.9;
 * document 3, 7.3–7.5; docs/decisions/0032-company-paths-and-section-reads.md). Test keys are
 * served by the sandbox registry in process; live keys go through the registry simulator, which
 * serves the same sample, so every case runs with both.
 */

type Body = Record<string, unknown>;
type KeyKind = 'test' | 'live';

const keys = {} as Record<KeyKind, TestKey>;

beforeAll(async () => {
  keys.test = await createKey('test');
  keys.live = await createKey('live');
});

afterEach(async () => {
  await simulator.clearFaults();
});

const get = (path: string, kind: KeyKind = 'test') => call<Body>(path, { key: keys[kind].secret });

/** `nnn nnn nnn`, written independently of the service's formatter. */
const spaced = (nine: string) => nine.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');

/** A success body: 200, JSON, and `meta` of a free read whose requestId is the header's. */
function expectFree(response: ApiResponse<Body>) {
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_./);
  expect(response.body.meta).toStrictEqual({ billable: false, product: null, requestId });
}

/** The body without `meta` (checked by `expectFree`). */
const withoutMeta = (body: Body) => {
  const { meta: _meta, ...rest } = body;
  return rest;
};

const ACN = { code: 'ACN', label: 'Australian Company Number' };
const ARBN = { code: 'ARBN', label: 'Australian Registered Body Number' };
const ARSN = { code: 'ARSN', label: 'Australian Registered Scheme Number' };
const APTY = { code: 'APTY', label: 'Australian Proprietary Company' };
const APUB = { code: 'APUB', label: 'Australian Public Company' };
const REGD = { code: 'REGD', label: 'Registered' };
const DRGD = { code: 'DRGD', label: 'Deregistered' };
const LMSH = { code: 'LMSH', label: 'Limited By Shares' };
const PROP = { code: 'PROP', label: 'Proprietary Company' };

const proprietaryCompany = {
  object: 'company',
  acn: SANDBOX.proprietary,
  formatted: spaced(SANDBOX.proprietary),
  numberType: ACN,
  name: 'BLUEGUM ORCHARDS PTY LTD',
  type: APTY,
  status: REGD,
  abn: SANDBOX.abnRecorded,
  registeredCharity: false,
  class: LMSH,
  subClass: PROP,
  registeredAt: '2010-07-01',
  governanceType: null,
  schemeCategories: [],
  deregistration: null,
  formerNames: [{ name: 'BLUEGUM FARMING PTY LTD', from: '2010-07-01', to: '2016-02-29' }],
};

/** A valid ABN whose last nine digits fail the ACN check (a sole trader's, say). */
function abnWithoutAcn(): string {
  const tail = '990000015';
  expect(isValidAcn(tail)).toBe(false);
  for (let prefix = 10; prefix <= 99; prefix++) {
    const abn = `${prefix}${tail}`;
    if (isValidAbn(abn)) return abn;
  }
  throw new Error('no ABN prefix found');
}

/** The recorded ABN of the proprietary company with its last digit changed: fails the ABN test. */
function invalidAbn(): string {
  const abn = SANDBOX.abnRecorded;
  const changed = `${abn.slice(0, 10)}${(Number(abn[10]) + 1) % 10}`;
  expect(isValidAbn(changed)).toBe(false);
  return changed;
}

describe.each(['test', 'live'] as const)('GET /v1/companies/{id} with a %s key', (kind) => {
  it('answers the full company object of a proprietary company', async () => {
    const response = await get(`/v1/companies/${SANDBOX.proprietary}`, kind);
    expectFree(response);
    expect(withoutMeta(response.body)).toStrictEqual(proprietaryCompany);
  });

  it('keeps the nine-digit number a string and formats it nnn nnn nnn', async () => {
    const response = await get(`/v1/companies/${SANDBOX.proprietary}`, kind);
    expect(response.body.acn).toMatch(/^\d{9}$/);
    expect(response.body.formatted).toMatch(/^\d{3} \d{3} \d{3}$/);
  });

  it('finds the same company by its ABN, with or without spaces', async () => {
    const byAbn = await get(`/v1/companies/${SANDBOX.abnRecorded}`, kind);
    expectFree(byAbn);
    expect(withoutMeta(byAbn.body)).toStrictEqual(proprietaryCompany);
    const spacedAbn = SANDBOX.abnRecorded.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4');
    const bySpacedAbn = await get(`/v1/companies/${encodeURIComponent(spacedAbn)}`, kind);
    expectFree(bySpacedAbn);
    expect(withoutMeta(bySpacedAbn.body)).toStrictEqual(proprietaryCompany);
  });

  it('shows a scheme with acn null, its arsn and id, and coded scheme categories', async () => {
    const response = await get(`/v1/companies/${SANDBOX.scheme}`, kind);
    expectFree(response);
    expect(withoutMeta(response.body)).toStrictEqual({
      object: 'company',
      acn: null,
      formatted: spaced(SANDBOX.scheme),
      numberType: ARSN,
      name: 'HARBOURSIDE MORTGAGE AND PROPERTY FUND',
      type: { code: 'MISM', label: 'Managed Investment Scheme' },
      status: REGD,
      abn: null,
      registeredCharity: false,
      id: SANDBOX.scheme,
      arsn: SANDBOX.scheme,
      schemeCategories: [
        { code: 'MTGE', label: 'Mortgage Scheme' },
        { code: 'REAL', label: 'Direct Real Property Scheme' },
      ],
      class: { code: 'MORT', label: 'Mortgage' },
      subClass: null,
      registeredAt: '2005-03-01',
      governanceType: null,
      deregistration: null,
      formerNames: [],
    });
  });

  it('gives a foreign company the number type ARBN', async () => {
    const response = await get(`/v1/companies/${SANDBOX.foreignCompany}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      acn: SANDBOX.foreignCompany,
      formatted: spaced(SANDBOX.foreignCompany),
      numberType: ARBN,
      name: 'KIWI FERNLEAF TRADING LIMITED',
      type: { code: 'FNOS', label: 'Foreign Company (Overseas)' },
      status: REGD,
      schemeCategories: [],
      deregistration: null,
    });
  });

  it('gives a registered Australian body the number type ARBN', async () => {
    const response = await get(`/v1/companies/${SANDBOX.registeredBody}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      acn: SANDBOX.registeredBody,
      numberType: ARBN,
      type: { code: 'RACN', label: 'Registered Australian Body' },
    });
  });

  it('shows a deregistered company with its date and coded reason S601AA', async () => {
    const response = await get(`/v1/companies/${SANDBOX.deregistered}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      acn: SANDBOX.deregistered,
      name: 'OLD MILL BAKERY PTY LTD',
      status: DRGD,
    });
    expect(response.body.deregistration).toStrictEqual({
      date: '2021-03-15',
      reason: { code: 'S601AA', label: expect.stringMatching(/voluntary deregistration/i) },
    });
  });

  it('shows a deregistration reason the table does not know with label equal to code', async () => {
    const response = await get(`/v1/companies/${SANDBOX.deregisteredUnknownReason}`, kind);
    expectFree(response);
    expect(response.body.status).toStrictEqual(DRGD);
    expect(response.body.deregistration).toStrictEqual({
      date: '2019-08-02',
      reason: { code: 'S999', label: 'S999' },
    });
  });

  it('shows a sub-class the table does not know with label equal to code', async () => {
    const response = await get(`/v1/companies/${SANDBOX.unknownCodes}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      acn: SANDBOX.unknownCodes,
      class: LMSH,
      subClass: { code: 'QQQQ', label: 'QQQQ' },
    });
  });

  it('shows a public company with its governance type and listed sub-class', async () => {
    const response = await get(`/v1/companies/${SANDBOX.bank}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      name: 'SOUTHERN CROSS BANK LIMITED',
      type: APUB,
      subClass: { code: 'LIST', label: expect.stringMatching(/listed public/i) },
      governanceType: { code: 'C', label: 'Constitution' },
    });
  });
});

/** Every company path: the lookup, the purchase and each section read. */
const companyPaths = (id: string): [string, string, unknown][] => [
  ['GET', `/v1/companies/${id}`, undefined],
  ['POST', `/v1/companies/${id}/extracts`, { type: 'current' }],
  ['GET', `/v1/companies/${id}/officeholders`, undefined],
  ['GET', `/v1/companies/${id}/addresses`, undefined],
  ['GET', `/v1/companies/${id}/share-structure`, undefined],
  ['GET', `/v1/companies/${id}/documents`, undefined],
  ['GET', `/v1/companies/${id}/external-administration`, undefined],
  ['GET', `/v1/companies/${id}/relationships`, undefined],
  ['GET', `/v1/companies/${id}/charges`, undefined],
];

interface PathErrorCase {
  name: string;
  id: () => string;
  status: number;
  type: string;
  code: string;
  registryCode: string | null;
}

const pathErrorCases: PathErrorCase[] = [
  {
    name: 'eight digits',
    id: () => SANDBOX.proprietary.slice(0, 8),
    status: 400,
    type: 'invalid_request_error',
    code: 'acn_invalid',
    registryCode: null,
  },
  {
    name: 'ten digits',
    id: () => `${SANDBOX.proprietary}0`,
    status: 400,
    type: 'invalid_request_error',
    code: 'acn_invalid',
    registryCode: null,
  },
  {
    name: 'a hundred digits',
    id: () => '1'.repeat(100),
    status: 400,
    type: 'invalid_request_error',
    code: 'acn_invalid',
    registryCode: null,
  },
  {
    name: 'letters',
    id: () => `${SANDBOX.proprietary.slice(0, 8)}A`,
    status: 400,
    type: 'invalid_request_error',
    code: 'acn_invalid',
    registryCode: null,
  },
  {
    name: 'a wrong check digit',
    id: () => `${SANDBOX.proprietary.slice(0, 8)}${(Number(SANDBOX.proprietary[8]) + 1) % 10}`,
    status: 400,
    type: 'invalid_request_error',
    code: 'acn_invalid',
    registryCode: null,
  },
  {
    name: 'an ABN failing its check digits',
    id: invalidAbn,
    status: 400,
    type: 'invalid_request_error',
    code: 'abn_invalid',
    registryCode: null,
  },
  {
    name: 'a valid ABN that embeds no ACN',
    id: abnWithoutAcn,
    status: 400,
    type: 'invalid_request_error',
    code: 'abn_not_acn_based',
    registryCode: null,
  },
  {
    name: 'an unallocated ACN',
    id: () => SANDBOX.unknownNumber,
    status: 404,
    type: 'not_found_error',
    code: 'company_not_found',
    registryCode: 'CE03',
  },
  {
    name: 'an ABN of a company that has no ABN recorded',
    id: () => SANDBOX.abnNotRecorded,
    status: 404,
    type: 'not_found_error',
    code: 'abn_not_found',
    registryCode: 'CE12',
  },
  {
    name: 'an ABN embedding an ACN no organisation has',
    id: () => SANDBOX.abnNoCompany,
    status: 404,
    type: 'not_found_error',
    code: 'abn_not_found',
    registryCode: 'CE13',
  },
];

it('the error fixtures are what they claim: a failing check digit, numbers that pass', () => {
  expect(isValidAcn(`${SANDBOX.proprietary.slice(0, 8)}${(Number(SANDBOX.proprietary[8]) + 1) % 10}`)).toBe(
    false,
  );
  expect(isValidAcn(SANDBOX.unknownNumber)).toBe(true);
  expect(isValidAbn(SANDBOX.abnNotRecorded)).toBe(true);
  expect(isValidAbn(SANDBOX.abnNoCompany)).toBe(true);
});

describe.each(['test', 'live'] as const)('company path errors with a %s key', (kind) => {
  it.each(pathErrorCases)('$name: $code on every company path', async (testCase) => {
    const id = testCase.id();
    for (const [method, path, body] of companyPaths(encodeURIComponent(id))) {
      const response = await call(path, { key: keys[kind].secret, method, body });
      expectError(response, testCase.status, {
        type: testCase.type,
        code: testCase.code,
        param: 'id',
        registryCode: testCase.registryCode,
      });
    }
  });

  it('answers a relational purchase of an unallocated ACN with the relational code CR03', async () => {
    const response = await call(`/v1/companies/${SANDBOX.unknownNumber}/extracts`, {
      key: keys[kind].secret,
      method: 'POST',
      body: { type: 'relational' },
    });
    expectError(response, 404, {
      type: 'not_found_error',
      code: 'company_not_found',
      param: 'id',
      registryCode: 'CR03',
    });
  });
});

interface MatchBody extends Body {
  data: Body[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number | null;
}

const search = (query: string, kind: KeyKind = 'test') =>
  call<MatchBody>(`/v1/companies/search?${query}`, { key: keys[kind].secret });

const q = (text: string) => `q=${encodeURIComponent(text)}`;

/** The parts of each match that say which name matched and how well. */
const scoring = (body: MatchBody) =>
  body.data.map((match) => ({
    acn: match.acn,
    name: match.name,
    matchedName: match.matchedName,
    nameStatus: match.nameStatus,
    score: match.score,
  }));

const scoredCurrent = [
  {
    acn: SANDBOX.bank,
    name: 'SOUTHERN CROSS BANK LIMITED',
    matchedName: 'SOUTHERN CROSS BANK LIMITED',
    nameStatus: 'current',
    score: 84,
  },
  {
    acn: SANDBOX.public,
    name: 'SOUTHERN CROSS HOLDINGS LIMITED',
    matchedName: 'SOUTHERN CROSS HOLDINGS LIMITED',
    nameStatus: 'current',
    score: 84,
  },
  {
    acn: SANDBOX.strikeOff,
    name: 'THE SOUTHERN CROSS HOTEL PTY LTD',
    matchedName: 'THE SOUTHERN CROSS HOTEL PTY LTD',
    nameStatus: 'current',
    score: 49,
  },
  {
    acn: SANDBOX.smallChargesExtract,
    name: 'SOUTHERN STAR CROSSINGS PTY LTD',
    matchedName: 'SOUTHERN STAR CROSSINGS PTY LTD',
    nameStatus: 'current',
    score: 18,
  },
];

const formerNameMatch = {
  acn: SANDBOX.largeCompany,
  name: 'MERIDIAN NATIONAL HOLDINGS LIMITED',
  matchedName: 'SOUTHERN CROSS MINING N.L.',
  nameStatus: 'former',
  score: 81,
};

describe.each(['test', 'live'] as const)('GET /v1/companies/search with a %s key', (kind) => {
  it('orders matches by score, then by name (equal scores), scope current by default', async () => {
    const response = await search(q(SANDBOX.search.scored), kind);
    expectFree(response);
    expect(scoring(response.body)).toStrictEqual(scoredCurrent);
    expect(response.body).toMatchObject({ object: 'list', hasMore: false, nextCursor: null, totalCount: 4 });
    const scores = response.body.data.map((match) => match.score as number);
    expect([...scores].sort((a, b) => b - a)).toStrictEqual(scores);
  });

  it('shows a match as a company summary plus how it matched', async () => {
    const response = await search(q(SANDBOX.search.scored), kind);
    expectFree(response);
    expect(response.body.data[0]).toStrictEqual({
      object: 'companyMatch',
      acn: SANDBOX.bank,
      formatted: spaced(SANDBOX.bank),
      numberType: ACN,
      name: 'SOUTHERN CROSS BANK LIMITED',
      type: APUB,
      status: REGD,
      abn: expect.stringMatching(new RegExp(`^\\d{2}${SANDBOX.bank}$`)),
      registeredCharity: false,
      matchedName: 'SOUTHERN CROSS BANK LIMITED',
      nameStatus: 'current',
      score: 84,
      address: expect.objectContaining({ locality: 'SYDNEY', state: 'NSW', postcode: '2000' }),
    });
  });

  it('gives the same answer for scope=current as for no scope', async () => {
    const response = await search(`${q(SANDBOX.search.scored)}&scope=current`, kind);
    expectFree(response);
    expect(scoring(response.body)).toStrictEqual(scoredCurrent);
  });

  it('adds a former-name match with nameStatus former under scope=all', async () => {
    const response = await search(`${q(SANDBOX.search.scored)}&scope=all`, kind);
    expectFree(response);
    expect(scoring(response.body)).toStrictEqual([
      scoredCurrent[0],
      scoredCurrent[1],
      formerNameMatch,
      scoredCurrent[2],
      scoredCurrent[3],
    ]);
    expect(response.body.totalCount).toBe(5);
  });

  it('scores an exact name 100, whatever the case of the query', async () => {
    for (const scope of ['current', 'all']) {
      const response = await search(`${q(SANDBOX.search.exact.toUpperCase())}&scope=${scope}`, kind);
      expectFree(response);
      expect(scoring(response.body)).toStrictEqual([
        {
          acn: SANDBOX.bank,
          name: 'SOUTHERN CROSS BANK LIMITED',
          matchedName: 'SOUTHERN CROSS BANK LIMITED',
          nameStatus: 'current',
          score: 100,
        },
      ]);
      expect(response.body).toMatchObject({ hasMore: false, nextCursor: null, totalCount: 1 });
    }
  });

  it('answers too_many_matches with the counts when over 100 names are selected', async () => {
    for (const scope of ['current', 'all']) {
      expectError(await search(`${q(SANDBOX.search.tooMany)}&scope=${scope}`, kind), 422, {
        type: 'invalid_request_error',
        code: 'too_many_matches',
        param: 'q',
        registryCode: 'ON52',
        details: { counts: { returned: 0, found: SANDBOX.acmeCompanies } },
      });
    }
  });

  it('answers no_matches with zero counts when nothing matches', async () => {
    for (const scope of ['current', 'all']) {
      expectError(await search(`${q(SANDBOX.search.none)}&scope=${scope}`, kind), 404, {
        type: 'not_found_error',
        code: 'no_matches',
        param: 'q',
        registryCode: 'ON51',
        details: { counts: { returned: 0, found: 0 } },
      });
    }
  });

  it('pages with limit and cursor through the same ordered list', async () => {
    const first = await search(`${q(SANDBOX.search.scored)}&limit=3`, kind);
    expectFree(first);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.totalCount).toBe(4);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await search(
      `${q(SANDBOX.search.scored)}&limit=3&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
      kind,
    );
    expectFree(second);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null, totalCount: 4 });
    expect([...scoring(first.body), ...scoring(second.body)]).toStrictEqual(scoredCurrent);
    expect(first.body.data).toHaveLength(3);
    expect(second.body.data).toHaveLength(1);
  });

  it('refuses a cursor reused with another query', async () => {
    const first = await search(`${q(SANDBOX.search.scored)}&limit=1`, kind);
    expectFree(first);
    const reused = await search(
      `${q(SANDBOX.search.exact)}&limit=1&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
      kind,
    );
    expectError(reused, 400, validationError('cursor'));
  });

  it('looks a company up by acn=, as one match scored 100', async () => {
    const response = await search(`acn=${SANDBOX.proprietary}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({ object: 'list', hasMore: false, nextCursor: null, totalCount: 1 });
    expect(response.body.data).toHaveLength(1);
    expect(response.body.data[0]).toMatchObject({
      object: 'companyMatch',
      acn: SANDBOX.proprietary,
      formatted: spaced(SANDBOX.proprietary),
      numberType: ACN,
      name: 'BLUEGUM ORCHARDS PTY LTD',
      type: APTY,
      status: REGD,
      abn: SANDBOX.abnRecorded,
      registeredCharity: false,
      matchedName: 'BLUEGUM ORCHARDS PTY LTD',
      nameStatus: 'current',
      score: 100,
    });
  });

  it('looks the same company up by abn=', async () => {
    const byAcn = await search(`acn=${SANDBOX.proprietary}`, kind);
    const byAbn = await search(`abn=${SANDBOX.abnRecorded}`, kind);
    expectFree(byAbn);
    expect(byAbn.body.data).toStrictEqual(byAcn.body.data);
  });

  it('names the acn or abn parameter in lookup errors', async () => {
    expectError(await search(`acn=${SANDBOX.unknownNumber}`, kind), 404, {
      type: 'not_found_error',
      code: 'company_not_found',
      param: 'acn',
      registryCode: 'CE03',
    });
    expectError(await search(`abn=${SANDBOX.abnNotRecorded}`, kind), 404, {
      type: 'not_found_error',
      code: 'abn_not_found',
      param: 'abn',
      registryCode: 'CE12',
    });
    expectError(await search(`acn=${SANDBOX.proprietary.slice(0, 8)}`, kind), 400, {
      type: 'invalid_request_error',
      code: 'acn_invalid',
      param: 'acn',
    });
    expectError(await search(`abn=${invalidAbn()}`, kind), 400, {
      type: 'invalid_request_error',
      code: 'abn_invalid',
      param: 'abn',
    });
  });

  it('refuses an ABN and an ACN together with abn_and_acn_supplied', async () => {
    expectError(await search(`acn=${SANDBOX.proprietary}&abn=${SANDBOX.abnRecorded}`, kind), 400, {
      type: 'invalid_request_error',
      code: 'abn_and_acn_supplied',
      param: 'abn',
    });
  });

  it('refuses a name together with a number with identifier_conflict', async () => {
    expectError(await search(`${q('bluegum')}&acn=${SANDBOX.proprietary}`, kind), 400, {
      type: 'invalid_request_error',
      code: 'identifier_conflict',
      param: 'acn',
    });
    expectError(await search(`${q('bluegum')}&abn=${SANDBOX.abnRecorded}`, kind), 400, {
      type: 'invalid_request_error',
      code: 'identifier_conflict',
      param: 'abn',
    });
  });

  it('refuses an unknown scope with search_scope_invalid', async () => {
    expectError(await search(`${q(SANDBOX.search.scored)}&scope=former`, kind), 400, {
      type: 'invalid_request_error',
      code: 'search_scope_invalid',
      param: 'scope',
    });
  });

  it('needs a name or a number', async () => {
    expectError(await search('', kind), 422, validationError('q'));
    expectError(await search('scope=all', kind), 422, validationError('q'));
  });

  it('refuses an unknown query parameter', async () => {
    expectError(await search(`${q(SANDBOX.search.scored)}&name=x`, kind), 422, validationError('name'));
  });

  it.each([
    ['q=', 'q'],
    ['q=a&q=b', 'q'],
    ['q=acme&limit=0', 'limit'],
    ['q=acme&limit=101', 'limit'],
  ])('%s → 422 validation_error on %s', async (query, param) => {
    expectError(await search(query, kind), 422, validationError(param));
  });

  it('an ACN given as abn → abn_invalid on abn', async () => {
    expectError(await search(`abn=${SANDBOX.proprietary}`, kind), 400, {
      type: 'invalid_request_error',
      code: 'abn_invalid',
      param: 'abn',
    });
  });

  it.each([
    ['acn of eleven digits', 'acn=12345678901', 'acn_invalid', 'acn'],
    ['acn of a hundred digits', `acn=${'1'.repeat(100)}`, 'acn_invalid', 'acn'],
    ['acn holding a valid ABN', `acn=${SANDBOX.abnRecorded}`, 'acn_invalid', 'acn'],
    ['abn of nine digits that fail the ACN check', 'abn=123456789', 'abn_invalid', 'abn'],
    ['abn of letters', 'abn=abcdef', 'abn_invalid', 'abn'],
  ])('%s → 400 %s on %s', async (_case, query, code, param) => {
    expectError(await search(query, kind), 400, { type: 'invalid_request_error', code, param });
  });

  it('an empty acn is not nine digits: acn_invalid on acn', async () => {
    expectError(await search('acn=', kind), 400, {
      type: 'invalid_request_error',
      code: 'acn_invalid',
      param: 'acn',
    });
  });
});

/** Calls the simulator logged for one of our requests, in order. */
async function registryCallsFor(response: ApiResponse<unknown>) {
  const requestId = response.headers.get('x-request-id');
  const { calls } = await simulator.calls();
  return calls.filter((c) => c.requestId === requestId).map((c) => [c.operation, c.outcome]);
}

describe('registry faults on free lookups (live key, registry simulator)', () => {
  it('answers 503 registry_unavailable with Retry-After 300 during a maintenance window (ZZ51)', async () => {
    await simulator.addFault({ code: 'ZZ51' });
    const response = await get(`/v1/companies/${SANDBOX.proprietary}`, 'live');
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(response.headers.get('retry-after')).toBe('300');
    // A maintenance window is not retried.
    expect(await registryCallsFor(response)).toStrictEqual([['company.get', 'ZZ51']]);
  });

  it('passes on the registry’s own Retry-After in a maintenance window (42 s here), not the spec’s 300', async () => {
    await simulator.addFault({ code: 'ZZ51', retryAfterSeconds: 42 });
    const response = await get(`/v1/companies/${SANDBOX.proprietary}`, 'live');
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(response.headers.get('retry-after')).toBe('42');
  });

  it('answers a name search with 503 during the window too', async () => {
    await simulator.addFault({ code: 'ZZ51' });
    const response = await search(q(SANDBOX.search.scored), 'live');
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(response.headers.get('retry-after')).toBe('300');
  });

  it('retries a single registry application error (ZZ53) and answers 200', async () => {
    await simulator.addFault({ code: 'ZZ53', times: 1 });
    const response = await get(`/v1/companies/${SANDBOX.proprietary}`, 'live');
    expectFree(response);
    expect(withoutMeta(response.body)).toStrictEqual(proprietaryCompany);
    expect(await registryCallsFor(response)).toStrictEqual([
      ['company.get', 'ZZ53'],
      ['company.get', 'ok'],
    ]);
  });

  it('answers 502 registry_application_error when the retry fails too', async () => {
    await simulator.addFault({ code: 'ZZ53', times: 2 });
    const response = await get(`/v1/companies/${SANDBOX.proprietary}`, 'live');
    expectError(response, 502, {
      type: 'api_error',
      code: 'registry_application_error',
      param: null,
      registryCode: 'ZZ53',
    });
    // Retried once by the client (spec 7.2), after the Retry-After every retryable answer carries.
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await registryCallsFor(response)).toStrictEqual([
      ['company.get', 'ZZ53'],
      ['company.get', 'ZZ53'],
    ]);
  });

  it('keeps the free platform endpoints answering during the window, without asking the registry', async () => {
    await simulator.addFault({ code: 'ZZ51' });
    for (const path of [
      `/v1/identifiers/${SANDBOX.proprietary}`,
      `/v1/identifiers/${SANDBOX.abnRecorded}`,
      '/v1/reference/code-tables',
      '/v1/reference/code-tables/organisation-types',
      '/v1/reference/forms',
    ]) {
      const response = await get(path, 'live');
      expectFree(response);
      expect(await registryCallsFor(response)).toStrictEqual([]);
    }
  });

  it('leaves test keys untouched: the sandbox never reaches the registry', async () => {
    await simulator.addFault({ code: 'ZZ51' });
    const response = await get(`/v1/companies/${SANDBOX.proprietary}`, 'test');
    expectFree(response);
    expect(withoutMeta(response.body)).toStrictEqual(proprietaryCompany);
    expect(await registryCallsFor(response)).toStrictEqual([]);
  });
});
