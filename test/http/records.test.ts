import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { SANDBOX_RECORDS } from '../../shared/records/adapters/sandbox-data.ts';
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
 * The free record lookups over real HTTP: document details (one, and batches of 1 to 10),
 * business names and name reservations (spec document 1, 2.3 and 2.9; document 3, 7.4, 7.7 and
 * 8; docs/decisions/0036-documents-business-names-reservations.md). Test keys are
 * served by the sandbox registry in process; live keys by the registry simulator, which serves
 * the same cases, so the main cases run with both.
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
const batch = (numbers: readonly string[], kind: KeyKind = 'test') =>
  get(`/v1/documents?${numbers.map((n) => `numbers[]=${encodeURIComponent(n)}`).join('&')}`, kind);

function expectFree(response: ApiResponse<Body>) {
  expect(response.status, response.text).toBe(200);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_./);
  expect(response.body.meta).toStrictEqual({ billable: false, product: null, requestId });
}

const withoutMeta = (body: Body) => {
  const { meta: _meta, ...rest } = body;
  return rest;
};

/** Calls the simulator logged for one of our requests, in order. */
async function registryCallsFor(response: ApiResponse<unknown>) {
  const requestId = response.headers.get('x-request-id');
  const { calls } = await simulator.calls();
  return calls.filter((c) => c.requestId === requestId).map((c) => [c.operation, c.outcome]);
}

const REGD = { code: 'REGD', label: 'Registered' };
const bluegumSummary = {
  acn: '990000014',
  formatted: '990 000 014',
  numberType: { code: 'ACN', label: 'Australian Company Number' },
  name: 'BLUEGUM ORCHARDS PTY LTD',
  type: { code: 'APTY', label: 'Australian Proprietary Company' },
  status: REGD,
  abn: '23990000014',
  registeredCharity: false,
};
const docs = SANDBOX_RECORDS.documents;
const names = SANDBOX_RECORDS.businessNames;
const reservations = SANDBOX_RECORDS.nameReservations;

/** BLUEGUM ORCHARDS' 484 of 2016 (docs/sandbox.md). */
const withSubForms = {
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
  subject: { type: 'organisation', company: bluegumSummary, person: null },
};

