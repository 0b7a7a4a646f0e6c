import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SIMULATOR_PEOPLE } from '../../local/generated-data.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { SANDBOX_PEOPLE } from '../../shared/adapters/sandbox/data/people.ts';
import {
  type ApiResponse,
  buyPeople,
  type Coded,
  call,
  clock,
  createKey,
  expectError,
  type FeeEntryBody,
  failNextCommits,
  type Meta,
  type PersonMatch,
  type RoleRecord,
  registryPurchases,
  searchedPeople,
  simulator,
  type TestKey,
  validationError,
} from '../support/api.ts';

/**
 * POST /v1/people/extracts: 1 to 100 person extracts from one search, all or nothing, billed one
 * fee (958) per person, once (spec document 2, 4.3; document 1, 2.6; document 3, 7.7;
 * docs/decisions/0045-people.md). Test keys buy from the sandbox; live keys reach the registry
 * simulator, whose call log shows what the registry billed.
 */

interface PersonExtract {
  object: 'extract';
  id: string;
  kind: 'person';
  type: 'current' | 'historical';
  includeShareholdings: boolean;
  subject: PersonMatch;
  purchasedAt: string;
  asOf: string;
  expiresAt: string;
  clientReference: string | null;
  disclaimer: string;
  person: {
    id: string;
    registryIdentifier: string;
    name: PersonMatch['name'];
    birth: PersonMatch['birth'];
    formerName: PersonMatch['formerName'];
  };
  roles: RoleRecord[];
  licences: Record<string, unknown>[];
  shareholdings: Record<string, unknown>[];
  documents: { documentNumber: string; receivedAt: string }[];
  notices: { type: string; acn: string | null; text: string }[];
  meta: Meta;
}

