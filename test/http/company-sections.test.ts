import { afterEach, describe, expect, it } from 'vitest';
import type { operations } from '../../clients/typescript/index.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { abnForAcn } from '../../shared/adapters/sandbox/data/company-builders.ts';
import {
  type ApiResponse,
  buyExtract,
  call,
  createKey,
  expectError,
  registryPurchases,
  simulator,
  type TestKey,
  validationError,
} from '../support/api.ts';
import { asApiResponse, typedClient } from '../support/client.ts';
import { ROLE_ORDER } from '../support/spec.ts';

/**
 * Free section reads of held company extracts, and the single-charge lookup, over real HTTP
 * (spec document 1, 2.1–2.4 and 2.9; document 2, 4.1; document 3, 7;
 * docs/decisions/0032-company-paths-and-section-reads.md). Every test buys what it needs with a
 * fresh key (a fresh account), so no test depends on what another one bought.
 */

type Body = Record<string, unknown>;
type ExtractType = 'current' | 'historical' | 'relational';
type Coded = { code: string; label: string };

interface ExtractRef {
  id: string;
  type: string;
  purchasedAt: string;
  asOf: string;
}

interface Holding {
  key: TestKey;
  extract: ExtractRef;
}

interface ListBody extends Body {
  data: Body[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number | null;
  extract: ExtractRef;
}

afterEach(async () => {
  await simulator.clearFaults();
});

/** Buys one extract per type with a fresh key (fresh account); the last is the holding's extract. */
async function holding(id: string, types: ExtractType[], options: { key?: TestKey } = {}): Promise<Holding> {
  const key = options.key ?? (await createKey('test'));
  let extract: ExtractRef | undefined;
  for (const type of types) {
    const response = await buyExtract(key.secret, id, type);
    expect(response.status, response.text).toBe(201);
    const body = response.body as unknown as ExtractRef;
    extract = { id: body.id, type: body.type, purchasedAt: body.purchasedAt, asOf: body.asOf };
  }
  if (!extract) throw new Error('holding: no extract type given');
  return { key, extract };
}

const read = <T = ListBody>(key: TestKey, path: string) => call<T>(path, { key: key.secret });

/** 200 with the free-read meta whose requestId is the header's. */
function expectFree(response: ApiResponse<Body>) {
  expect(response.status, response.text).toBe(200);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_./);
  expect(response.body.meta).toStrictEqual({ billable: false, product: null, requestId });
}

/** A free list read from a held extract: the whole envelope but `data`. */
function expectSectionList(
  response: ApiResponse<ListBody>,
  extract: ExtractRef,
  page: { hasMore?: boolean; nextCursor?: 'string' | null; totalCount: number | null },
) {
  expectFree(response);
  expect(response.body.object).toBe('list');
  expect(response.body.extract).toStrictEqual(extract);
  expect(response.body.hasMore).toBe(page.hasMore ?? false);
  if (page.nextCursor === 'string') expect(response.body.nextCursor).toEqual(expect.any(String));
  else expect(response.body.nextCursor).toBeNull();
  expect(response.body.totalCount).toBe(page.totalCount);
}

const products: Record<ExtractType, string> = {
  current: 'company_extract_current',
  historical: 'company_extract_historical',
  relational: 'company_relationships',
};

/** 402 naming the purchase that satisfies the read (document 3, 7.1 and 7.6). */
function expectExtractRequired(response: ApiResponse<unknown>, acn: string, type: ExtractType) {
  expectError(response, 402, {
    type: 'extract_required_error',
    code: 'extract_required',
    param: null,
    details: {
      purchase: {
        method: 'POST',
        path: `/v1/companies/${acn}/extracts`,
        body: { type },
        product: products[type],
      },
    },
  });
}

const unavailableForType = (registryCode: string | null = null) => ({
  type: 'invalid_request_error',
  code: 'extract_unavailable_for_type',
  param: 'id',
  registryCode,
});

const spaced = (nine: string) => nine.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');

const CURRENT: Coded = { code: 'C', label: 'Current' };
const CEASED: Coded = { code: 'E', label: 'Ceased/Former' };
const FUTURE: Coded = { code: 'F', label: 'Future' };
const ACN: Coded = { code: 'ACN', label: 'Australian Company Number' };
const APTY: Coded = { code: 'APTY', label: 'Australian Proprietary Company' };
const REGD: Coded = { code: 'REGD', label: 'Registered' };

describe('402 extract_required: nothing suitable held', () => {
  // The public company holds relationships and can have charges, so each 402 proposes a purchase
  // that succeeds.
  const acn = SANDBOX.public;

  it.each([
    ['officeholders', 'current'],
    ['addresses', 'current'],
    ['share-structure', 'current'],
    ['documents', 'current'],
    ['external-administration', 'current'],
    ['relationships', 'relational'],
    ['charges', 'historical'],
  ] as const)('GET /%s proposes a %s extract', async (section, type) => {
    const key = await createKey('test');
    expectExtractRequired(await read(key, `/v1/companies/${acn}/${section}`), acn, type);
  });

  it('proposes the purchase under the ACN when the company was named by its ABN', async () => {
    const key = await createKey('test');
    expectExtractRequired(
      await read(key, `/v1/companies/${abnForAcn(SANDBOX.satisfiedCharges)}/charges`),
      SANDBOX.satisfiedCharges,
      'historical',
    );
  });

  it('proposes a purchase that then succeeds and satisfies the read', async () => {
    const key = await createKey('test');
    const first = await read(key, `/v1/companies/${SANDBOX.satisfiedCharges}/charges`);
    expectExtractRequired(first, SANDBOX.satisfiedCharges, 'historical');
    const { purchase } = (
      first.body as unknown as { error: { details: { purchase: { path: string; body: Body } } } }
    ).error.details;
    const bought = await call(purchase.path, { key: key.secret, method: 'POST', body: purchase.body });
    expect(bought.status, bought.text).toBe(201);
    expectFree((await read(key, `/v1/companies/${SANDBOX.satisfiedCharges}/charges`)) as ApiResponse<Body>);
  });

  it('charges with only a current extract held: proposes a historical one', async () => {
    const { key } = await holding(SANDBOX.satisfiedCharges, ['current']);
    expectExtractRequired(
      await read(key, `/v1/companies/${SANDBOX.satisfiedCharges}/charges`),
      SANDBOX.satisfiedCharges,
      'historical',
    );
  });

  it('charges naming a current extract with extract=: proposes a historical one', async () => {
    const { key, extract } = await holding(SANDBOX.satisfiedCharges, ['current']);
    expectExtractRequired(
      await read(key, `/v1/companies/${SANDBOX.satisfiedCharges}/charges?extract=${extract.id}`),
      SANDBOX.satisfiedCharges,
      'historical',
    );
  });

  it.each([
    'officeholders?status=ceased',
    'officeholders?status=all',
    'addresses?status=ceased',
    'share-structure?status=all',
  ])('%s with only a current extract: proposes a historical one', async (query) => {
    const { key } = await holding(SANDBOX.proprietary, ['current']);
    expectExtractRequired(
      await read(key, `/v1/companies/${SANDBOX.proprietary}/${query}`),
      SANDBOX.proprietary,
      'historical',
    );
  });

  it('documents?qualifier=AR with only a current extract: proposes a historical one', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['current']);
    expectExtractRequired(
      await read(key, `/v1/companies/${SANDBOX.proprietary}/documents?qualifier=AR`),
      SANDBOX.proprietary,
      'historical',
    );
  });

  it('relationships with only a historical extract: proposes a relational one', async () => {
    const { key } = await holding(SANDBOX.relational, ['historical']);
    expectExtractRequired(
      await read(key, `/v1/companies/${SANDBOX.relational}/relationships`),
      SANDBOX.relational,
      'relational',
    );
  });

  it('officeholders with only a relational extract: proposes a current one', async () => {
    const { key } = await holding(SANDBOX.relational, ['relational']);
    expectExtractRequired(
      await read(key, `/v1/companies/${SANDBOX.relational}/officeholders`),
      SANDBOX.relational,
      'current',
    );
  });
});