describe.each(['test', 'live'] as const)('GET /v1/documents/{number} with a %s key', (kind) => {
  it('answers the spec’s document and whose it is', async () => {
    const response = await get(`/v1/documents/${docs.withSubForms}`, kind);
    expectFree(response);
    expect(withoutMeta(response.body)).toStrictEqual(withSubForms);
  });

  it('trims and upper-cases the number', async () => {
    const response = await get(`/v1/documents/${encodeURIComponent(' 9e0010007 ')}`, kind);
    expectFree(response);
    expect(response.body.documentNumber).toBe('9E0010007');
  });

  it('shows a financial report’s qualifier and XBRL document', async () => {
    const response = await get(`/v1/documents/${docs.financialReport}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      formCode: '388',
      qualifier: 'FR2014',
      xbrlAvailable: true,
      xbrlDocumentNumber: '9X0010005',
      subForms: [],
    });
  });

  it('shows a document under requisition', async () => {
    const response = await get(`/v1/documents/${docs.underRequisition}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({ underRequisition: true, effectiveAt: '2030-07-01' });
  });

  it('gives the form code as formDescription when the schedule does not know the form', async () => {
    const response = await get(`/v1/documents/${docs.unknownForm}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      formCode: '9ZZ',
      formDescription: '9ZZ',
      subForms: [{ code: '9ZZA', description: '9ZZA' }],
    });
  });

  it('answers a document that was never imaged with 200 and imaged false', async () => {
    const response = await get(`/v1/documents/${docs.notImaged}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({ formCode: '201', imaged: false });
  });

  it('names a person as the subject of a person’s document, and none for a business name’s', async () => {
    const person = await get(`/v1/documents/${docs.person}`, kind);
    expectFree(person);
    expect(person.body.subject).toStrictEqual({
      type: 'person',
      company: null,
      person: {
        familyName: "O'BRIEN",
        givenNames: ['MICHAEL', 'PATRICK'],
        formatted: "MICHAEL PATRICK O'BRIEN",
      },
    });
    const other = await get(`/v1/documents/${docs.businessName}`, kind);
    expectFree(other);
    expect(other.body).toMatchObject({
      formCode: 'BN01',
      subject: { type: 'other', company: null, person: null },
    });
  });

  it('refuses a malformed number with document_number_invalid on number', async () => {
    expectError(await get('/v1/documents/abc', kind), 400, {
      type: 'invalid_request_error',
      code: 'document_number_invalid',
      param: 'number',
    });
  });

  it('answers an unknown number with document_not_found naming it', async () => {
    expectError(await get(`/v1/documents/${docs.unknown}`, kind), 404, {
      type: 'not_found_error',
      code: 'document_not_found',
      param: 'number',
      registryCode: 'DD51',
      details: { documentNumber: docs.unknown },
    });
  });
});

/** Ten documents of BLUEGUM ORCHARDS, asked for out of their order. */
const TEN = [
  '9E0010010',
  '9E0010003',
  '9E0010007',
  '9E0010001',
  '9E0010009',
  '9E0010005',
  '9E0010002',
  '9E0010008',
  '9E0010004',
  '9E0010006',
];

describe.each(['test', 'live'] as const)('GET /v1/documents?numbers[]= with a %s key', (kind) => {
  it('answers ten documents in the order asked, as a list of ten', async () => {
    const response = await batch(TEN, kind);
    expectFree(response);
    const { data, ...list } = withoutMeta(response.body) as { data: Body[] };
    expect(list).toStrictEqual({ object: 'list', hasMore: false, nextCursor: null, totalCount: 10 });
    expect(data.map((d) => d.documentNumber)).toStrictEqual(TEN);
    expect(data[2]).toStrictEqual(withSubForms);
  });

  it('answers one number as a list of one', async () => {
    const response = await batch([docs.notImaged], kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      totalCount: 1,
      data: [{ documentNumber: docs.notImaged, imaged: false }],
    });
  });

  it('names a malformed number by its place, before any repeat', async () => {
    expectError(await batch(['9E0010007', '9E0010007', '9E0010005', 'ABC'], kind), 400, {
      type: 'invalid_request_error',
      code: 'document_number_invalid',
      param: 'numbers[3]',
    });
  });

  it('names the second occurrence of a repeated number (compared trimmed and upper-cased)', async () => {
    expectError(await batch(['9E0010007', '9E0010005', '9E0010003', ' 9e0010005'], kind), 400, {
      type: 'invalid_request_error',
      code: 'duplicate_document_number',
      param: 'numbers[3]',
      details: { documentNumber: '9E0010005' },
    });
  });

  it('answers all or nothing: an unknown number is document_not_found on its place', async () => {
    expectError(await batch(['9E0010007', docs.unknown, '9E0010005'], kind), 404, {
      type: 'not_found_error',
      code: 'document_not_found',
      param: 'numbers[1]',
      registryCode: 'DD51',
      details: { documentNumber: docs.unknown },
    });
  });

  it('refuses more than ten numbers, and none (also when sent without the brackets)', async () => {
    expectError(await batch([...TEN, '9E0010011'], kind), 422, validationError('numbers[]'));
    expectError(await get('/v1/documents', kind), 422, validationError('numbers[]'));
    expectError(
      await get(`/v1/documents?numbers=${docs.withSubForms}`, kind),
      422,
      validationError('numbers[]'),
    );
  });
});

describe('documents and the registry (live key, registry simulator)', () => {
  it('asks the registry once for a batch of ten', async () => {
    const response = await batch(TEN, 'live');
    expectFree(response);
    expect(await registryCallsFor(response)).toStrictEqual([['documents.details', 'ok']]);
  });

  it('checks every number before asking the registry', async () => {
    for (const response of [
      await batch(['9E0010007', 'BAD'], 'live'),
      await batch(['9E0010007', '9E0010007'], 'live'),
      await batch([...TEN, '9E0010011'], 'live'),
      await get('/v1/documents/abc', 'live'),
    ]) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(await registryCallsFor(response)).toStrictEqual([]);
    }
  });

  it('answers 503 registry_unavailable with Retry-After 300 in a maintenance window (ZZ51)', async () => {
    await simulator.addFault({ code: 'ZZ51', operations: ['documents.details'] });
    const response = await batch(['9E0010007', '9E0010005'], 'live');
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(response.headers.get('retry-after')).toBe('300');
  });

  it('maps a registry that refuses to describe a document it has not imaged (DD52) to document_not_imaged', async () => {
    await simulator.addFault({
      code: 'DD52',
      operations: ['documents.details'],
      details: { documentNumber: docs.notImaged },
    });
    expectError(await batch(['9E0010007', docs.notImaged], 'live'), 422, {
      type: 'invalid_request_error',
      code: 'document_not_imaged',
      param: 'numbers[1]',
      registryCode: 'DD52',
      details: { documentNumber: docs.notImaged },
    });
  });
});