interface PurchaseBody {
  object: 'list';
  searchId: string;
  data: PersonExtract[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number;
  meta: Meta & { quantity: number };
}

interface UsageBody {
  data: FeeEntryBody[];
  totalCount: number;
  totals: { product: string; feeCode: string | null; billable: boolean; quantity: number; entries: number }[];
}

const P = SANDBOX_PEOPLE;

const buy = (key: TestKey, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  buyPeople<PurchaseBody>(key.secret, body, headers);

const usageOf = async (key: TestKey) =>
  (await call<UsageBody>('/v1/usage?limit=100', { key: key.secret })).body;

const heldPersonExtracts = async (key: TestKey) =>
  (await call<{ data: Record<string, unknown>[] }>('/v1/extracts?kind=person&limit=100', { key: key.secret }))
    .body.data;

/** Person extract calls the simulator received for an account, billed or not. */
async function registryCalls(key: TestKey) {
  const { calls } = await simulator.calls();
  return calls.filter((c) => c.accountId === key.accountId && c.operation === 'person.extract');
}

/** Nothing bought, nothing billed, nothing held. */
async function expectNothingBought(key: TestKey) {
  expect(await registryPurchases(key.accountId, 'person.extract')).toBe(0);
  expect((await usageOf(key)).data).toStrictEqual([]);
  expect(await heldPersonExtracts(key)).toStrictEqual([]);
}

/** The expiry 12 calendar months after `purchasedAt`, in the API's timestamp form. */
function twelveMonthsAfter(purchasedAt: string) {
  const expiry = new Date(Date.parse(purchasedAt));
  expiry.setUTCMonth(expiry.getUTCMonth() + 12);
  return `${expiry.toISOString().slice(0, 19)}Z`;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** role code, status code and company number of each role record. */
const roleRows = (roles: RoleRecord[]) => roles.map((r) => [r.role.code, r.status.code, r.company.acn]);

function expectCreated(response: ApiResponse<PurchaseBody>, quantity: number, billable: boolean) {
  expect(response.status, response.text.slice(0, 800)).toBe(201);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_./);
  const { data, ...envelope } = response.body;
  expect(envelope).toStrictEqual({
    object: 'list',
    searchId: expect.stringMatching(/^psr_[0-9a-f]{24}$/),
    hasMore: false,
    nextCursor: null,
    totalCount: quantity,
    meta: { billable, product: 'person_extract', quantity, requestId },
  });
  expect(data).toHaveLength(quantity);
  for (const extract of data) {
    expect(extract.meta).toStrictEqual({ billable, product: 'person_extract', requestId });
  }
  expect(new Set(data.map((extract) => extract.id)).size).toBe(quantity);
  return data;
}

afterEach(async () => {
  await simulator.clearFaults();
  await failNextCommits(0);
  await clock.reset();
});

describe('a purchase with a test key (sandbox)', () => {
  it('one person, defaults: a current extract with every field of 2.6, unbilled, readable by id and listed', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, "O'BRIEN", 'MICHAEL');
    const match = search.data[0] as PersonMatch;
    const response = await buy(
      key,
      { searchId: search.id, personIds: [match.id] },
      { 'X-Client-Reference': 'matter 7' },
    );
    const [extract] = expectCreated(response, 1, false) as [PersonExtract];
    expect(response.body.searchId).toBe(search.id);
    expect(Object.keys(extract).sort()).toStrictEqual(
      [
        'object',
        'id',
        'kind',
        'type',
        'includeShareholdings',
        'subject',
        'purchasedAt',
        'asOf',
        'expiresAt',
        'clientReference',
        'disclaimer',
        'person',
        'roles',
        'licences',
        'shareholdings',
        'documents',
        'notices',
        'meta',
      ].sort(),
    );
    expect(extract).toMatchObject({
      object: 'extract',
      kind: 'person',
      type: 'current',
      includeShareholdings: false,
      clientReference: 'matter 7',
      licences: [],
      shareholdings: [],
      notices: [],
    });
    expect(extract.id).toMatch(/^ext_[0-9a-f]{24}$/);
    expect(extract.subject).toStrictEqual(match);
    expect(extract.person).toStrictEqual({
      id: match.id,
      registryIdentifier: P.director.registryIdentifier,
      name: match.name,
      birth: match.birth,
      formerName: match.formerName,
    });
    expect(extract.purchasedAt).toMatch(TIMESTAMP);
    expect(extract.asOf).toMatch(TIMESTAMP);
    expect(extract.expiresAt).toBe(twelveMonthsAfter(extract.purchasedAt));
    expect(extract.disclaimer).toContain('1274A');
    // A current extract: current (C) and future (F) roles only, in the registry's order, no Member roles.
    expect(roleRows(extract.roles)).toStrictEqual([
      ['DR', 'C', SANDBOX.public],
      ['DR', 'F', SANDBOX.unknownCodes],
      ['SR', 'C', SANDBOX.satisfiedCharges],
      ['LD', 'C', SANDBOX.hugeChargesExtract],
    ]);
    expect(extract.roles[3]).toStrictEqual({
      object: 'role',
      role: { code: 'LD', label: 'Alternate Director' },
      status: { code: 'C', label: 'Current' },
      appointedAt: '2021-07-01',
      ceasedAt: null,
      company: expect.objectContaining({ acn: SANDBOX.hugeChargesExtract, registeredCharity: false }),
      address: expect.objectContaining({ locality: 'ORANGE' }),
      sourceDocument: { documentNumber: expect.stringMatching(/^9P/), qualifier: null },
    });
    expect(extract.roles[1]?.status).toStrictEqual({ code: 'F', label: 'Future' });
    // Every document of the person, newest first.
    expect(extract.documents).toHaveLength(8);
    const received = extract.documents.map((document) => document.receivedAt);
    expect(received).toStrictEqual([...received].sort().reverse());

    // The fee entry: not billable, no fee code, with the client reference and the price it would have had.
    const usage = await usageOf(key);
    expect(usage.data).toStrictEqual([
      {
        object: 'feeEntry',
        at: extract.purchasedAt,
        product: 'person_extract',
        feeCode: null,
        quantity: 1,
        billable: false,
        clientReference: 'matter 7',
        requestId: response.headers.get('x-request-id'),
        resourceId: extract.id,
        // What it would have cost (958 at the example 22.00), not billed.
        unitAmountCents: 2200,
        amountCents: 2200,
        priceVersion: '2020-01-01',
      },
    ]);
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(0);

    // GET /v1/extracts/{id}: the same extract, free.
    const read = await call<PersonExtract>(`/v1/extracts/${extract.id}`, { key: key.secret });
    expect(read.status, read.text.slice(0, 300)).toBe(200);
    const { meta: readMeta, ...readBody } = read.body;
    const { meta: _meta, ...bought } = extract;
    expect(readBody).toStrictEqual(bought);
    expect(readMeta).toStrictEqual({
      billable: false,
      product: null,
      requestId: read.headers.get('x-request-id'),
    });

    // GET /v1/extracts?kind=person: the extract without its lists.
    const { roles: _r, licences: _l, shareholdings: _s, documents: _d, notices: _n, ...summary } = bought;
    expect(await heldPersonExtracts(key)).toStrictEqual([summary]);
    const companies = await call<{ data: unknown[] }>('/v1/extracts?kind=company', { key: key.secret });
    expect(companies.body.data).toStrictEqual([]);
  });

  it('history and includeShareholdings: a historical extract with ceased and Member roles and the shareholdings', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, "O'BRIEN", 'MICHAEL');
    const response = await buy(key, {
      searchId: search.id,
      personIds: [search.data[0]?.id],
      history: true,
      includeShareholdings: true,
    });
    const [extract] = expectCreated(response, 1, false) as [PersonExtract];
    expect(extract.type).toBe('historical');
    expect(extract.includeShareholdings).toBe(true);
    expect(extract.clientReference).toBeNull();
    expect(roleRows(extract.roles)).toStrictEqual([
      ['EO', 'E', SANDBOX.largeCompany],
      ['DR', 'C', SANDBOX.public],
      ['DR', 'F', SANDBOX.unknownCodes],
      // Two ceased the same day: the newest appointment first.
      ['DR', 'E', SANDBOX.deregisteredUnknownReason],
      ['DR', 'E', SANDBOX.deregistered],
      ['DR', 'E', SANDBOX.proprietary],
      ['SR', 'C', SANDBOX.satisfiedCharges],
      ['SR', 'E', SANDBOX.proprietary],
      ['SR', 'E', SANDBOX.strikeOff],
      ['LD', 'C', SANDBOX.hugeChargesExtract],
      ['SH', 'E', SANDBOX.proprietary],
    ]);
    expect(extract.roles[10]).toMatchObject({
      role: { code: 'SH', label: 'Member' },
      status: { code: 'E', label: 'Ceased/Former' },
      appointedAt: null,
      ceasedAt: '2016-03-04',
    });
    expect(extract.shareholdings).toHaveLength(1);
    expect(extract.shareholdings[0]).toMatchObject({
      object: 'shareholding',
      company: expect.objectContaining({ acn: SANDBOX.proprietary }),
      classCode: 'A',
      status: { code: 'E', label: 'Ceased/Former' },
      sharesHeld: 100,
    });
  });

  it('Member roles and shareholdings only with includeShareholdings; a current extract has only current ones', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, 'PAPADOPOULOS', 'GEORGE');
    const personIds = [search.data[0]?.id];
    const [without] = expectCreated(await buy(key, { searchId: search.id, personIds }), 1, false);
    expect(roleRows(without?.roles ?? [])).toStrictEqual([['DR', 'C', SANDBOX.preAsicAddresses]]);
    expect(without?.shareholdings).toStrictEqual([]);
    const [withShares] = expectCreated(
      await buy(key, { searchId: search.id, personIds, includeShareholdings: true }),
      1,
      false,
    );
    expect(roleRows(withShares?.roles ?? [])).toStrictEqual([
      ['DR', 'C', SANDBOX.preAsicAddresses],
      ['SH', 'C', SANDBOX.preAsicAddresses],
      ['SH', 'C', SANDBOX.satisfiedCharges],
    ]);
    expect(
      withShares?.shareholdings.map((s) => [
        (s.company as { acn: string }).acn,
        s.classCode,
        (s.status as Coded).code,
        s.fullyPaid,
        s.beneficiallyHeld,
      ]),
    ).toStrictEqual([
      [SANDBOX.preAsicAddresses, 'ORD', 'C', true, true],
      [SANDBOX.preAsicAddresses, 'PREF', 'C', true, false],
      [SANDBOX.satisfiedCharges, 'ORD', 'C', false, true],
    ]);
  });

  it('several people: in the order supplied, one fee each; namesakes carry a same_name notice', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    // The search's order: the three ANNA MARIAs oldest first, then ANNABEL.
    const [older, middle, younger, annabel] = search.data.map((person) => person.id) as string[];
    const personIds = [annabel, younger, older, middle] as string[];
    const response = await buy(key, { searchId: search.id, personIds }, { 'X-Client-Reference': 'kin' });
    const data = expectCreated(response, 4, false);
    expect(data.map((extract) => extract.person.id)).toStrictEqual(personIds);
    expect(data.map((extract) => extract.subject.id)).toStrictEqual(personIds);
    expect(data.map((extract) => extract.person.registryIdentifier)).toStrictEqual([
      P.namesakePrefix.registryIdentifier,
      P.namesakes.registryIdentifiers[2],
      P.namesakes.registryIdentifiers[0],
      P.namesakes.registryIdentifiers[1],
    ]);
    expect(data.map((extract) => extract.notices.map((notice) => [notice.type, notice.acn]))).toStrictEqual([
      [],
      [['same_name', null]],
      [['same_name', null]],
      [['same_name', null]],
    ]);
    expect(data[1]?.notices[0]?.text).toEqual(expect.any(String));
    // The administrator (oldest) is a registered liquidator.
    expect(
      data[2]?.licences.map((l) => [(l.type as Coded).code, (l.licenceStatus as Coded).code]),
    ).toStrictEqual([['RQ', 'APPR']]);
    expect(data.every((extract) => extract.clientReference === 'kin')).toBe(true);
    const usage = await usageOf(key);
    expect(usage.data.map((entry) => entry.resourceId).sort()).toStrictEqual(data.map((e) => e.id).sort());
    expect(usage.totals).toStrictEqual([
      {
        product: 'person_extract',
        feeCode: null,
        billable: false,
        quantity: 4,
        entries: 4,
        amountCents: 8800,
      },
    ]);
    expect(usage.data.every((entry) => entry.quantity === 1 && entry.clientReference === 'kin')).toBe(true);
  });

  it('a current director of a registered charity gets one acnc_charity notice with its acn', async () => {
    const key = await createKey('test');
    const search = await searchedPeople(key.secret, 'MACKENZIE-REID', 'ELEANOR');
    const [extract] = expectCreated(
      await buy(key, { searchId: search.id, personIds: [search.data[0]?.id], history: true }),
      1,
      false,
    );
    expect(extract?.notices).toStrictEqual([
      { type: 'acnc_charity', acn: P.charityDirector.charity, text: expect.any(String) },
    ]);
    expect(
      extract?.roles.map((r) => [r.role.code, r.status.code, r.company.acn, r.company.registeredCharity]),
    ).toStrictEqual([
      ['DR', 'C', SANDBOX.charity, true],
      ['DR', 'E', SANDBOX.association, true],
      ['SR', 'C', SANDBOX.association, false],
    ]);
  });

  it('licences: current ones in a current extract; all, by type in table order, in a historical one', async () => {
    const key = await createKey('test');
    const licenceRows = (extract: PersonExtract | undefined) =>
      extract?.licences.map((l) => [
        (l.type as Coded).code,
        (l.status as Coded).code,
        (l.licenceStatus as Coded).code,
        l.licenceNumber,
      ]);
    const drake = await searchedPeople(key.secret, 'DRAKE', 'VICTOR');
    const personIds = [drake.data[0]?.id];
    const [current] = expectCreated(await buy(key, { searchId: drake.id, personIds }), 1, false);
    // Two ceased directorships: a current extract has no roles.
    expect(current?.roles).toStrictEqual([]);
    expect(licenceRows(current)).toStrictEqual([['DD', 'C', 'APPR', '000312440']]);
    expect(current?.licences[0]).toMatchObject({
      object: 'licence',
      type: { code: 'DD', label: 'Disqualified Persons' },
      from: '2021-06-01',
      to: '2031-05-31',
    });
    const [historical] = expectCreated(
      await buy(key, { searchId: drake.id, personIds, history: true }),
      1,
      false,
    );
    expect(roleRows(historical?.roles ?? [])).toStrictEqual([
      ['DR', 'E', SANDBOX.externalAdministration],
      ['DR', 'E', SANDBOX.deregisteredUnknownReason],
    ]);
    expect(licenceRows(historical)).toStrictEqual([
      ['DD', 'C', 'APPR', '000312440'],
      ['DD', 'E', 'NOAC', '000198032'],
      ['FR', 'E', 'NOAC', '000245117'],
    ]);
    const banned = await searchedPeople(key.secret, 'FAIRWEATHER', 'ROSALIE');
    const [bannedExtract] = expectCreated(
      await buy(key, { searchId: banned.id, personIds: [banned.data[0]?.id], history: true }),
      1,
      false,
    );
    expect(licenceRows(bannedExtract)).toStrictEqual([
      ['BF', 'E', 'NOAC', '000150922'],
      ['BS', 'E', 'NOAC', '000150921'],
      ['FR', 'E', 'SUSP', '000281334'],
      ['FX', 'C', 'APPR', '000400017'],
    ]);
  });

  it('a test key never reaches the registry: it buys during a maintenance window', async () => {
    const key = await createKey('test');
    await simulator.addFault({ code: 'ZZ51' });
    const search = await searchedPeople(key.secret, "O'BRIEN", 'MICHAEL');
    expectCreated(await buy(key, { searchId: search.id, personIds: [search.data[0]?.id] }), 1, false);
  });
});