describe('organisation types without the product', () => {
  it('charges of a scheme (MISM) with nothing held: extract_unavailable_for_type', async () => {
    const key = await createKey('test');
    expectError(await read(key, `/v1/companies/${SANDBOX.scheme}/charges`), 422, unavailableForType());
  });

  it('charges of a scheme (MISM) even with a historical extract held: extract_unavailable_for_type', async () => {
    const { key, extract } = await holding(SANDBOX.scheme, ['historical']);
    expectError(await read(key, `/v1/companies/${SANDBOX.scheme}/charges`), 422, unavailableForType());
    expectError(
      await read(key, `/v1/companies/${SANDBOX.scheme}/charges?extract=${extract.id}`),
      422,
      unavailableForType(),
    );
  });

  it.each([
    ['trust (TRST)', SANDBOX.trust, 'officeholders'],
    ['trust (TRST)', SANDBOX.trust, 'addresses'],
    ['association (ASSN)', SANDBOX.association, 'officeholders'],
    ['association (ASSN)', SANDBOX.association, 'share-structure'],
    ['association (ASSN)', SANDBOX.association, 'charges'],
  ])('a section read of a %s (/%s): extract_unavailable_for_type', async (_name, id, section) => {
    const key = await createKey('test');
    expectError(await read(key, `/v1/companies/${id}/${section}`), 422, unavailableForType());
  });

  it('relationships of a scheme (no relational extract): extract_unavailable_for_type', async () => {
    const key = await createKey('test');
    expectError(await read(key, `/v1/companies/${SANDBOX.scheme}/relationships`), 422, unavailableForType());
  });

  it('documents of an association (outside the document-list table): document_list_unavailable', async () => {
    const key = await createKey('test');
    expectError(await read(key, `/v1/companies/${SANDBOX.association}/documents`), 422, {
      type: 'invalid_request_error',
      code: 'document_list_unavailable',
      param: 'id',
    });
  });

  it('a relational purchase of a company holding no roles in others: no_relational_data (CR02)', async () => {
    const key = await createKey('test');
    expectError(await buyExtract(key.secret, SANDBOX.noRelationships, 'relational'), 404, {
      type: 'not_found_error',
      code: 'no_relational_data',
      param: 'id',
      registryCode: 'CR02',
    });
  });

  it.each(['current', 'historical'])(
    'a %s extract of an association: extract_unavailable_for_type (CE51)',
    async (type) => {
      const key = await createKey('test');
      expectError(await buyExtract(key.secret, SANDBOX.association, type), 422, unavailableForType('CE51'));
    },
  );

  it('a relational extract of a scheme: extract_unavailable_for_type (CR51)', async () => {
    const key = await createKey('test');
    expectError(await buyExtract(key.secret, SANDBOX.scheme, 'relational'), 422, unavailableForType('CR51'));
  });
});

// ---------------------------------------------------------------------------------------------
// Charges
// ---------------------------------------------------------------------------------------------

const ironbark = {
  acn: SANDBOX.satisfiedCharges,
  formatted: spaced(SANDBOX.satisfiedCharges),
  numberType: ACN,
  name: 'IRONBARK ENGINEERING PTY LTD',
  type: APTY,
  status: REGD,
  abn: abnForAcn(SANDBOX.satisfiedCharges),
  registeredCharity: false,
};

const bankChargee = {
  party: {
    type: 'organisation',
    person: null,
    birth: null,
    organisation: {
      number: SANDBOX.bank,
      numberType: ACN,
      name: 'SOUTHERN CROSS BANK LIMITED',
      abn: abnForAcn(SANDBOX.bank),
    },
  },
};

const chargeDocument = (
  documentNumber: string,
  formCode: string,
  receivedAt: string,
  processedAt: string,
  pageCount: number,
  imaged: boolean,
) => ({
  object: 'document',
  documentNumber,
  formCode,
  formDescription: expect.any(String),
  subForms: [],
  receivedAt,
  processedAt,
  effectiveAt: receivedAt,
  qualifier: null,
  pageCount,
  imaged,
  underRequisition: false,
  xbrlAvailable: false,
  xbrlDocumentNumber: null,
  status: null,
  priced: true,
});

/** charges.migrated (docs/sandbox.md): SATF, floating, pre-1991 number, registered at midnight. */
const migratedCharge = {
  object: 'charge',
  chargeNumber: SANDBOX.charges.migrated,
  company: ironbark,
  status: { code: 'SATF', label: 'Satisfied' },
  type: { code: 'F', label: 'Floating' },
  registeredAt: '1989-06-01T00:00:00Z',
  createdAt: '1989-05-22',
  expiresAt: null,
  satisfiedAt: '2003-02-14',
  preAsicChargeNumber: '00045678',
  chargees: [bankChargee],
  documents: [
    chargeDocument('9E0140006', '309', '1989-06-01', '1989-06-03', 4, false),
    chargeDocument('9E0140007', '350', '1989-06-05', '1989-06-07', 2, false),
    chargeDocument('9E0140008', '312', '2003-02-20', '2003-02-22', 3, true),
  ],
};

/** charges.jointChargee: SATF, fixed and floating, two persons as one joint chargee. */
const jointCharge = {
  object: 'charge',
  chargeNumber: SANDBOX.charges.jointChargee,
  company: ironbark,
  status: { code: 'SATF', label: 'Satisfied' },
  type: { code: 'B', label: 'Both Fixed & Floating' },
  registeredAt: '2004-08-17T10:32:11Z',
  createdAt: '2004-08-10',
  expiresAt: '2014-08-10',
  satisfiedAt: '2015-11-30',
  preAsicChargeNumber: null,
  chargees: [
    {
      party: {
        type: 'person',
        person: { familyName: 'IRONS', givenNames: ['MARGARET', 'ANNE'], formatted: 'MARGARET ANNE IRONS' },
        birth: null,
        organisation: null,
      },
    },
    {
      party: {
        type: 'person',
        person: { familyName: 'IRONS', givenNames: ['PETER', 'JAMES'], formatted: 'PETER JAMES IRONS' },
        birth: null,
        organisation: null,
      },
    },
  ],
  documents: [
    chargeDocument('9E0140003', '309', '2004-08-17', '2004-08-19', 5, true),
    chargeDocument('9E0140004', '350', '2004-08-20', '2004-08-22', 2, true),
    chargeDocument('9E0140005', '312', '2015-12-04', '2015-12-06', 3, true),
  ],
};