const harbourLights = {
  object: 'businessName',
  id: '990000265',
  name: 'HARBOUR LIGHTS CATERING',
  status: REGD,
  registeredAt: '2009-03-16',
  renewalDueAt: '2027-03-16',
  cancelledAt: null,
  holders: [
    {
      party: {
        type: 'person',
        person: { familyName: 'MARCHETTI', givenNames: ['LUCIA'], formatted: 'LUCIA MARCHETTI' },
        birth: null,
        organisation: null,
      },
      abn: '98990004012',
    },
  ],
  principalPlaceOfBusiness: { locality: 'THE ROCKS', state: 'NSW', postcode: '2000' },
  previousStateRegistrations: [
    { number: 'BN00731224', jurisdiction: { code: 'NSW', label: 'New South Wales' } },
  ],
};

describe.each(['test', 'live'] as const)('business names with a %s key', (kind) => {
  it('reads a business name by its number: status, dates, holders with ABN, place, state number', async () => {
    const response = await get(`/v1/business-names/${names.stateRegistered}`, kind);
    expectFree(response);
    expect(withoutMeta(response.body)).toStrictEqual(harbourLights);
  });

  it('finds it by its pre-2012 state number and jurisdiction (spaces and case ignored)', async () => {
    const response = await get('/v1/business-names?stateNumber=bn%2000731224&jurisdiction=NSW', kind);
    expectFree(response);
    expect(withoutMeta(response.body)).toStrictEqual({
      object: 'list',
      data: [harbourLights],
      hasMore: false,
      nextCursor: null,
      totalCount: 1,
    });
    const queensland = await get('/v1/business-names?stateNumber=BN2027148&jurisdiction=QLD', kind);
    expectFree(queensland);
    expect(queensland.body).toMatchObject({
      totalCount: 1,
      data: [{ id: names.queensland, name: 'WATTLE CREEK BAKERY' }],
    });
  });

  it('finds it by number on the list too', async () => {
    const response = await get(`/v1/business-names?number=${names.stateRegistered}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({ totalCount: 1, data: [{ id: names.stateRegistered }] });
  });

  it('shows a name held by a sandbox company, with the company’s ABN', async () => {
    const response = await get(`/v1/business-names/${names.companyHeld}`, kind);
    expectFree(response);
    expect(response.body).toMatchObject({
      name: 'BLUEGUM ORCHARD TOURS',
      status: REGD,
      holders: [
        {
          party: {
            type: 'organisation',
            person: null,
            organisation: {
              number: '990000014',
              numberType: { code: 'ACN', label: 'Australian Company Number' },
              name: 'BLUEGUM ORCHARDS PTY LTD',
              abn: '23990000014',
            },
          },
          abn: '23990000014',
        },
      ],
      previousStateRegistrations: [],
    });
  });

  it('shows a partnership’s two holders, and cancelled and expired names', async () => {
    const partnership = await get(`/v1/business-names/${names.partnership}`, kind);
    expectFree(partnership);
    const holders = partnership.body.holders as { party: { person: { familyName: string } } }[];
    expect(holders.map((h) => h.party.person.familyName)).toStrictEqual(['KELLY', 'NAKAMURA']);
    const cancelled = await get(`/v1/business-names/${names.cancelled}`, kind);
    expect(cancelled.body).toMatchObject({
      status: { code: 'CNCL', label: 'Cancelled' },
      cancelledAt: '2021-08-31',
      renewalDueAt: null,
    });
    const expired = await get(`/v1/business-names/${names.expired}`, kind);
    expect(expired.body).toMatchObject({
      status: { code: 'REXP', label: 'Business Name Expired' },
      renewalDueAt: '2023-04-11',
      cancelledAt: null,
    });
  });

  it.each([
    [
      'a number and a state number',
      `number=${names.stateRegistered}&stateNumber=BN00731224&jurisdiction=NSW`,
      'stateNumber',
    ],
    ['a state number without its jurisdiction', 'stateNumber=BN00731224', 'jurisdiction'],
  ])('%s → 400 identifier_conflict', async (_case, query, param) => {
    expectError(await get(`/v1/business-names?${query}`, kind), 400, {
      type: 'invalid_request_error',
      code: 'identifier_conflict',
      param,
    });
  });

  it.each([
    ['no number at all', '', 'stateNumber'],
    ['a jurisdiction the table does not have', 'stateNumber=BN00731224&jurisdiction=nsw', 'jurisdiction'],
    [
      'a jurisdiction with a registry number',
      `number=${names.stateRegistered}&jurisdiction=NSW`,
      'jurisdiction',
    ],
    ['a malformed state number', 'stateNumber=%3FBN&jurisdiction=NSW', 'stateNumber'],
    ['a malformed registry number', 'number=ABC-12', 'number'],
  ])('%s → 422 validation_error', async (_case, query, param) => {
    expectError(await get(`/v1/business-names?${query}`, kind), 422, validationError(param));
  });

  it('refuses a malformed path number with validation_error on id', async () => {
    expectError(await get('/v1/business-names/ABC-12', kind), 422, validationError('id'));
  });

  it('answers an unknown number (CD08) and an unknown state number (CD09) with business_name_not_found', async () => {
    expectError(await get(`/v1/business-names/${names.unknown}`, kind), 404, {
      type: 'not_found_error',
      code: 'business_name_not_found',
      param: 'id',
      registryCode: 'CD08',
    });
    const { stateNumber, jurisdiction } = SANDBOX_RECORDS.stateNumbers.unknown;
    expectError(
      await get(`/v1/business-names?stateNumber=${stateNumber}&jurisdiction=${jurisdiction}`, kind),
      404,
      {
        type: 'not_found_error',
        code: 'business_name_not_found',
        param: 'stateNumber',
        registryCode: 'CD09',
      },
    );
  });

  it('does not answer a reservation’s number as a business name', async () => {
    expectError(await get(`/v1/business-names/${reservations.current}`, kind), 404, {
      type: 'not_found_error',
      code: 'business_name_not_found',
      param: 'id',
      registryCode: 'CD08',
    });
  });
});

describe.each(['test', 'live'] as const)('name reservations with a %s key', (kind) => {
  it('reads a current reservation extended by a 410F', async () => {
    const response = await get(`/v1/name-reservations/${reservations.current}`, kind);
    expectFree(response);
    expect(withoutMeta(response.body)).toStrictEqual({
      object: 'nameReservation',
      id: reservations.current,
      name: 'KOOKABURRA LANE PTY LTD',
      status: REGD,
      reservedFor: {
        type: { code: 'APTY', label: 'Australian Proprietary Company' },
        class: { code: 'LMSH', label: 'Limited By Shares' },
      },
      company: null,
      reservedAt: '2026-09-15',
      expiresAt: '2027-01-15',
      sourceDocument: {
        documentNumber: expect.stringMatching(/^9R\d{7}$/),
        qualifier: null,
        formCode: '410F',
      },
    });
  });

  it('reads a lapsed reservation (its 410) and a company’s change-of-name reservation', async () => {
    const lapsed = await get(`/v1/name-reservations/${reservations.lapsed}`, kind);
    expectFree(lapsed);
    expect(lapsed.body).toMatchObject({
      status: { code: 'CNCL', label: 'Cancelled' },
      reservedAt: '2024-02-01',
      expiresAt: '2024-04-01',
      sourceDocument: { formCode: '410' },
    });
    const changeOfName = await get(`/v1/name-reservations/${reservations.changeOfName}`, kind);
    expectFree(changeOfName);
    expect(changeOfName.body).toMatchObject({
      name: 'BLUEGUM ESTATE PTY LTD',
      reservedFor: null,
      company: bluegumSummary,
    });
  });

  it('answers an unknown number, or another organisation’s, with company_not_found (CE03)', async () => {
    for (const id of [reservations.unknown, SANDBOX.businessName, SANDBOX.proprietary]) {
      expectError(await get(`/v1/name-reservations/${id}`, kind), 404, {
        type: 'not_found_error',
        code: 'company_not_found',
        param: 'id',
        registryCode: 'CE03',
      });
    }
  });

  it('refuses a malformed number with validation_error on id', async () => {
    expectError(await get('/v1/name-reservations/%2A', kind), 422, validationError('id'));
  });
});

describe.each(['test', 'live'] as const)(
  'business names and reservations as organisations with a %s key',
  (kind) => {
    it('the company lookup answers a business name, pointing to its own lookup', async () => {
      const response = await get(`/v1/companies/${SANDBOX.businessName}`, kind);
      expectFree(response);
      expect(response.body).toMatchObject({
        type: { code: 'BUSN', label: 'Business Name' },
        numberType: { code: 'NUMBER', label: 'Registration Number' },
        detailsPath: `/v1/business-names/${SANDBOX.businessName}`,
      });
    });

    it('the name search finds a reservation, pointing to its own lookup', async () => {
      const response = await get(
        `/v1/companies/search?q=${encodeURIComponent(SANDBOX_RECORDS.reservationSearch)}`,
        kind,
      );
      expectFree(response);
      expect(response.body).toMatchObject({
        data: [
          {
            name: 'KOOKABURRA LANE PTY LTD',
            type: { code: 'RSVN', label: 'Name Reservation' },
            detailsPath: `/v1/name-reservations/${reservations.current}`,
          },
        ],
      });
    });

    it('a company’s summary has no detailsPath', async () => {
      const response = await get(`/v1/companies/${SANDBOX.proprietary}`, kind);
      expectFree(response);
      expect(response.body).not.toHaveProperty('detailsPath');
    });
  },
);