describe('validation: the whole request is checked before the registry is asked', () => {
  /** A live key and a live search of the four KOWALSKIs (the simulator serves the sandbox people). */
  async function kowalskis() {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    return { key, search, ids: search.data.map((person) => person.id) as [string, string, string, string] };
  }
  const wellFormed = () => `prs_${randomBytes(12).toString('hex')}`;

  it.each<[string, (s: { searchId: string; ids: string[] }) => Record<string, unknown>, string]>([
    ['searchId missing', ({ ids }) => ({ personIds: ids }), 'searchId'],
    ['personIds missing', ({ searchId }) => ({ searchId }), 'personIds'],
    ['personIds empty', ({ searchId }) => ({ searchId, personIds: [] }), 'personIds'],
    [
      '101 ids',
      ({ searchId }) => ({ searchId, personIds: Array.from({ length: 101 }, wellFormed) }),
      'personIds',
    ],
    ['personIds a string', ({ searchId, ids }) => ({ searchId, personIds: ids[0] }), 'personIds'],
    [
      'a duplicate',
      ({ searchId, ids }) => ({ searchId, personIds: [ids[0], ids[1], ids[0]] }),
      'personIds[2]',
    ],
    [
      'a later duplicate',
      ({ searchId, ids }) => ({ searchId, personIds: [ids[0], ids[1], ids[2], ids[1], ids[3]] }),
      'personIds[3]',
    ],
    ['history a string', ({ searchId, ids }) => ({ searchId, personIds: ids, history: 'yes' }), 'history'],
    ['history null', ({ searchId, ids }) => ({ searchId, personIds: ids, history: null }), 'history'],
    [
      'includeShareholdings a number',
      ({ searchId, ids }) => ({ searchId, personIds: ids, includeShareholdings: 1 }),
      'includeShareholdings',
    ],
    [
      'includeShareholdings "true"',
      ({ searchId, ids }) => ({ searchId, personIds: ids, includeShareholdings: 'true' }),
      'includeShareholdings',
    ],
    [
      'a malformed id',
      ({ searchId, ids }) => ({ searchId, personIds: [ids[0], ids[1], 'prs_123', ids[2]] }),
      'personIds[2]',
    ],
    ['an id not a string', ({ searchId, ids }) => ({ searchId, personIds: [ids[0], 7] }), 'personIds[1]'],
    [
      'a search id as a person id',
      ({ searchId, ids }) => ({ searchId, personIds: [ids[0], searchId] }),
      'personIds[1]',
    ],
    ['a malformed search id', ({ ids }) => ({ searchId: 'psr_nope', personIds: ids }), 'searchId'],
    ['a person id as the search id', ({ ids }) => ({ searchId: ids[0], personIds: ids }), 'searchId'],
    [
      'an unknown search id',
      ({ ids }) => ({ searchId: `psr_${'0'.repeat(24)}`, personIds: ids }),
      'searchId',
    ],
    ['an unknown field', ({ searchId, ids }) => ({ searchId, personIds: ids, quantity: 4 }), 'quantity'],
  ])('%s → 422 validation_error, nothing bought', async (_case, body, param) => {
    const { key, search, ids } = await kowalskis();
    expectError(await buy(key, body({ searchId: search.id, ids })), 422, validationError(param));
    await expectNothingBought(key);
  });

  it('X-Client-Reference over 30 characters → 422 on that header', async () => {
    const { key, search, ids } = await kowalskis();
    expectError(
      await buy(key, { searchId: search.id, personIds: ids }, { 'X-Client-Reference': 'x'.repeat(31) }),
      422,
      validationError('X-Client-Reference'),
    );
    await expectNothingBought(key);
  });

  it.each([
    ['empty', ''],
    ['over 255 characters', 'k'.repeat(256)],
  ])('an Idempotency-Key that is %s → 422 on that header, nothing bought', async (_case, idempotencyKey) => {
    const { key, search, ids } = await kowalskis();
    expectError(
      await buy(key, { searchId: search.id, personIds: ids }, { 'Idempotency-Key': idempotencyKey }),
      422,
      validationError('Idempotency-Key'),
    );
    await expectNothingBought(key);
  });

  it('a search of another account, or of the same account’s other environment → 403 search_owner_mismatch on searchId', async () => {
    const { key, search, ids } = await kowalskis();
    const mismatch = { type: 'permission_error', code: 'search_owner_mismatch', param: 'searchId' };
    const stranger = await createKey('live');
    expectError(await buy(stranger, { searchId: search.id, personIds: ids }), 403, mismatch);
    const sameAccountTest = await createKey('test', { accountId: key.accountId });
    expectError(await buy(sameAccountTest, { searchId: search.id, personIds: ids }), 403, mismatch);
    await expectNothingBought(stranger);
    await expectNothingBought(key);
  });

  it('an id the search did not return → 404 person_not_found on that entry', async () => {
    const { key, search, ids } = await kowalskis();
    const notFound = (param: string) => ({ type: 'not_found_error', code: 'person_not_found', param });
    // Unknown everywhere.
    expectError(
      await buy(key, { searchId: search.id, personIds: [ids[0], wellFormed(), ids[1]] }),
      404,
      notFound('personIds[1]'),
    );
    // Returned by another search of the same owner.
    const other = await searchedPeople(key.secret, "O'BRIEN", 'MICHAEL');
    expectError(
      await buy(key, { searchId: search.id, personIds: [ids[0], ids[1], ids[2], other.data[0]?.id] }),
      404,
      notFound('personIds[3]'),
    );
    await expectNothingBought(key);
  });

  it('an id of another account’s or environment’s search → 403 search_owner_mismatch on that entry', async () => {
    const { key, search, ids } = await kowalskis();
    const stranger = await createKey('live');
    const theirs = await searchedPeople(stranger.secret, 'KOWALSKI', 'ANNA');
    expectError(
      await buy(key, { searchId: search.id, personIds: [ids[0], ids[1], theirs.data[0]?.id] }),
      403,
      { type: 'permission_error', code: 'search_owner_mismatch', param: 'personIds[2]' },
    );
    const sameAccountTest = await createKey('test', { accountId: key.accountId });
    const testSearch = await searchedPeople(sameAccountTest.secret, 'KOWALSKI', 'ANNA');
    expectError(await buy(key, { searchId: search.id, personIds: [testSearch.data[0]?.id] }), 403, {
      type: 'permission_error',
      code: 'search_owner_mismatch',
      param: 'personIds[0]',
    });
    await expectNothingBought(key);
  });

  it('a search older than 30 days → 410 search_expired on searchId', async () => {
    const { key, search, ids } = await kowalskis();
    await clock.advance(Date.parse(search.expiresAt) - Date.now());
    expectError(await buy(key, { searchId: search.id, personIds: ids }), 410, {
      type: 'invalid_request_error',
      code: 'search_expired',
      param: 'searchId',
    });
    await expectNothingBought(key);
  });

  it('a person with 1,000 roles → 422 person_too_many_roles on that entry, nothing bought; 999 roles buys', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'HALLORAN', 'B');
    const byName = new Map(search.data.map((person) => [person.name.formatted, person.id]));
    const bernard = byName.get('BERNARD JOSEPH HALLORAN') as string;
    const bridget = byName.get('BRIDGET ANNE HALLORAN') as string;
    for (const options of [{}, { history: true, includeShareholdings: true }]) {
      expectError(await buy(key, { searchId: search.id, personIds: [bridget, bernard], ...options }), 422, {
        type: 'invalid_request_error',
        code: 'person_too_many_roles',
        param: 'personIds[1]',
        details: { personId: bernard },
      });
    }
    expect(await registryCalls(key)).toStrictEqual([]);
    await expectNothingBought(key);

    const response = await buy(key, { searchId: search.id, personIds: [bridget] });
    const [extract] = expectCreated(response, 1, true);
    expect(extract?.person.registryIdentifier).toBe(P.roles999.registryIdentifier);
    // A current extract without shareholdings: the five current office roles.
    expect(extract?.roles).toHaveLength(5);
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(1);
    expect((await usageOf(key)).totals).toStrictEqual([
      {
        product: 'person_extract',
        feeCode: '958',
        billable: true,
        quantity: 1,
        entries: 1,
        amountCents: 2200,
      },
    ]);
  });

  it('one bad id among 100 → nothing bought or billed', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(
      key.secret,
      SIMULATOR_PEOPLE.hundred.familyName,
      SIMULATOR_PEOPLE.hundred.givenName,
    );
    const personIds = search.data.map((person) => person.id);
    personIds[57] = wellFormed();
    expectError(await buy(key, { searchId: search.id, personIds }), 404, {
      type: 'not_found_error',
      code: 'person_not_found',
      param: 'personIds[57]',
    });
    expect(await registryCalls(key)).toStrictEqual([]);
    await expectNothingBought(key);
  });
});