/** charges.deleted: DELT (lodged in error), fixed, one 309. */
const deletedCharge = {
  object: 'charge',
  chargeNumber: SANDBOX.charges.deleted,
  company: ironbark,
  status: { code: 'DELT', label: expect.stringMatching(/^Deleted/) },
  type: { code: 'X', label: 'Fixed' },
  registeredAt: '2010-02-03T14:05:00Z',
  createdAt: '2010-01-28',
  expiresAt: null,
  satisfiedAt: null,
  preAsicChargeNumber: null,
  chargees: [bankChargee],
  documents: [chargeDocument('9E0140002', '309', '2010-02-03', '2010-02-05', 4, true)],
};

/**
 * The charges of a company through the typed client (clients/typescript/): its parameters, and
 * the list it answers with, are typed from docs/openapi.json.
 */
type ChargesQuery = NonNullable<operations['ListCompanyCharges']['parameters']['query']>;
const charges = (key: TestKey, query: ChargesQuery = {}, id: string = SANDBOX.satisfiedCharges) =>
  typedClient(key.secret).GET('/v1/companies/{id}/charges', { params: { path: { id }, query } });

/** The typed list as the test client's response, for the envelope checks shared with other sections. */
const asList = (result: Awaited<ReturnType<typeof charges>>) =>
  asApiResponse(result) as unknown as ApiResponse<ListBody>;

/** The list's charges, typed: a contract change to a charge breaks the type check here. */
function chargesOf(result: Awaited<ReturnType<typeof charges>>) {
  if (!result.data) throw new Error(`no charges: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data.data;
}

describe('GET /v1/companies/{id}/charges from a historical extract (typed client)', () => {
  it('lists the satisfied charges by default, chronologically, in the spec envelope', async () => {
    const { key, extract } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    expect(extract.type).toBe('historical');
    const result = await charges(key);
    expectSectionList(asList(result), extract, { totalCount: null });
    expect(Object.keys(result.data ?? {}).sort()).toStrictEqual(
      ['object', 'data', 'hasMore', 'nextCursor', 'totalCount', 'extract', 'meta'].sort(),
    );
    expect(chargesOf(result)).toStrictEqual([migratedCharge, jointCharge]);
  });

  it('reports the extract it read: id, type historical, purchasedAt and asOf of the purchase', async () => {
    const { key, extract } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    const result = await charges(key);
    expect(result.data?.extract).toStrictEqual(extract);
    expect(extract.purchasedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(extract.asOf).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('status=deleted lists only the deleted charge', async () => {
    const { key, extract } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    const result = await charges(key, { status: 'deleted' });
    expectSectionList(asList(result), extract, { totalCount: null });
    expect(chargesOf(result)).toStrictEqual([deletedCharge]);
  });

  it('status=all lists every charge in order of registration', async () => {
    const { key, extract } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    const result = await charges(key, { status: 'all' });
    expectSectionList(asList(result), extract, { totalCount: null });
    expect(chargesOf(result)).toStrictEqual([migratedCharge, jointCharge, deletedCharge]);
    const registered = chargesOf(result).map((charge) => charge.registeredAt);
    expect([...registered].sort()).toStrictEqual(registered);
  });

  it('status=satisfied is the default', async () => {
    const { key } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    const result = await charges(key, { status: 'satisfied' });
    expectFree(asList(result));
    expect(chargesOf(result).map((charge) => charge.chargeNumber)).toStrictEqual([
      SANDBOX.charges.migrated,
      SANDBOX.charges.jointChargee,
    ]);
  });

  it('lists each charge’s documents from the notification (309) to the discharge (312), status null', async () => {
    const { key } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    const result = await charges(key);
    expectFree(asList(result));
    for (const charge of chargesOf(result)) {
      expect(charge.documents[0]?.formCode).toBe('309');
      expect(charge.documents.at(-1)?.formCode).toBe('312');
      for (const document of charge.documents) expect(document.status).toBeNull();
    }
  });

  it('refuses an unknown status with validation_error on status', async () => {
    const { key } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    // The type forbids it; the API refuses it too.
    const result = await charges(key, { status: 'bogus' as ChargesQuery['status'] });
    expectError(asApiResponse(result), 422, validationError('status'));
  });

  it('reads the extract named by extract=', async () => {
    const { key, extract } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    // A newer historical extract is the default; extract= still reads the older one.
    const newer = await holding(SANDBOX.satisfiedCharges, ['historical'], { key });
    expect(newer.extract.id).not.toBe(extract.id);
    const named = await charges(key, { extract: extract.id });
    expectSectionList(asList(named), extract, { totalCount: null });
    expect(chargesOf(named)).toStrictEqual([migratedCharge, jointCharge]);
    const byDefault = await charges(key);
    expect(byDefault.data?.extract).toStrictEqual(newer.extract);
  });

  it('refuses a malformed extract id with validation_error on extract', async () => {
    const { key } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    for (const bad of ['ext_123', 'abc', `ext_${'g'.repeat(24)}`]) {
      expectError(asApiResponse(await charges(key, { extract: bad })), 422, validationError('extract'));
    }
  });

  it('refuses an extract of another company with extract_owner_mismatch', async () => {
    const { key, extract } = await holding(SANDBOX.noCharges, ['historical']);
    await holding(SANDBOX.satisfiedCharges, ['historical'], { key });
    const result = await charges(key, { extract: extract.id });
    expect(result.error?.error.code).toBe('extract_owner_mismatch');
    expectError(asApiResponse(result), 403, {
      type: 'permission_error',
      code: 'extract_owner_mismatch',
      param: 'extract',
    });
  });

  it('answers extract_not_found for a well-formed id that no extract has', async () => {
    const { key } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    expectError(asApiResponse(await charges(key, { extract: `ext_${'0'.repeat(24)}` })), 404, {
      type: 'not_found_error',
      code: 'extract_not_found',
      param: 'extract',
    });
  });

  it('refuses another account’s extract, and a test extract read with a live key', async () => {
    const { extract } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    const other = await holding(SANDBOX.satisfiedCharges, ['historical']);
    const mismatch = { type: 'permission_error', code: 'extract_owner_mismatch', param: 'extract' };
    expectError(asApiResponse(await charges(other.key, { extract: extract.id })), 403, mismatch);
    const live = await createKey('live', { accountId: other.key.accountId });
    expectError(asApiResponse(await charges(live, { extract: other.extract.id })), 403, mismatch);
  });

  it('gives an empty list for a company without charges', async () => {
    const { key, extract } = await holding(SANDBOX.noCharges, ['historical']);
    for (const status of ['satisfied', 'deleted', 'all'] as const) {
      const result = await charges(key, { status }, SANDBOX.noCharges);
      expectSectionList(asList(result), extract, { totalCount: null });
      expect(chargesOf(result)).toStrictEqual([]);
    }
  });

  it('reads the same charges when the company is named by its ABN', async () => {
    const { key, extract } = await holding(SANDBOX.satisfiedCharges, ['historical']);
    const result = await charges(key, {}, abnForAcn(SANDBOX.satisfiedCharges));
    expectSectionList(asList(result), extract, { totalCount: null });
    expect(chargesOf(result)).toStrictEqual([migratedCharge, jointCharge]);
  });
});

// ---------------------------------------------------------------------------------------------
// Office holders
// ---------------------------------------------------------------------------------------------

const officeholdersPath = `/v1/companies/${SANDBOX.proprietary}/officeholders`;

/** Who holds what: role, record status, name and ceasing date. */
const holders = (body: ListBody) =>
  body.data.map((record) => {
    const party = record.party as {
      person: { formatted: string } | null;
      organisation: { name: string } | null;
    };
    return [
      (record.role as Coded).code,
      (record.status as Coded).code,
      party.person?.formatted ?? party.organisation?.name,
      record.ceasedAt,
    ];
  });

/** BLUEGUM ORCHARDS PTY LTD, every office holder in display order (docs/sandbox.md). */
const allProprietaryHolders = [
  ['DR', 'C', 'JANE ELIZABETH SMITH', null],
  ['DR', 'C', 'THANH NGUYEN', null],
  ['DR', 'F', 'PRIYA PATEL', null],
  ['DR', 'E', "MICHAEL PATRICK O'BRIEN", '2019-11-30'],
  ['DR', 'E', 'ROBERT JOHN SMITH', '2015-06-30'],
  ['SR', 'C', 'JANE ELIZABETH SMITH', null],
  ['SR', 'E', "MICHAEL PATRICK O'BRIEN", '2018-09-30'],
  ['LD', 'E', 'THANH NGUYEN', '2017-04-30'],
  ['AA', 'C', 'PEARSON WHITE CHARTERED ACCOUNTANTS', null],
  ['UH', 'C', 'SOUTHERN CROSS HOLDINGS LIMITED', null],
];

describe('GET /v1/companies/{id}/officeholders', () => {
  it('status=all on a historical extract: role display order, current first, newest-ceasing first', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read(key, `${officeholdersPath}?status=all`);
    expectSectionList(response, extract, { totalCount: 10 });
    expect(holders(response.body)).toStrictEqual(allProprietaryHolders);
    // Roles never go backwards in the spec's display order.
    const ranks = response.body.data.map((record) => ROLE_ORDER.indexOf((record.role as Coded).code));
    expect(ranks.every((rank) => rank >= 0)).toBe(true);
    expect([...ranks].sort((a, b) => a - b)).toStrictEqual(ranks);
  });

  it('shows an office holder in full', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read(key, `${officeholdersPath}?status=all`);
    expectFree(response);
    expect(response.body.data[0]).toStrictEqual({
      object: 'officeholder',
      role: { code: 'DR', label: 'Director' },
      status: CURRENT,
      appointedAt: '2010-07-01',
      ceasedAt: null,
      party: {
        type: 'person',
        person: { familyName: 'SMITH', givenNames: ['JANE', 'ELIZABETH'], formatted: 'JANE ELIZABETH SMITH' },
        birth: { date: '1970-03-12', locality: 'ORANGE', stateOrCountry: 'NSW' },
        organisation: null,
      },
      address: {
        careOf: null,
        line1: null,
        street: '22 KITE STREET',
        locality: 'ORANGE',
        state: 'NSW',
        postcode: '2800',
        country: 'AUSTRALIA',
      },
      sourceDocument: { documentNumber: '9E0010001', qualifier: null },
    });
    expect(response.body.data[2]?.status).toStrictEqual(FUTURE);
    expect(response.body.data[3]?.status).toStrictEqual(CEASED);
  });

  it('status=current is the default and holds current and future records only', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const current = allProprietaryHolders.filter(([, status]) => status !== 'E');
    for (const path of [officeholdersPath, `${officeholdersPath}?status=current`]) {
      const response = await read(key, path);
      expectSectionList(response, extract, { totalCount: 6 });
      expect(holders(response.body)).toStrictEqual(current);
    }
  });

  it('a current extract alone serves the default read', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['current']);
    const response = await read(key, officeholdersPath);
    expectSectionList(response, extract, { totalCount: 6 });
    expect(holders(response.body)).toStrictEqual(allProprietaryHolders.filter(([, s]) => s !== 'E'));
  });

  it('status=ceased keeps only ceased records, in the same order', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read(key, `${officeholdersPath}?status=ceased`);
    expectSectionList(response, extract, { totalCount: 4 });
    expect(holders(response.body)).toStrictEqual(allProprietaryHolders.filter(([, s]) => s === 'E'));
  });

  it('pages with limit=2 and the cursor through the whole list', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `${officeholdersPath}?status=all&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await read(key, path);
      pages++;
      const last = pages === 5;
      expectSectionList(response, extract, {
        totalCount: 10,
        hasMore: !last,
        nextCursor: last ? null : 'string',
      });
      expect(response.body.data).toHaveLength(2);
      seen.push(...holders(response.body));
      cursor = response.body.nextCursor;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(5);
    expect(seen).toStrictEqual(allProprietaryHolders);
  });

  it('refuses a cursor used with another status filter', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['historical']);
    const first = await read(key, `${officeholdersPath}?status=all&limit=2`);
    expectFree(first);
    const cursor = encodeURIComponent(first.body.nextCursor as string);
    expectError(
      await read(key, `${officeholdersPath}?status=ceased&limit=2&cursor=${cursor}`),
      400,
      validationError('cursor'),
    );
  });

  it('refuses an unknown status with validation_error on status', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['historical']);
    expectError(await read(key, `${officeholdersPath}?status=former`), 422, validationError('status'));
  });

  it('shows a role the table does not know with label = code, after every known role', async () => {
    const { key, extract } = await holding(SANDBOX.unknownCodes, ['current']);
    const response = await read(key, `/v1/companies/${SANDBOX.unknownCodes}/officeholders`);
    expectSectionList(response, extract, { totalCount: 2 });
    expect(response.body.data.map((record) => record.role)).toStrictEqual([
      { code: 'DR', label: 'Director' },
      { code: 'ZX', label: 'ZX' },
    ]);
  });

  it('puts a scheme’s responsible entities (RN) before its compliance plan auditor (CA)', async () => {
    const { key, extract } = await holding(SANDBOX.scheme, ['historical']);
    const response = await read(key, `/v1/companies/${SANDBOX.scheme}/officeholders?status=all`);
    expectSectionList(response, extract, { totalCount: 3 });
    expect(holders(response.body)).toStrictEqual([
      ['RN', 'C', 'SOUTHERN CROSS HOLDINGS LIMITED', null],
      ['RN', 'E', 'SOUTHERN CROSS BANK LIMITED', '2012-04-30'],
      ['CA', 'C', 'DAVID ALAN YOUNG', null],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

const addressesPath = `/v1/companies/${SANDBOX.proprietary}/addresses`;

interface AddressListBody extends ListBody {
  contactAddress: Body | null;
}

const addressKeys = (body: ListBody) =>
  body.data.map((record) => [
    (record.type as Coded).code,
    (record.status as Coded).code,
    record.from,
    record.to,
  ]);

const australian = (street: string, locality: string, state: string, postcode: string | null) => ({
  careOf: null,
  line1: null,
  street,
  locality,
  state,
  postcode,
  country: 'AUSTRALIA',
});

const contactAddress = {
  object: 'address',
  type: { code: 'CC', label: expect.stringMatching(/^Contact Address/) },
  status: CURRENT,
  from: '2020-01-13',
  to: null,
  address: australian('PO BOX 112', 'ORANGE', 'NSW', '2800'),
  sourceDocument: { documentNumber: '9E0010013', qualifier: null },
};

describe('GET /v1/companies/{id}/addresses', () => {
  it('status=all: RG, then PA, each current first then newest-ceasing; CC apart in contactAddress', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read<AddressListBody>(key, `${addressesPath}?status=all`);
    expectSectionList(response, extract, { totalCount: 5 });
    expect(addressKeys(response.body)).toStrictEqual([
      ['RG', 'C', '2016-03-01', null],
      ['RG', 'E', '2010-07-01', '2016-02-29'],
      ['PA', 'C', '2016-03-01', null],
      ['PA', 'E', '2012-06-01', '2016-02-29'],
      ['PA', 'E', '2010-07-01', '2012-05-31'],
    ]);
    expect(response.body.data[0]).toStrictEqual({
      object: 'address',
      type: { code: 'RG', label: 'Registered Office' },
      status: CURRENT,
      from: '2016-03-01',
      to: null,
      address: australian('14 ORCHARD ROAD', 'ORANGE', 'NSW', '2800'),
      sourceDocument: { documentNumber: '9E0010007', qualifier: null },
    });
    expect(response.body.contactAddress).toStrictEqual(contactAddress);
    expect(response.body.data.some((record) => (record.type as Coded).code === 'CC')).toBe(false);
  });

  it('status=current is the default', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['current']);
    const response = await read<AddressListBody>(key, addressesPath);
    expectSectionList(response, extract, { totalCount: 2 });
    expect(addressKeys(response.body)).toStrictEqual([
      ['RG', 'C', '2016-03-01', null],
      ['PA', 'C', '2016-03-01', null],
    ]);
    expect(response.body.contactAddress).toStrictEqual(contactAddress);
  });

  it('type=CC reads the contact address', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['current']);
    const response = await read<AddressListBody>(key, `${addressesPath}?type=CC`);
    expectSectionList(response, extract, { totalCount: 1 });
    expect(response.body.data).toStrictEqual([contactAddress]);
  });

  it('type=PA with status=all keeps only that type, in order', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read<AddressListBody>(key, `${addressesPath}?type=PA&status=all`);
    expectSectionList(response, extract, { totalCount: 3 });
    expect(addressKeys(response.body).map(([type, , from]) => [type, from])).toStrictEqual([
      ['PA', '2016-03-01'],
      ['PA', '2012-06-01'],
      ['PA', '2010-07-01'],
    ]);
  });

  it('refuses an unknown address type with validation_error on type', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['current']);
    expectError(await read(key, `${addressesPath}?type=XX`), 422, validationError('type'));
  });

  it('shows converted pre-1991 addresses with several components in street and a null postcode', async () => {
    const { key, extract } = await holding(SANDBOX.preAsicAddresses, ['historical']);
    const response = await read<AddressListBody>(
      key,
      `/v1/companies/${SANDBOX.preAsicAddresses}/addresses?status=all`,
    );
    expectSectionList(response, extract, { totalCount: 2 });
    expect(response.body.data.map((record) => record.address)).toStrictEqual([
      {
        careOf: 'HARGRAVE & CO ACCOUNTANTS',
        line1: null,
        street: '2ND FLOOR 14 PEEL STREET',
        locality: 'TAMWORTH',
        state: 'NSW',
        postcode: null,
        country: 'AUSTRALIA',
      },
      australian('GROUND FLOOR BANK OF NSW CHAMBERS 27 FITZROY STREET', 'TAMWORTH', 'NSW', null),
    ]);
    expect(response.body.contactAddress).toBeNull();
  });

  it('shows a foreign company’s RP before its overseas RO, whose state and postcode are null', async () => {
    const { key, extract } = await holding(SANDBOX.foreignCompany, ['current']);
    const response = await read<AddressListBody>(key, `/v1/companies/${SANDBOX.foreignCompany}/addresses`);
    expectSectionList(response, extract, { totalCount: 2 });
    expect(addressKeys(response.body)).toStrictEqual([
      ['RP', 'C', '2015-09-01', null],
      ['RO', 'C', '2015-09-01', null],
    ]);
    expect(response.body.data[1]).toStrictEqual({
      object: 'address',
      type: { code: 'RO', label: expect.stringMatching(/^Registered address in place of incorporation$/i) },
      status: CURRENT,
      from: '2015-09-01',
      to: null,
      address: {
        careOf: null,
        line1: null,
        street: '12 LAMBTON QUAY',
        locality: 'WELLINGTON',
        state: null,
        postcode: null,
        country: 'NEW ZEALAND',
      },
      sourceDocument: { documentNumber: '9E0040001', qualifier: null },
    });
    expect(response.body.data[0]).toMatchObject({ address: { country: 'AUSTRALIA' } });
    expect(response.body.contactAddress).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Share structure
// ---------------------------------------------------------------------------------------------

interface ShareStructureBody extends Body {
  object: string;
  extract: ExtractRef;
  shareClasses: Body[];
  members: Body[];
}

const sharePath = `/v1/companies/${SANDBOX.proprietary}/share-structure`;
const memberKeys = (body: ShareStructureBody) =>
  body.members.map((member) => {
    const party = member.party as {
      person: { formatted: string } | null;
      organisation: { name: string } | null;
    };
    return [
      member.classCode,
      (member.status as Coded).code,
      party.person?.formatted ?? party.organisation?.name,
      member.sharesHeld,
    ];
  });

describe('GET /v1/companies/{id}/share-structure', () => {
  it('holds the current share classes and members by default', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['current']);
    const response = await read<ShareStructureBody>(key, sharePath);
    expectFree(response);
    expect(response.body.object).toBe('shareStructure');
    expect(response.body.extract).toStrictEqual(extract);
    expect(response.body.shareClasses).toStrictEqual([
      {
        object: 'shareClass',
        classCode: 'ORD',
        description: 'ORDINARY SHARES',
        status: CURRENT,
        sharesIssued: 1000,
        amountPaid: '1000.00',
        amountDue: '0.00',
        sourceDocument: { documentNumber: '9E0010001', qualifier: null },
      },
      {
        object: 'shareClass',
        classCode: 'PREF',
        description: 'PREFERENCE SHARES',
        status: CURRENT,
        sharesIssued: 500,
        amountPaid: '50000.00',
        amountDue: '0.00',
        sourceDocument: { documentNumber: '9E0010008', qualifier: null },
      },
    ]);
    expect(memberKeys(response.body)).toStrictEqual([
      ['ORD', 'C', 'JANE ELIZABETH SMITH', 600],
      ['ORD', 'C', 'THANH NGUYEN', 400],
      ['PREF', 'C', 'SOUTHERN CROSS HOLDINGS LIMITED', 500],
    ]);
    expect(response.body.members[2]).toMatchObject({ fullyPaid: true, beneficiallyHeld: false });
  });

  it('status=all on a historical extract adds the ceased class A and former members, current first', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read<ShareStructureBody>(key, `${sharePath}?status=all`);
    expectFree(response);
    expect(response.body.extract).toStrictEqual(extract);
    expect(response.body.shareClasses.map((c) => [c.classCode, (c.status as Coded).code])).toStrictEqual([
      ['ORD', 'C'],
      ['PREF', 'C'],
      ['A', 'E'],
    ]);
    expect(memberKeys(response.body)).toStrictEqual([
      ['ORD', 'C', 'JANE ELIZABETH SMITH', 600],
      ['ORD', 'C', 'THANH NGUYEN', 400],
      ['PREF', 'C', 'SOUTHERN CROSS HOLDINGS LIMITED', 500],
      ['ORD', 'E', 'ROBERT JOHN SMITH', 300],
      ['A', 'E', "MICHAEL PATRICK O'BRIEN", 100],
    ]);
  });

  it('status=ceased keeps only the ceased records', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read<ShareStructureBody>(key, `${sharePath}?status=ceased`);
    expectFree(response);
    expect(response.body.shareClasses.map((c) => c.classCode)).toStrictEqual(['A']);
    expect(memberKeys(response.body).map(([, status, name]) => [status, name])).toStrictEqual([
      ['E', 'ROBERT JOHN SMITH'],
      ['E', "MICHAEL PATRICK O'BRIEN"],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const documentsPath = `/v1/companies/${SANDBOX.proprietary}/documents`;
const documentNumbers = (body: ListBody) => body.data.map((document) => document.documentNumber);

/** BLUEGUM ORCHARDS PTY LTD's 15 documents newest first: [number, received, qualifier]. */
const proprietaryDocuments: [string, string, string | null][] = [
  ['9E0010015', '2025-06-20', null],
  ['9E0010014', '2024-07-15', 'AR2024'],
  ['9E0010013', '2020-01-13', null],
  ['9E0010012', '2019-12-02', null],
  ['9E0010011', '2019-10-30', 'FR2019'],
  ['9E0010010', '2018-10-03', null],
  ['9E0010009', '2018-02-16', null],
  // Received the same day: the higher document number first.
  ['9E0010008', '2016-03-04', null],
  ['9E0010007', '2016-03-04', null],
  ['9E0010006', '2015-07-02', null],
  ['9E0010005', '2014-10-31', 'FR2014'],
  ['9E0010004', '2013-07-15', 'AR2013'],
  ['9E0010003', '2012-01-20', null],
  ['9E0010002', '2011-03-01', null],
  ['9E0010001', '2010-07-01', null],
];

const dateRangeInvalid = (param: string) => ({
  type: 'invalid_request_error',
  code: 'document_date_range_invalid',
  param,
});

describe('GET /v1/companies/{id}/documents', () => {
  it('lists every document of a historical extract newest first', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read(key, `${documentsPath}?limit=100`);
    expectSectionList(response, extract, { totalCount: 15 });
    expect(response.body.data.map((d) => [d.documentNumber, d.receivedAt, d.qualifier])).toStrictEqual(
      proprietaryDocuments,
    );
  });

  it('shows a document in full, with the sub-forms it used', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read(key, `${documentsPath}?limit=100`);
    expectFree(response);
    expect(response.body.data.find((d) => d.documentNumber === '9E0010007')).toStrictEqual({
      object: 'document',
      documentNumber: '9E0010007',
      formCode: '484',
      formDescription: 'Change to company details',
      subForms: [
        { code: '484A1', description: 'Change of address' },
        { code: '484E', description: 'Appointment or cessation of a company officeholder' },
        { code: '484G', description: 'Notification of share issue' },
      ],
      receivedAt: '2016-03-04',
      processedAt: '2016-03-06',
      effectiveAt: '2016-03-04',
      qualifier: null,
      pageCount: 3,
      imaged: true,
      underRequisition: false,
      xbrlAvailable: false,
      xbrlDocumentNumber: null,
      status: 'PROCESSED',
      priced: true,
    });
    expect(response.body.data.find((d) => d.documentNumber === '9E0010011')).toMatchObject({
      formCode: '388',
      qualifier: 'FR2019',
      xbrlAvailable: true,
      xbrlDocumentNumber: expect.any(String),
    });
  });

  it('leaves annual returns and financial reports out of a current extract', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['current']);
    const response = await read(key, `${documentsPath}?limit=100`);
    expectSectionList(response, extract, { totalCount: 11 });
    expect(documentNumbers(response.body)).toStrictEqual(
      proprietaryDocuments.filter(([, , qualifier]) => qualifier === null).map(([number]) => number),
    );
  });

  it('qualifier=AR and qualifier=FR read annual returns and financial reports from a historical extract', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const annual = await read(key, `${documentsPath}?qualifier=AR`);
    expectSectionList(annual, extract, { totalCount: 2 });
    expect(documentNumbers(annual.body)).toStrictEqual(['9E0010014', '9E0010004']);
    const financial = await read(key, `${documentsPath}?qualifier=FR`);
    expectSectionList(financial, extract, { totalCount: 2 });
    expect(documentNumbers(financial.body)).toStrictEqual(['9E0010011', '9E0010005']);
  });

  it('from/to windows on the received date, both ends included', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const response = await read(key, `${documentsPath}?from=2016-03-04&to=2018-02-16`);
    expectSectionList(response, extract, { totalCount: 3 });
    expect(documentNumbers(response.body)).toStrictEqual(['9E0010009', '9E0010008', '9E0010007']);
  });

  it('years counts back from the extract’s asOf', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    for (const years of [1, 10, 99]) {
      const since = `${Number(extract.asOf.slice(0, 4)) - years}${extract.asOf.slice(4, 10)}`;
      const expected = proprietaryDocuments
        .filter(([, receivedAt]) => receivedAt >= since)
        .map(([number]) => number);
      const response = await read(key, `${documentsPath}?years=${years}&limit=100`);
      expectSectionList(response, extract, { totalCount: expected.length });
      expect(documentNumbers(response.body)).toStrictEqual(expected);
    }
  });

  it('pages through the documents with limit and cursor', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['historical']);
    const first = await read(key, `${documentsPath}?limit=10`);
    expectSectionList(first, extract, { totalCount: 15, hasMore: true, nextCursor: 'string' });
    const second = await read(
      key,
      `${documentsPath}?limit=10&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
    );
    expectSectionList(second, extract, { totalCount: 15 });
    expect([...documentNumbers(first.body), ...documentNumbers(second.body)]).toStrictEqual(
      proprietaryDocuments.map(([number]) => number),
    );
  });

  it('refuses years together with from/to: document_period_conflict on years', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['historical']);
    expectError(await read(key, `${documentsPath}?years=2&from=2020-01-01&to=2021-01-01`), 400, {
      type: 'invalid_request_error',
      code: 'document_period_conflict',
      param: 'years',
    });
  });

  it('refuses from without to, to without from, and from later than to', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['historical']);
    expectError(await read(key, `${documentsPath}?from=2020-01-01`), 400, dateRangeInvalid('to'));
    expectError(await read(key, `${documentsPath}?to=2020-01-01`), 400, dateRangeInvalid('from'));
    expectError(
      await read(key, `${documentsPath}?from=2021-01-01&to=2020-01-01`),
      400,
      dateRangeInvalid('from'),
    );
  });

  it('checks the window before looking for an extract: 400 even with nothing held', async () => {
    const key = await createKey('test');
    expectError(await read(key, `${documentsPath}?from=2020-01-01`), 400, dateRangeInvalid('to'));
  });

  it('refuses malformed window parameters with validation_error', async () => {
    const { key } = await holding(SANDBOX.proprietary, ['historical']);
    expectError(await read(key, `${documentsPath}?years=0`), 422, validationError('years'));
    expectError(
      await read(key, `${documentsPath}?from=2020-1-1&to=2021-01-01`),
      422,
      validationError('from'),
    );
    expectError(
      await read(key, `${documentsPath}?from=2020-01-01&to=2021-02-29`),
      422,
      validationError('to'),
    );
    expectError(await read(key, `${documentsPath}?qualifier=XX`), 422, validationError('qualifier'));
  });

  it('shows a form the schedule does not know with formDescription equal to the form code', async () => {
    const { key } = await holding(SANDBOX.unknownCodes, ['current']);
    const response = await read(key, `/v1/companies/${SANDBOX.unknownCodes}/documents`);
    expectFree(response);
    expect(response.body.data[0]).toMatchObject({
      formCode: '9ZZ',
      formDescription: '9ZZ',
      subForms: [{ code: '9ZZA', description: '9ZZA' }],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// External administration
// ---------------------------------------------------------------------------------------------

interface ExternalAdministrationBody extends Body {
  extract: ExtractRef;
  company: Body;
  underExternalAdministration: boolean;
  appointees: Body[];
  documents: Body[];
}

describe('GET /v1/companies/{id}/external-administration', () => {
  const path = `/v1/companies/${SANDBOX.externalAdministration}/external-administration`;

  it('shows the appointees and their 505 notices of a company under external administration', async () => {
    const { key, extract } = await holding(SANDBOX.externalAdministration, ['historical']);
    const response = await read<ExternalAdministrationBody>(key, path);
    expectFree(response);
    expect(response.body.object).toBe('externalAdministration');
    expect(response.body.extract).toStrictEqual(extract);
    expect(response.body.underExternalAdministration).toBe(true);
    expect(response.body.company).toStrictEqual({
      acn: SANDBOX.externalAdministration,
      formatted: spaced(SANDBOX.externalAdministration),
      numberType: ACN,
      name: 'COASTAL BUILDERS PTY LTD',
      type: APTY,
      status: { code: 'EXAD', label: expect.stringMatching(/^\*.*\*$/) },
      abn: abnForAcn(SANDBOX.externalAdministration),
      registeredCharity: false,
    });
    expect(
      response.body.appointees.map((a) => [
        (a.role as Coded).code,
        (a.status as Coded).code,
        a.appointedAt,
        a.ceasedAt,
      ]),
    ).toStrictEqual([
      ['AC', 'E', '2023-12-04', '2024-03-01'],
      ['AD', 'C', '2024-03-01', null],
    ]);
    expect(response.body.appointees[1]).toMatchObject({
      role: { code: 'AD', label: 'Administrator under a Deed of Company Arrangement' },
      party: { type: 'person', person: { formatted: 'ANNA MARIA KOWALSKI' } },
    });
    expect(response.body.documents.map((d) => [d.formCode, d.receivedAt, d.effectiveAt])).toStrictEqual([
      ['505', '2024-03-04', '2024-03-01'],
      ['505', '2023-12-05', '2023-12-04'],
    ]);
  });

  it('shows only the current deed administrator from a current extract', async () => {
    const { key, extract } = await holding(SANDBOX.externalAdministration, ['current']);
    const response = await read<ExternalAdministrationBody>(key, path);
    expectFree(response);
    expect(response.body.extract).toStrictEqual(extract);
    expect(response.body.underExternalAdministration).toBe(true);
    expect(
      response.body.appointees.map((a) => [(a.role as Coded).code, (a.status as Coded).code]),
    ).toStrictEqual([['AD', 'C']]);
  });

  it('answers false with empty lists for a registered company', async () => {
    const { key, extract } = await holding(SANDBOX.proprietary, ['current']);
    const response = await read<ExternalAdministrationBody>(
      key,
      `/v1/companies/${SANDBOX.proprietary}/external-administration`,
    );
    expectFree(response);
    expect(response.body).toMatchObject({
      object: 'externalAdministration',
      extract,
      underExternalAdministration: false,
      appointees: [],
      documents: [],
    });
    expect(response.body.company).toMatchObject({ acn: SANDBOX.proprietary, status: REGD });
  });
});

// ---------------------------------------------------------------------------------------------
// Relationships
// ---------------------------------------------------------------------------------------------

const relationshipsPath = `/v1/companies/${SANDBOX.relational}/relationships`;
const relationshipKeys = (body: ListBody) =>
  body.data.map((r) => [
    (r.role as Coded).code,
    (r.status as Coded).code,
    r.ceasedAt,
    (r.company as { name: string }).name,
  ]);

/** SOUTHERN CROSS HOLDINGS LIMITED's six roles in other organisations (docs/sandbox.md). */
const allRelationships = [
  ['AG', 'C', null, 'KIWI FERNLEAF TRADING LIMITED'],
  ['UH', 'C', null, 'BLUEGUM ORCHARDS PTY LTD'],
  ['UH', 'E', '2020-12-31', 'OLD MILL BAKERY PTY LTD'],
  ['UH', 'E', '2012-06-30', 'IRONBARK ENGINEERING PTY LTD'],
  ['TR', 'C', null, 'WATTLEBIRD FAMILY TRUST'],
  ['RN', 'C', null, 'HARBOURSIDE MORTGAGE AND PROPERTY FUND'],
];

describe('GET /v1/companies/{id}/relationships', () => {
  it('lists every role after a relational purchase: AG, DR, UH, TM, TR, RN order, current first', async () => {
    const { key, extract } = await holding(SANDBOX.relational, ['relational']);
    expect(extract.type).toBe('relational');
    const response = await read(key, relationshipsPath);
    expectSectionList(response, extract, { totalCount: 6 });
    expect(relationshipKeys(response.body)).toStrictEqual(allRelationships);
    expect(response.body.data[0]).toStrictEqual({
      object: 'relationship',
      role: { code: 'AG', label: 'Local Agent' },
      status: CURRENT,
      appointedAt: '2015-09-01',
      ceasedAt: null,
      company: {
        acn: SANDBOX.foreignCompany,
        formatted: spaced(SANDBOX.foreignCompany),
        numberType: { code: 'ARBN', label: 'Australian Registered Body Number' },
        name: 'KIWI FERNLEAF TRADING LIMITED',
        type: { code: 'FNOS', label: 'Foreign Company (Overseas)' },
        status: REGD,
        abn: abnForAcn(SANDBOX.foreignCompany),
        registeredCharity: false,
      },
    });
    expect(response.body.data[5]?.company).toMatchObject({ acn: null, arsn: SANDBOX.scheme });
  });

  it('filters by status without reordering', async () => {
    const { key, extract } = await holding(SANDBOX.relational, ['relational']);
    const current = await read(key, `${relationshipsPath}?status=current`);
    expectSectionList(current, extract, { totalCount: 4 });
    expect(relationshipKeys(current.body)).toStrictEqual(allRelationships.filter(([, s]) => s === 'C'));
    const ceased = await read(key, `${relationshipsPath}?status=ceased`);
    expectSectionList(ceased, extract, { totalCount: 2 });
    expect(relationshipKeys(ceased.body)).toStrictEqual(allRelationships.filter(([, s]) => s === 'E'));
  });

  it('reads the relational extract even when a newer historical one is held', async () => {
    const { key, extract } = await holding(SANDBOX.relational, ['relational', 'historical']);
    expect(extract.type).toBe('historical');
    const response = await read(key, relationshipsPath);
    expectFree(response);
    expect(response.body.extract.type).toBe('relational');
    expect(relationshipKeys(response.body)).toStrictEqual(allRelationships);
  });
});

// ---------------------------------------------------------------------------------------------
// GET /v1/charges/{chargeNumber}
// ---------------------------------------------------------------------------------------------

/** One charge by number through the typed client. */
const charge = (key: TestKey, chargeNumber: string) =>
  typedClient(key.secret).GET('/v1/charges/{chargeNumber}', { params: { path: { chargeNumber } } });

describe('GET /v1/charges/{chargeNumber} (typed client)', () => {
  it.each(['test', 'live'] as const)('shows a known charge in full (%s key)', async (kind) => {
    const key = await createKey(kind);
    const joint = await charge(key, SANDBOX.charges.jointChargee);
    expectFree(asApiResponse(joint) as unknown as ApiResponse<Body>);
    const { meta: _meta, ...jointBody } = joint.data ?? { meta: null };
    expect(jointBody).toStrictEqual(jointCharge);
    const migrated = await charge(key, SANDBOX.charges.migrated);
    expectFree(asApiResponse(migrated) as unknown as ApiResponse<Body>);
    const { meta: _meta2, ...migratedBody } = migrated.data ?? { meta: null };
    expect(migratedBody).toStrictEqual(migratedCharge);
    // Typed: the chargee of the migrated charge is the bank, an organisation.
    expect(migrated.data?.chargees[0]?.party.organisation?.name).toBe('SOUTHERN CROSS BANK LIMITED');
  });

  it.each(['test', 'live'] as const)(
    'answers charge_not_found (CH01) for an unknown number (%s key)',
    async (kind) => {
      const key = await createKey(kind);
      const result = await charge(key, SANDBOX.charges.unknown);
      expect(result.error?.error.code).toBe('charge_not_found');
      expectError(asApiResponse(result), 404, {
        type: 'not_found_error',
        code: 'charge_not_found',
        param: 'chargeNumber',
        registryCode: 'CH01',
      });
    },
  );

  it('answers charge_not_found for values that are not one to nine digits, without asking the registry', async () => {
    const key = await createKey('live');
    for (const value of ['abc', '1234567890', '12a', '1'.repeat(100)]) {
      const result = await charge(key, value);
      expectError(asApiResponse(result), 404, {
        type: 'not_found_error',
        code: 'charge_not_found',
        param: 'chargeNumber',
      });
      const { calls } = await simulator.calls();
      expect(calls.filter((c) => c.requestId === result.response.headers.get('x-request-id'))).toStrictEqual(
        [],
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Registry maintenance windows
// ---------------------------------------------------------------------------------------------

describe('section reads during a registry maintenance window (live key)', () => {
  it('keeps serving held extracts, and refuses a purchase with 503 without buying', async () => {
    const key = await createKey('live');
    const bought = await buyExtract(key.secret, SANDBOX.proprietary, 'historical');
    expect(bought.status, bought.text).toBe(201);
    expect(await registryPurchases(key.accountId)).toBe(1);

    await simulator.addFault({ code: 'ZZ51' });
    const base = `/v1/companies/${SANDBOX.proprietary}`;
    for (const section of [
      'officeholders?status=all',
      'addresses',
      'share-structure',
      'documents?qualifier=AR',
      'external-administration',
      'charges',
    ]) {
      const response = await read<Body>(key, `${base}/${section}`);
      expectFree(response);
      expect((response.body.extract as ExtractRef).id).toBe(bought.body.id);
    }

    const refused = await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    expectError(refused, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(refused.headers.get('retry-after')).toBe('300');
    expect(await registryPurchases(key.accountId)).toBe(1);
  });

  it('answers 503 for a read that has no held extract and must ask the registry', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ51' });
    const response = await read(key, `/v1/companies/${SANDBOX.proprietary}/officeholders`);
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(response.headers.get('retry-after')).toBe('300');
  });
});

describe('every section parameter is checked before anything is read', () => {
  const acn = SANDBOX.satisfiedCharges;
  it.each([
    ['officeholders', 'status=nope', 'status'],
    ['officeholders', 'limit=0', 'limit'],
    ['officeholders', 'limit=101', 'limit'],
    ['officeholders', 'extract=ext_1', 'extract'],
    ['officeholders', 'role=DR', 'role'],
    ['addresses', 'type=XX', 'type'],
    ['addresses', 'status=former', 'status'],
    ['addresses', 'extract=abc', 'extract'],
    ['addresses', 'limit=5', 'limit'],
    ['share-structure', 'status=ceasedd', 'status'],
    ['share-structure', 'extract=ext_x', 'extract'],
    ['documents', 'years=0', 'years'],
    ['documents', 'years=many', 'years'],
    ['documents', 'from=21-01-2020&to=2021-01-01', 'from'],
    ['documents', 'from=2020-01-01&to=soon', 'to'],
    ['documents', 'qualifier=XX', 'qualifier'],
    ['documents', 'limit=1000', 'limit'],
    ['external-administration', 'status=current', 'status'],
    ['external-administration', 'extract=ext_', 'extract'],
    ['relationships', 'status=gone', 'status'],
    ['relationships', 'extract=nope', 'extract'],
    ['charges', 'status=SATF', 'status'],
    ['charges', 'limit=10', 'limit'],
  ])(
    '/%s?%s → 422 validation_error on %s, with nothing held and no registry call',
    async (section, query, param) => {
      const key = await createKey('live');
      expectError(await read(key, `/v1/companies/${acn}/${section}?${query}`), 422, validationError(param));
      const { calls } = await simulator.calls();
      expect(calls.filter((c) => c.accountId === key.accountId)).toStrictEqual([]);
    },
  );
});