describe('registry faults', () => {
  it('a maintenance window (ZZ51) → 503 with Retry-After 300, nothing bought or billed', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    await simulator.addFault({ code: 'ZZ51', operations: ['person.extract'] });
    const response = await buy(key, { searchId: search.id, personIds: search.data.map((p) => p.id) });
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(response.headers.get('retry-after')).toBe('300');
    await expectNothingBought(key);
  });

  it('an application error (ZZ53) once per call is retried and bought once; every time → 502, unbilled', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    const body = { searchId: search.id, personIds: search.data.map((p) => p.id) };
    await simulator.addFault({ code: 'ZZ53', operations: ['person.extract'], accountId: key.accountId });
    expectError(await buy(key, body), 502, {
      type: 'api_error',
      code: 'registry_application_error',
      param: null,
      registryCode: 'ZZ53',
    });
    await expectNothingBought(key);
    await simulator.clearFaults();
    await simulator.addFault({
      code: 'ZZ53',
      operations: ['person.extract'],
      accountId: key.accountId,
      times: 1,
    });
    expectCreated(await buy(key, body), 4, true);
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(4);
    expect((await usageOf(key)).totals).toStrictEqual([
      {
        product: 'person_extract',
        feeCode: '958',
        billable: true,
        quantity: 4,
        entries: 4,
        amountCents: 8800,
      },
    ]);
  });

  it('person extracts not enabled for one account (ZZ02) → 403 product_not_enabled there; another account buys', async () => {
    const blocked = await createKey('live');
    const other = await createKey('live');
    await simulator.addFault({ code: 'ZZ02', operations: ['person.extract'], accountId: blocked.accountId });
    const blockedSearch = await searchedPeople(blocked.secret, "O'BRIEN", 'MICHAEL');
    expectError(
      await buy(blocked, { searchId: blockedSearch.id, personIds: [blockedSearch.data[0]?.id] }),
      403,
      {
        type: 'permission_error',
        code: 'product_not_enabled',
        param: null,
        registryCode: 'ZZ02',
      },
    );
    await expectNothingBought(blocked);
    const otherSearch = await searchedPeople(other.secret, "O'BRIEN", 'MICHAEL');
    expectCreated(
      await buy(other, { searchId: otherSearch.id, personIds: [otherSearch.data[0]?.id] }),
      1,
      true,
    );
    expect(await registryPurchases(other.accountId, 'person.extract')).toBe(1);
  });
});

describe('100 people: billed once, never lost (live keys, the simulator’s SMITH / JOHN)', () => {
  async function smiths() {
    const key = await createKey('live');
    const search = await searchedPeople(
      key.secret,
      SIMULATOR_PEOPLE.hundred.familyName,
      SIMULATOR_PEOPLE.hundred.givenName,
    );
    expect(search.data).toHaveLength(100);
    return { key, search };
  }

  /** Each person billed exactly once by the registry, 100 fees of 958 in the ledger. */
  async function expectBilledOnce(key: TestKey, extracts: PersonExtract[]) {
    const billed = (await registryCalls(key)).filter((c) => c.billed);
    expect(billed).toHaveLength(100);
    expect(new Set(billed.map((c) => c.args.registryIdentifier)).size).toBe(100);
    const usage = await usageOf(key);
    expect(usage.totals).toStrictEqual([
      {
        product: 'person_extract',
        feeCode: '958',
        billable: true,
        quantity: 100,
        entries: 100,
        amountCents: 220000,
      },
    ]);
    expect(usage.data.map((entry) => entry.resourceId).sort()).toStrictEqual(
      extracts.map((extract) => extract.id).sort(),
    );
    expect(usage.data.every((entry) => entry.feeCode === '958' && entry.quantity === 1)).toBe(true);
    expect(await heldPersonExtracts(key)).toHaveLength(100);
  }

  it('the same Idempotency-Key and body → a replay of the same extracts; a different body → 409', async () => {
    const { key, search } = await smiths();
    const personIds = search.data.map((person) => person.id).reverse();
    const headers = { 'Idempotency-Key': randomUUID(), 'X-Client-Reference': 'batch-1' };
    const body = { searchId: search.id, personIds };
    const first = await buy(key, body, headers);
    const extracts = expectCreated(first, 100, true);
    expect(extracts.map((extract) => extract.person.id)).toStrictEqual(personIds);
    expect(extracts.every((extract) => extract.clientReference === 'batch-1')).toBe(true);
    expect(extracts.every((extract) => extract.expiresAt === twelveMonthsAfter(extract.purchasedAt))).toBe(
      true,
    );

    const replay = await buy(key, body, headers);
    const replayed = expectCreated(replay, 100, true);
    const withoutMeta = (list: PersonExtract[]) => list.map(({ meta: _meta, ...extract }) => extract);
    expect(withoutMeta(replayed)).toStrictEqual(withoutMeta(extracts));
    expect(replay.body.searchId).toBe(search.id);

    for (const changed of [
      [{ ...body, personIds: personIds.slice(1) }, headers],
      [{ ...body, history: true }, headers],
      [body, { ...headers, 'X-Client-Reference': 'batch-2' }],
    ] as const) {
      expectError(await buy(key, changed[0], changed[1]), 409, {
        type: 'conflict_error',
        code: 'idempotency_conflict',
        param: 'Idempotency-Key',
      });
    }
    // The client reference reached the registry with every call (it is shown on the invoice).
    const billed = (await registryCalls(key)).filter((c) => c.billed);
    expect(billed.every((c) => c.clientReference === 'batch-1')).toBe(true);
    await expectBilledOnce(key, extracts);
  });

  it('when the commit fails after the registry answered: 500, then the retry commits without asking again', async () => {
    const { key, search } = await smiths();
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { searchId: search.id, personIds: search.data.map((person) => person.id) };
    // Three failures: the purchase's own retries of its commit all fail.
    await failNextCommits(3);
    expectError(await buy(key, body, headers), 500, {
      type: 'api_error',
      code: 'internal_error',
      param: null,
    });
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(100);
    // Bought but not committed: nothing visible, nothing in the ledger.
    expect((await usageOf(key)).data).toStrictEqual([]);
    expect(await heldPersonExtracts(key)).toStrictEqual([]);
    const firstPerson = body.personIds[0] as string;
    const rolesPath = `/v1/people/${firstPerson}/roles`;
    expect((await call(rolesPath, { key: key.secret })).status).toBe(402);

    const retried = await buy(key, body, headers);
    const extracts = expectCreated(retried, 100, true);
    expect(extracts.map((extract) => extract.person.id)).toStrictEqual(body.personIds);
    expect((await registryCalls(key)).length).toBe(100);
    // Committed: readable by id and serving role reads.
    const [one] = extracts as [PersonExtract];
    expect((await call(`/v1/extracts/${one.id}`, { key: key.secret })).status).toBe(200);
    const read = await call<{ extract: { id: string }; data: unknown[] }>(rolesPath, { key: key.secret });
    expect(read.status).toBe(200);
    expect(read.body.extract.id).toBe(one.id);
    await expectBilledOnce(key, extracts);
  });

  it('a maintenance window after some people were bought → 503; the retry buys only the rest', async () => {
    const { key, search } = await smiths();
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { searchId: search.id, personIds: search.data.map((person) => person.id) };
    // The first call waits, then answers ZZ51; the calls beside it succeed meanwhile.
    await simulator.addFault({
      code: 'ZZ51',
      operations: ['person.extract'],
      accountId: key.accountId,
      times: 1,
      latencyMs: 500,
    });
    const failed = await buy(key, body, headers);
    expectError(failed, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(failed.headers.get('retry-after')).toBe('300');
    const firstCalls = await registryCalls(key);
    const boughtFirst = firstCalls.filter((c) => c.billed).length;
    expect(boughtFirst).toBeGreaterThan(0);
    expect(boughtFirst).toBeLessThan(100);
    expect(firstCalls.filter((c) => c.outcome === 'ZZ51')).toHaveLength(1);
    expect((await usageOf(key)).data).toStrictEqual([]);
    expect(await heldPersonExtracts(key)).toStrictEqual([]);

    const retried = await buy(key, body, headers);
    const extracts = expectCreated(retried, 100, true);
    expect(extracts.map((extract) => extract.person.id)).toStrictEqual(body.personIds);
    expect(extracts.every((extract) => extract.expiresAt === twelveMonthsAfter(extract.purchasedAt))).toBe(
      true,
    );
    // Only the people not bought the first time were asked for.
    expect((await registryCalls(key)).length).toBe(firstCalls.length + (100 - boughtFirst));
    await expectBilledOnce(key, extracts);
  });

  it('the same Idempotency-Key sent again while the first still runs → it waits and answers the first’s extracts, never a second purchase', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    const body = { searchId: search.id, personIds: search.data.map((p) => p.id) };
    const headers = { 'Idempotency-Key': randomUUID() };
    await simulator.addFault({ latencyMs: 400, operations: ['person.extract'], accountId: key.accountId });
    const first = buy(key, body, headers);
    // Sent once the first is at the registry.
    for (let tries = 0; tries < 250 && (await registryCalls(key)).length === 0; tries++) {
      await new Promise((done) => setTimeout(done, 20));
    }
    const duplicate = await buy(key, body, headers);
    const extracts = expectCreated(await first, 4, true);
    expect(expectCreated(duplicate, 4, true).map((extract) => extract.id)).toStrictEqual(
      extracts.map((extract) => extract.id),
    );
    const later = await buy(key, body, headers);
    expect(expectCreated(later, 4, true).map((extract) => extract.id)).toStrictEqual(
      extracts.map((extract) => extract.id),
    );
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(4);
    expect((await usageOf(key)).totals).toStrictEqual([
      {
        product: 'person_extract',
        feeCode: '958',
        billable: true,
        quantity: 4,
        entries: 4,
        amountCents: 8800,
      },
    ]);
  });

  it('a commit that fails once is retried in place: 201, billed once', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    await failNextCommits(1);
    const response = await buy(key, { searchId: search.id, personIds: search.data.map((p) => p.id) });
    expectCreated(response, 4, true);
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(4);
    expect((await usageOf(key)).totals).toStrictEqual([
      {
        product: 'person_extract',
        feeCode: '958',
        billable: true,
        quantity: 4,
        entries: 4,
        amountCents: 8800,
      },
    ]);
  });
});
