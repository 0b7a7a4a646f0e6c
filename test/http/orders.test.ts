import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { isValidAbn } from '../../shared/kernel/identifiers.ts';
import {
  type ApiResponse,
  baseUrl,
  call,
  clock,
  createKey,
  errorOf,
  expectError,
  MALFORMED_PURCHASE_HEADERS,
  type Meta,
  registryImageRequests,
  simulator,
  validationError,
} from '../support/api.ts';
import { checkContract } from '../support/contract.ts';
import {
  eventView,
  type OrderBody,
  outbox,
  publishedEvents,
  type UsageBody,
  waitForExecution,
} from '../support/orders.ts';

/**
 * The asynchronous orders tier seen from a client: charges extract and document image orders
 * (spec document 2, 4.2 and 4.9; docs/decisions/0046-orders.md), what is billed, the reads and
 * the download. The workflow's inner steps are tested elsewhere.
 */

type Environment = 'test' | 'live';

interface OrderListBody {
  object: string;
  data: Omit<OrderBody, 'meta'>[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number | null;
  meta: Meta;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const ORDER_ID = /^ord_[0-9a-f]{24}$/;
const DAY_MS = 24 * 3600_000;
const FINAL = new Set(['ready', 'delivered', 'failed']);

const web = { method: 'web' };
const post = {
  method: 'post',
  contactName: 'Jo Citizen',
  contactPhone: '+61 (2) 9000-0000',
  recipient: 'Citizen Legal',
  address: '1 George Street, Sydney NSW',
  postcode: '2000',
};

const chargesPath = (id: string) => `/v1/companies/${encodeURIComponent(id)}/charges/extract-orders`;

const orderCharges = (
  secret: string,
  id: string,
  body: unknown = { delivery: web },
  headers: Record<string, string> = {},
) => call<OrderBody>(chargesPath(id), { key: secret, method: 'POST', body, headers });

const orderImages = (secret: string, body: unknown, headers: Record<string, string> = {}) =>
  call<OrderBody>('/v1/documents/image-orders', { key: secret, method: 'POST', body, headers });

const getOrder = (secret: string, id: string) =>
  call<OrderBody>(`/v1/orders/${encodeURIComponent(id)}`, { key: secret });

const listOrders = (secret: string, query = '') => call<OrderListBody>(`/v1/orders${query}`, { key: secret });

const usageOf = async (secret: string) => (await call<UsageBody>('/v1/usage', { key: secret })).body;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A 202 order; fails the test with the response text otherwise. */
function accepted(response: ApiResponse<OrderBody>): OrderBody {
  expect(response.status, response.text).toBe(202);
  return response.body;
}

/** The order once its run has ended and it shows a final status (bounded wait). */
async function settled(secret: string, id: string): Promise<OrderBody> {
  await waitForExecution(id, 25_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await getOrder(secret, id);
    expect(response.status, response.text).toBe(200);
    if (FINAL.has(response.body.status)) return response.body;
    await sleep(100);
  }
  throw new Error(`order ${id} did not reach a final status`);
}

interface Download extends ApiResponse<unknown> {
  bytes: Uint8Array;
}

/** GET /v1/orders/{id}/download: the PDF's bytes, or the error envelope. */
async function download(secret: string, id: string): Promise<Download> {
  const response = await fetch(`${baseUrl}/v1/orders/${encodeURIComponent(id)}/download`, {
    headers: { Authorization: `Bearer ${secret}` },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = Buffer.from(bytes).toString('utf8');
  let body: unknown = null;
  if ((response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  checkContract('GET', `/v1/orders/${encodeURIComponent(id)}/download`, {
    status: response.status,
    headers: response.headers,
    body,
  });
  return { status: response.status, headers: response.headers, body, text, bytes };
}

/** Every call the registry simulator received for an account. */
const simulatorCallsOf = async (accountId: string) =>
  (await simulator.calls()).calls.filter((c) => c.accountId === accountId);

const company = (
  acn: string,
  name: string,
  type: 'APTY' | 'APUB',
  abn: string | null,
): Record<string, unknown> => ({
  acn,
  formatted: `${acn.slice(0, 3)} ${acn.slice(3, 6)} ${acn.slice(6)}`,
  numberType: { code: 'ACN', label: 'Australian Company Number' },
  name,
  type: {
    code: type,
    label: type === 'APTY' ? 'Australian Proprietary Company' : 'Australian Public Company',
  },
  status: { code: 'REGD', label: 'Registered' },
  abn,
  registeredCharity: false,
});

const smallCompany = company(
  SANDBOX.smallChargesExtract,
  'SOUTHERN STAR CROSSINGS PTY LTD',
  'APTY',
  '42990000158',
);
const imageCompany = company(SANDBOX.imageOrders, 'LYREBIRD ARCHIVES PTY LTD', 'APTY', '65990000256');

const nullDelivery = {
  email: null,
  contactName: null,
  contactPhone: null,
  recipient: null,
  address: null,
  postcode: null,
};

/** The recorded ABN of the proprietary company with its last digit changed: fails the ABN test. */
function invalidAbn(): string {
  const abn = SANDBOX.abnRecorded;
  const changed = `${abn.slice(0, 10)}${(Number(abn[10]) + 1) % 10}`;
  expect(isValidAbn(changed)).toBe(false);
  return changed;
}

afterEach(async () => {
  await clock.reset();
  await simulator.clearFaults();
});

describe('POST /v1/companies/{id}/charges/extract-orders: acceptance', () => {
  it('answers 202 with the order in status pending, exactly as spec 2.5 plus our fields (test key)', async () => {
    const key = await createKey('test');
    const before = Date.now();
    const response = await orderCharges(key.secret, SANDBOX.smallChargesExtract);
    const order = accepted(response);
    expect(order).toStrictEqual({
      object: 'order',
      id: expect.stringMatching(ORDER_ID),
      type: 'charges_extract',
      status: 'pending',
      company: smallCompany,
      documents: [
        { documentNumber: '9E0150002', formCode: '309', pageCount: 3 },
        { documentNumber: '9E0150003', formCode: '312', pageCount: 2 },
      ],
      delivery: { method: 'web', ...nullDelivery },
      downloadUrl: null,
      downloadExpiresAt: null,
      registryRequestIds: [],
      notices: [],
      extractSize: 'small',
      pageCount: 5,
      clientReference: null,
      createdAt: expect.stringMatching(TIMESTAMP),
      readyAt: null,
      meta: { billable: false, product: 'charges_extract', requestId: response.headers.get('x-request-id') },
    });
    const createdAt = Date.parse(order.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(createdAt).toBeLessThanOrEqual(Date.now());
  });

  it('lists the documents of every charge in registration order, notification first; 10+ pages is large', async () => {
    const key = await createKey('test');
    const order = accepted(await orderCharges(key.secret, SANDBOX.satisfiedCharges));
    // Charges by registration: 9900141 (1989, migrated), 9900142 (2004), 9900143 (2010, deleted).
    expect(order.documents).toStrictEqual([
      { documentNumber: '9E0140006', formCode: '309', pageCount: 4 },
      { documentNumber: '9E0140007', formCode: '350', pageCount: 2 },
      { documentNumber: '9E0140008', formCode: '312', pageCount: 3 },
      { documentNumber: '9E0140003', formCode: '309', pageCount: 5 },
      { documentNumber: '9E0140004', formCode: '350', pageCount: 2 },
      { documentNumber: '9E0140005', formCode: '312', pageCount: 3 },
      { documentNumber: '9E0140002', formCode: '309', pageCount: 4 },
    ]);
    // 23 pages on the record (the fee tier); the 6 pages never imaged are not compiled.
    expect(order.pageCount).toBe(17);
    expect(order.extractSize).toBe('large');
    expect(order.company).toStrictEqual(
      company(SANDBOX.satisfiedCharges, 'IRONBARK ENGINEERING PTY LTD', 'APTY', '40990000149'),
    );
    // The 1989 notification and stamp duty were never imaged.
    expect(order.notices).toHaveLength(2);
    expect(order.notices[0]).toMatch(/9E0140006.*form 309.*1989-06-01/);
    expect(order.notices[1]).toMatch(/9E0140007.*form 350.*1989-06-05/);
  });

  it.each([
    ['benchmarkChargesExtract', SANDBOX.benchmarkChargesExtract, 30, 30, 'large'],
    ['unavailableChargeImage', SANDBOX.unavailableChargeImage, 8, 5, 'small'],
    ['currentCharges', SANDBOX.currentCharges, 9, 9, 'small'],
    ['mediumChargesExtract', SANDBOX.mediumChargesExtract, 240, 240, 'large'],
  ])(
    '%s (%s): %i pages on record, %i compiled, extractSize %s',
    async (_name, id, recorded, compiled, size) => {
      const key = await createKey('test');
      const order = accepted(await orderCharges(key.secret, id));
      expect([order.pageCount, order.extractSize]).toStrictEqual([compiled, size]);
      expect(order.documents.reduce((sum, document) => sum + document.pageCount, 0)).toBe(recorded);
    },
  );

  it('notes the pre-1991 state-office image that is unavailable, and still accepts the order', async () => {
    const key = await createKey('test');
    const order = accepted(await orderCharges(key.secret, SANDBOX.unavailableChargeImage));
    expect(order.documents).toStrictEqual([
      { documentNumber: SANDBOX.documents.unavailableCharge, formCode: '309', pageCount: 3 },
      { documentNumber: '9E0230003', formCode: '312', pageCount: 2 },
      { documentNumber: '9E0230004', formCode: '309', pageCount: 2 },
      { documentNumber: '9E0230005', formCode: '312', pageCount: 1 },
    ]);
    expect(order.notices).toHaveLength(1);
    expect(order.notices[0]).toMatch(
      new RegExp(`${SANDBOX.documents.unavailableCharge}.*form 309.*1987-03-02.*before 1991`),
    );
    // The notice stays once the order is fulfilled.
    const done = await settled(key.secret, order.id);
    expect(done.status).toBe('ready');
    expect(done.notices).toStrictEqual(order.notices);
    // The cover page, then the 5 pages that have an image.
    const pdf = await download(key.secret, order.id);
    expect(pdf.status).toBe(200);
    expect((await PDFDocument.load(pdf.bytes)).getPageCount()).toBe(1 + 5);
    expect(done.pageCount).toBe(5);
  });

  it.each(['test', 'live'] as const)(
    'orders by ABN (%s key): the company is the one the ABN embeds',
    async (environment) => {
      const key = await createKey(environment);
      const order = accepted(await orderCharges(key.secret, '42990000158'));
      expect(order.company).toStrictEqual(smallCompany);
      expect(order.pageCount).toBe(5);
      const spaced = accepted(await orderCharges(key.secret, '42 990 000 158'));
      expect(spaced.company).toStrictEqual(smallCompany);
    },
  );

  it("takes each method's own fields, the postal ones trimmed, and shows the others null", async () => {
    const key = await createKey('test');
    const viaWeb = accepted(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: { method: 'web' } }),
    );
    expect(viaWeb.delivery).toStrictEqual({ method: 'web', ...nullDelivery });
    const viaEmail = accepted(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, {
        delivery: { method: 'email', email: 'ops@example.com' },
      }),
    );
    expect(viaEmail.delivery).toStrictEqual({ method: 'email', ...nullDelivery, email: 'ops@example.com' });
    const viaPost = accepted(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, {
        delivery: { ...post, recipient: ` ${post.recipient} ` },
      }),
    );
    expect(viaPost.delivery).toStrictEqual({ ...post, email: null });
  });

  it('a live key: meta.billable true, product charges_extract', async () => {
    const key = await createKey('live');
    const response = await orderCharges(key.secret, SANDBOX.smallChargesExtract);
    const order = accepted(response);
    expect(order.meta).toStrictEqual({
      billable: true,
      product: 'charges_extract',
      requestId: response.headers.get('x-request-id'),
    });
    expect(order.company).toStrictEqual(smallCompany);
    expect(order.documents).toHaveLength(2);
    expect([order.status, order.extractSize, order.pageCount]).toStrictEqual(['pending', 'small', 5]);
  });

  it('keeps X-Client-Reference on the order and its fee entry', async () => {
    const key = await createKey('live');
    const order = accepted(
      await orderCharges(
        key.secret,
        SANDBOX.smallChargesExtract,
        { delivery: web },
        {
          'X-Client-Reference': 'matter 7',
        },
      ),
    );
    expect(order.clientReference).toBe('matter 7');
    expect((await usageOf(key.secret)).data.map((entry) => entry.clientReference)).toStrictEqual([
      'matter 7',
    ]);
  });
});

describe('delivery: checked before the registry is asked anything, never billed', () => {
  const cases: [name: string, body: unknown, param: string][] = [
    ['no delivery', {}, 'delivery'],
    ['delivery null', { delivery: null }, 'delivery'],
    ['delivery not an object', { delivery: 'web' }, 'delivery'],
    ['delivery an array', { delivery: ['web'] }, 'delivery'],
    ['no method', { delivery: { email: 'ops@example.com' } }, 'delivery.method'],
    ['an unknown method', { delivery: { method: 'courier' } }, 'delivery.method'],
    ['a method of another case', { delivery: { method: 'WEB' } }, 'delivery.method'],
    ['webhook (offline searches only)', { delivery: { method: 'webhook' } }, 'delivery.method'],
    ['email without an address', { delivery: { method: 'email' } }, 'delivery.email'],
    ['email with an empty address', { delivery: { method: 'email', email: ' ' } }, 'delivery.email'],
    ['email without @', { delivery: { method: 'email', email: 'ops.example.com' } }, 'delivery.email'],
    ['email without a domain dot', { delivery: { method: 'email', email: 'ops@example' } }, 'delivery.email'],
    ['two addresses', { delivery: { method: 'email', email: 'a@x.com b@y.com' } }, 'delivery.email'],
    ['email not a string', { delivery: { method: 'email', email: 42 } }, 'delivery.email'],
    ...(['contactName', 'contactPhone', 'recipient', 'address', 'postcode'] as const).map(
      (field): [string, unknown, string] => {
        const { [field]: _left, ...rest } = post;
        return [`post without ${field}`, { delivery: rest }, `delivery.${field}`];
      },
    ),
    ['post with a blank recipient', { delivery: { ...post, recipient: '  ' } }, 'delivery.recipient'],
    [
      'post with letters for a phone',
      { delivery: { ...post, contactPhone: 'call me' } },
      'delivery.contactPhone',
    ],
    [
      'post with a 7-digit phone',
      { delivery: { ...post, contactPhone: '9000000' } },
      'delivery.contactPhone',
    ],
    ['post with a 5-digit postcode', { delivery: { ...post, postcode: '20000' } }, 'delivery.postcode'],
    ['post with a letter in the postcode', { delivery: { ...post, postcode: '2OOO' } }, 'delivery.postcode'],
    ['post with the postcode a number', { delivery: { ...post, postcode: 2000 } }, 'delivery.postcode'],
    ['an unknown delivery field', { delivery: { method: 'web', colour: 'blue' } }, 'delivery.colour'],
    // Each method takes its own fields only, as the contract's union says.
    ['web with an email', { delivery: { method: 'web', email: 'ops@example.com' } }, 'delivery.email'],
    [
      'email with a postcode',
      { delivery: { method: 'email', email: 'ops@example.com', postcode: '2000' } },
      'delivery.postcode',
    ],
    ['post with an email', { delivery: { ...post, email: 'ops@example.com' } }, 'delivery.email'],
    [
      'email with spaces around it',
      { delivery: { method: 'email', email: ' ops@example.com ' } },
      'delivery.email',
    ],
  ];

  it.each(cases)('%s → 400 delivery_invalid', async (_name, body, param) => {
    const key = await createKey('live');
    expectError(await orderCharges(key.secret, SANDBOX.smallChargesExtract, body), 400, {
      type: 'invalid_request_error',
      code: 'delivery_invalid',
      param,
    });
    expect(await simulatorCallsOf(key.accountId)).toStrictEqual([]);
    expect((await usageOf(key.secret)).data).toStrictEqual([]);
  });

  it('fax → 400 delivery_invalid on delivery.method, saying fax is not offered', async () => {
    const key = await createKey('test');
    const response = await orderCharges(key.secret, SANDBOX.smallChargesExtract, {
      delivery: { method: 'fax', fax: '02 9000 0000' },
    });
    expectError(response, 400, {
      type: 'invalid_request_error',
      code: 'delivery_invalid',
      param: 'delivery.method',
    });
    expect(errorOf(response).message).toMatch(/fax is not offered/i);
  });

  it("a bad delivery (the body's schema) is reported before a company number failing its check digit (the use case)", async () => {
    const key = await createKey('test');
    expectError(await orderCharges(key.secret, '990000015', { delivery: { method: 'fax' } }), 400, {
      type: 'invalid_request_error',
      code: 'delivery_invalid',
      param: 'delivery.method',
    });
    expectError(await orderCharges(key.secret, '990000015', { delivery: web }), 400, {
      type: 'invalid_request_error',
      code: 'acn_invalid',
      param: 'id',
    });
  });

  it('an unknown body field → 422 validation_error on that field', async () => {
    const key = await createKey('live');
    expectError(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: web, express: true }),
      422,
      validationError('express'),
    );
    expect((await usageOf(key.secret)).data).toStrictEqual([]);
  });

  it.each(MALFORMED_PURCHASE_HEADERS)(
    '%s → 422 validation_error on that header, for charges and image orders alike',
    async (_case, headers, param) => {
      const key = await createKey('live');
      expectError(
        await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: web }, headers),
        422,
        validationError(param),
      );
      expectError(
        await orderImages(
          key.secret,
          { documents: [{ documentNumber: '028490193' }], delivery: web },
          headers,
        ),
        422,
        validationError(param),
      );
      expect((await usageOf(key.secret)).data).toStrictEqual([]);
      expect(await simulatorCallsOf(key.accountId)).toStrictEqual([]);
    },
  );
});

describe('size against delivery: document_too_large_for_delivery (422)', () => {
  it.each([
    [
      'email over 50 pages',
      SANDBOX.mediumChargesExtract,
      { method: 'email', email: 'ops@example.com' },
      240,
      50,
    ],
    [
      'email of the 570-page extract',
      SANDBOX.hugeChargesExtract,
      { method: 'email', email: 'ops@example.com' },
      570,
      50,
    ],
    ['web over 500 pages', SANDBOX.hugeChargesExtract, web, 570, 500],
  ])('%s', async (_name, id, delivery, pages, limit) => {
    const key = await createKey('live');
    const response = await orderCharges(key.secret, id, { delivery });
    expectError(response, 422, {
      type: 'invalid_request_error',
      code: 'document_too_large_for_delivery',
      param: 'delivery.method',
      details: { pageCount: pages, method: delivery.method, limit },
    });
    expect(errorOf(response).message).toContain(`${pages} pages`);
    expect((await usageOf(key.secret)).data).toStrictEqual([]);
  });

  it('the limits are inclusive neighbours: 30 pages by email and 240 pages on the web are accepted', async () => {
    const key = await createKey('test');
    const emailed = accepted(
      await orderCharges(key.secret, SANDBOX.benchmarkChargesExtract, {
        delivery: { method: 'email', email: 'ops@example.com' },
      }),
    );
    expect(emailed.pageCount).toBe(30);
    accepted(await orderCharges(key.secret, SANDBOX.mediumChargesExtract, { delivery: web }));
  });

  it('the 570-page extract is accepted by post, and delivered', async () => {
    const key = await createKey('test');
    const order = accepted(await orderCharges(key.secret, SANDBOX.hugeChargesExtract, { delivery: post }));
    expect(order.pageCount).toBe(570);
    expect(order.extractSize).toBe('large');
    expect(order.documents).toHaveLength(90);
    expect(order.company).toStrictEqual(
      company(SANDBOX.hugeChargesExtract, 'PINNACLE RESOURCES LIMITED', 'APUB', '44990000167'),
    );
    expect(order.delivery).toStrictEqual({ ...post, email: null });
    const done = await settled(key.secret, order.id);
    expect(done.status).toBe('delivered');
    // One image request per 10 documents.
    expect(done.registryRequestIds).toHaveLength(9);
  }, 60_000);
});

describe.each(['test', 'live'] as const)(
  'company errors with a %s key (nothing billed)',
  (environment: Environment) => {
    const cases: [name: string, id: () => string, status: number, error: Record<string, string | null>][] = [
      [
        'a failing check digit',
        () => '990000015',
        400,
        { type: 'invalid_request_error', code: 'acn_invalid' },
      ],
      ['letters', () => '99000001A', 400, { type: 'invalid_request_error', code: 'acn_invalid' }],
      ['an ABN failing its check', invalidAbn, 400, { type: 'invalid_request_error', code: 'abn_invalid' }],
      [
        'an ABN embedding no ACN',
        () => '51824753556',
        400,
        { type: 'invalid_request_error', code: 'abn_not_acn_based' },
      ],
      [
        'an ABN not recorded for its company',
        () => SANDBOX.abnNotRecorded,
        404,
        { type: 'not_found_error', code: 'abn_not_found', registryCode: 'CE12' },
      ],
      [
        'an ABN embedding an unknown ACN',
        () => SANDBOX.abnNoCompany,
        404,
        { type: 'not_found_error', code: 'abn_not_found', registryCode: 'CE13' },
      ],
      [
        'an unknown company',
        () => SANDBOX.unknownNumber,
        404,
        { type: 'not_found_error', code: 'company_not_found', registryCode: 'CE03' },
      ],
      [
        'a company without charges',
        () => SANDBOX.noCharges,
        404,
        { type: 'not_found_error', code: 'no_charges', registryCode: 'CC52' },
      ],
      [
        'a trust (no charges product)',
        () => SANDBOX.trust,
        422,
        { type: 'invalid_request_error', code: 'extract_unavailable_for_type', registryCode: 'CC51' },
      ],
      [
        'an association (no charges product)',
        () => SANDBOX.association,
        422,
        { type: 'invalid_request_error', code: 'extract_unavailable_for_type', registryCode: 'CC51' },
      ],
    ];

    it.each(cases)('%s', async (_name, id, status, error) => {
      const key = await createKey(environment);
      expectError(await orderCharges(key.secret, id()), status, {
        type: error.type as string,
        code: error.code as string,
        param: 'id',
        registryCode: error.registryCode ?? null,
      });
      const usage = await usageOf(key.secret);
      expect(usage.data).toStrictEqual([]);
      expect((await listOrders(key.secret)).body.data).toStrictEqual([]);
    });
  },
);

describe('the registry unavailable at acceptance (live key)', () => {
  it('a maintenance window → 503 registry_unavailable with Retry-After 300; no order, no fee', async () => {
    const key = await createKey('live');
    await simulator.addFault({
      code: 'ZZ51',
      operations: ['charges.plan', 'documents.get'],
      accountId: key.accountId,
    });
    const unavailable = {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    };
    const charges = await orderCharges(key.secret, SANDBOX.smallChargesExtract);
    expectError(charges, 503, unavailable);
    expect(charges.headers.get('retry-after')).toBe('300');
    const images = await orderImages(key.secret, {
      documents: [{ documentNumber: SANDBOX.documents.organisation }],
      delivery: web,
    });
    expectError(images, 503, unavailable);
    expect((await usageOf(key.secret)).data).toStrictEqual([]);
    expect((await listOrders(key.secret)).body.data).toStrictEqual([]);
  });
});

describe('billing: one fee at acceptance', () => {
  it('a live order writes exactly one 955E entry', async () => {
    const key = await createKey('live');
    const response = await orderCharges(key.secret, SANDBOX.satisfiedCharges);
    const order = accepted(response);
    expect((await usageOf(key.secret)).data).toStrictEqual([
      {
        object: 'feeEntry',
        at: order.createdAt,
        product: 'charges_extract',
        feeCode: '955E',
        quantity: 1,
        billable: true,
        clientReference: null,
        requestId: response.headers.get('x-request-id'),
        resourceId: order.id,
        // The (example) price in force at acceptance: 18.00.
        unitAmountCents: 1800,
        amountCents: 1800,
        priceVersion: '2020-01-01',
      },
    ]);
    // Fulfilling it bills nothing more.
    const done = await settled(key.secret, order.id);
    expect(done.status).toBe('ready');
    expect(done.registryRequestIds).toStrictEqual(await registryImageRequests(key.accountId));
    expect(done.registryRequestIds).toHaveLength(1);
    const usage = await usageOf(key.secret);
    expect(usage.data).toHaveLength(1);
    expect(usage.totals).toStrictEqual([
      {
        product: 'charges_extract',
        feeCode: '955E',
        billable: true,
        quantity: 1,
        entries: 1,
        amountCents: 1800,
      },
    ]);
  });

  it('pre-PPSR current charges are fee 955C', async () => {
    const key = await createKey('live');
    const order = accepted(await orderCharges(key.secret, SANDBOX.currentCharges));
    expect(
      (await usageOf(key.secret)).data.map((e) => [e.product, e.feeCode, e.quantity, e.resourceId]),
    ).toStrictEqual([['charges_extract', '955C', 1, order.id]]);
  });

  it('a test key writes the entry with billable false and no fee code', async () => {
    const key = await createKey('test');
    const response = await orderCharges(key.secret, SANDBOX.satisfiedCharges);
    const order = accepted(response);
    expect((await usageOf(key.secret)).data).toStrictEqual([
      {
        object: 'feeEntry',
        at: order.createdAt,
        product: 'charges_extract',
        feeCode: null,
        quantity: 1,
        billable: false,
        clientReference: null,
        requestId: response.headers.get('x-request-id'),
        resourceId: order.id,
        // What the same order would have cost on a live key (955E), not billed.
        unitAmountCents: 1800,
        amountCents: 1800,
        priceVersion: '2020-01-01',
      },
    ]);
  });

  it('Idempotency-Key: the same key and body is the same order and one fee', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': `order-${key.accountId}` };
    const first = accepted(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: web }, headers),
    );
    const again = accepted(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: web }, headers),
    );
    expect(again.id).toBe(first.id);
    expect(again.meta.billable).toBe(true);
    expect(again.meta.product).toBe('charges_extract');
    await settled(key.secret, first.id);
    const later = accepted(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: web }, headers),
    );
    expect(later.id).toBe(first.id);
    const usage = await usageOf(key.secret);
    expect(usage.data.map((e) => [e.feeCode, e.quantity, e.resourceId])).toStrictEqual([
      ['955E', 1, first.id],
    ]);
    expect((await listOrders(key.secret)).body.data.map((o) => o.id)).toStrictEqual([first.id]);
  });

  it('Idempotency-Key: the same key with another body → 409 idempotency_conflict, nothing billed', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': `order-${key.accountId}` };
    const first = accepted(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: web }, headers),
    );
    expectError(
      await orderCharges(
        key.secret,
        SANDBOX.smallChargesExtract,
        { delivery: { method: 'email', email: 'ops@example.com' } },
        headers,
      ),
      409,
      { type: 'conflict_error', code: 'idempotency_conflict', param: 'Idempotency-Key' },
    );
    expect((await usageOf(key.secret)).data.map((e) => e.resourceId)).toStrictEqual([first.id]);
  });

  it('without Idempotency-Key two identical requests are two orders and two fees', async () => {
    const key = await createKey('live');
    const first = accepted(await orderCharges(key.secret, SANDBOX.smallChargesExtract));
    const second = accepted(await orderCharges(key.secret, SANDBOX.smallChargesExtract));
    expect(second.id).not.toBe(first.id);
    const usage = await usageOf(key.secret);
    expect(usage.data.map((e) => [e.feeCode, e.resourceId])).toStrictEqual([
      ['955E', first.id],
      ['955E', second.id],
    ]);
    expect(usage.totals).toStrictEqual([
      {
        product: 'charges_extract',
        feeCode: '955E',
        billable: true,
        quantity: 2,
        entries: 2,
        amountCents: 3600,
      },
    ]);
  });
});

describe('a failed order is not billed', () => {
  it('X-Sandbox-Simulate: order_failed ends the test order failed (images_unavailable, DI58)', async () => {
    const key = await createKey('test');
    const order = accepted(
      await orderCharges(
        key.secret,
        SANDBOX.smallChargesExtract,
        { delivery: web },
        {
          'X-Sandbox-Simulate': 'order_failed',
        },
      ),
    );
    expect(order.status).toBe('pending');
    expect(order).not.toHaveProperty('failure');
    const done = await settled(key.secret, order.id);
    expect(done.status).toBe('failed');
    expect(done.failure).toStrictEqual({
      code: 'images_unavailable',
      registryCode: 'DI58',
      message: expect.any(String),
    });
    expect(done.readyAt).toBeNull();
    expect(done.downloadUrl).toBeNull();
    expect(done.downloadExpiresAt).toBeNull();
    const events = (await publishedEvents()).filter((event) => event.data.id === order.id);
    expect(events.map((event) => [event.type, event.livemode])).toStrictEqual([['order.failed', false]]);
    expect(events[0]?.data).toStrictEqual(eventView(done));
    // A test key's entry is not billable, so there is nothing to void.
    expect((await usageOf(key.secret)).data.map((e) => [e.billable, e.feeCode, e.quantity])).toStrictEqual([
      [false, null, 1],
    ]);
  });

  it.each([
    ['a live key', 'live' as const, 'order_failed'],
    ['another value', 'test' as const, 'order_ready'],
    ['another case', 'test' as const, 'ORDER_FAILED'],
  ])(
    'X-Sandbox-Simulate with %s → 400 sandbox_simulation_invalid, nothing ordered',
    async (_name, environment, value) => {
      const key = await createKey(environment);
      expectError(
        await orderCharges(
          key.secret,
          SANDBOX.smallChargesExtract,
          { delivery: web },
          { 'X-Sandbox-Simulate': value },
        ),
        400,
        { type: 'invalid_request_error', code: 'sandbox_simulation_invalid', param: 'X-Sandbox-Simulate' },
      );
      expect(await simulatorCallsOf(key.accountId)).toStrictEqual([]);
      expect((await usageOf(key.secret)).data).toStrictEqual([]);
      expect((await listOrders(key.secret)).body.data).toStrictEqual([]);
    },
  );

  it('a live order whose image request the registry fails ends failed, and its fee is voided', async () => {
    const key = await createKey('live');
    await simulator.addFault({ image: { failure: {} }, accountId: key.accountId, times: 1 });
    const order = accepted(await orderCharges(key.secret, SANDBOX.smallChargesExtract));
    const done = await settled(key.secret, order.id);
    expect(done.status).toBe('failed');
    expect(done.failure).toStrictEqual({
      code: 'images_unavailable',
      registryCode: 'DI58',
      message: 'The registry could not retrieve the images.',
    });
    expect(done.readyAt).toBeNull();
    const usage = await usageOf(key.secret);
    expect(usage.data.map((e) => [e.product, e.feeCode, e.quantity, e.billable, e.resourceId])).toStrictEqual(
      [
        ['charges_extract', '955E', 1, true, order.id],
        ['charges_extract', '955E', -1, true, order.id],
      ],
    );
    expect(usage.totals).toStrictEqual([
      {
        product: 'charges_extract',
        feeCode: '955E',
        billable: true,
        quantity: 0,
        entries: 2,
        amountCents: 0,
      },
    ]);
  });
});

describe('POST /v1/documents/image-orders', () => {
  const { documents: docs } = SANDBOX;
  const item = (documentNumber: string, pages?: { from?: number; to?: number }) =>
    pages === undefined ? { documentNumber } : { documentNumber, pages };

  it('bills per document by context for a live key: 951, 954, 949 grouped; 902 and unavailable images free', async () => {
    const key = await createKey('live');
    const response = await orderImages(key.secret, {
      documents: [
        item(docs.organisation),
        item(docs.person),
        item(docs.other),
        item(docs.otherRenewal),
        item(docs.supplementary),
        item(docs.unavailable),
      ],
      delivery: web,
    });
    const order = accepted(response);
    expect(order).toStrictEqual({
      object: 'order',
      id: expect.stringMatching(ORDER_ID),
      type: 'document_image',
      status: 'pending',
      company: null,
      documents: [
        { documentNumber: docs.organisation, formCode: '388', pageCount: 64, pages: null },
        { documentNumber: docs.person, formCode: '484', pageCount: 3, pages: null },
        { documentNumber: docs.other, formCode: 'BN01', pageCount: 2, pages: null },
        { documentNumber: docs.otherRenewal, formCode: 'BN03', pageCount: 1, pages: null },
        { documentNumber: docs.supplementary, formCode: '902', pageCount: 6, pages: null },
        { documentNumber: docs.unavailable, formCode: '484', pageCount: 3, pages: null },
      ],
      delivery: { method: 'web', ...nullDelivery },
      downloadUrl: null,
      downloadExpiresAt: null,
      registryRequestIds: [],
      notices: [expect.stringContaining(docs.unavailable)],
      extractSize: 'large',
      // The unavailable document adds no pages.
      pageCount: 76,
      clientReference: null,
      createdAt: expect.stringMatching(TIMESTAMP),
      readyAt: null,
      meta: { billable: true, product: 'document_image', requestId: response.headers.get('x-request-id') },
    });
    const requestId = response.headers.get('x-request-id');
    expect((await usageOf(key.secret)).data).toStrictEqual(
      [
        ['951', 1],
        ['954', 1],
        ['949', 2],
      ].map(([feeCode, quantity]) => ({
        object: 'feeEntry',
        at: order.createdAt,
        product: 'document_image',
        feeCode,
        quantity,
        billable: true,
        clientReference: null,
        requestId,
        resourceId: order.id,
        unitAmountCents: 1200,
        amountCents: 1200 * Number(quantity),
        priceVersion: '2020-01-01',
      })),
    );
  });

  it('a test key writes the same entries without fee codes, billable false', async () => {
    const key = await createKey('test');
    const response = await orderImages(key.secret, {
      documents: [item(docs.organisation), item(docs.person), item(docs.other), item(docs.otherRenewal)],
      delivery: web,
    });
    const order = accepted(response);
    expect(order.meta.billable).toBe(false);
    expect(
      (await usageOf(key.secret)).data.map((e) => [e.product, e.feeCode, e.quantity, e.billable]),
    ).toStrictEqual([
      ['document_image', null, 1, false],
      ['document_image', null, 1, false],
      ['document_image', null, 2, false],
    ]);
  });

  it('a page range: pages echoed, pageCount is the range; small under 10 pages', async () => {
    const key = await createKey('test');
    const order = accepted(
      await orderImages(key.secret, {
        documents: [
          item(docs.organisation, { from: 2, to: 5 }),
          item(docs.supplementary, { from: 6, to: 6 }),
        ],
        delivery: web,
      }),
    );
    expect(order.documents).toStrictEqual([
      { documentNumber: docs.organisation, formCode: '388', pageCount: 4, pages: { from: 2, to: 5 } },
      { documentNumber: docs.supplementary, formCode: '902', pageCount: 1, pages: { from: 6, to: 6 } },
    ]);
    expect([order.pageCount, order.extractSize]).toStrictEqual([5, 'small']);
    // Every document belongs to one organisation.
    expect(order.company).toStrictEqual(imageCompany);
    expect((await settled(key.secret, order.id)).status).toBe('ready');
    // The PDF holds only the pages ordered, after its cover page.
    const pdf = await download(key.secret, order.id);
    expect(pdf.status).toBe(200);
    expect((await PDFDocument.load(pdf.bytes)).getPageCount()).toBe(1 + 5);
  });

  it.each([
    [9, 'small'],
    [10, 'large'],
  ])('%i pages is a %s order', async (pages, size) => {
    const key = await createKey('test');
    const order = accepted(
      await orderImages(key.secret, {
        documents: [item(docs.organisation, { from: 11, to: 10 + pages })],
        delivery: web,
      }),
    );
    expect([order.pageCount, order.extractSize]).toStrictEqual([pages, size]);
  });

  it('company: null for a business name’s documents and for a person’s', async () => {
    const key = await createKey('test');
    expect(
      accepted(await orderImages(key.secret, { documents: [item(docs.other)], delivery: web })).company,
    ).toBeNull();
    expect(
      accepted(await orderImages(key.secret, { documents: [item(docs.person)], delivery: web })).company,
    ).toBeNull();
    expect(
      accepted(await orderImages(key.secret, { documents: [item(docs.organisation)], delivery: web }))
        .company,
    ).toStrictEqual(imageCompany);
  });

  it('document numbers are read in upper case', async () => {
    const key = await createKey('test');
    const order = accepted(
      await orderImages(key.secret, { documents: [item(docs.organisation.toLowerCase())], delivery: web }),
    );
    expect(order.documents.map((d) => d.documentNumber)).toStrictEqual([docs.organisation]);
  });

  describe.each(['test', 'live'] as const)(
    'errors with a %s key (nothing billed)',
    (environment: Environment) => {
      const cases: [
        name: string,
        body: () => unknown,
        status: number,
        error: Record<string, string | null>,
      ][] = [
        [
          'a malformed document number',
          () => ({ documents: [item(docs.organisation), item('ABC')], delivery: web }),
          400,
          {
            type: 'invalid_request_error',
            code: 'document_number_invalid',
            param: 'documents[1].documentNumber',
          },
        ],
        [
          'a number starting with a letter',
          () => ({ documents: [item('E90250004')], delivery: web }),
          400,
          {
            type: 'invalid_request_error',
            code: 'document_number_invalid',
            param: 'documents[0].documentNumber',
          },
        ],
        [
          'a document twice (named on the second)',
          () => ({
            documents: [item(docs.organisation), item(docs.person), item(docs.organisation.toLowerCase())],
            delivery: web,
          }),
          400,
          {
            type: 'invalid_request_error',
            code: 'duplicate_document_number',
            param: 'documents[2].documentNumber',
          },
        ],
        [
          'pages.from without pages.to',
          () => ({ documents: [item(docs.person), item(docs.organisation, { from: 3 })], delivery: web }),
          400,
          { type: 'invalid_request_error', code: 'page_range_invalid', param: 'documents[1].pages.to' },
        ],
        [
          'pages.to without pages.from',
          () => ({ documents: [item(docs.organisation, { to: 3 })], delivery: web }),
          400,
          { type: 'invalid_request_error', code: 'page_range_invalid', param: 'documents[0].pages.from' },
        ],
        [
          'pages.to below pages.from',
          () => ({ documents: [item(docs.organisation, { from: 5, to: 4 })], delivery: web }),
          400,
          { type: 'invalid_request_error', code: 'page_range_invalid', param: 'documents[0].pages' },
        ],
        [
          'pages beyond the document',
          () => ({
            documents: [item(docs.person), item(docs.organisation, { from: 60, to: 65 })],
            delivery: web,
          }),
          400,
          { type: 'invalid_request_error', code: 'page_range_invalid', param: 'documents[1].pages' },
        ],
        [
          'an unknown document',
          () => ({ documents: [item(docs.organisation), item(docs.unknown)], delivery: web }),
          404,
          {
            type: 'not_found_error',
            code: 'document_not_found',
            param: 'documents[1].documentNumber',
            registryCode: 'DD51',
          },
        ],
        [
          'a document that was never imaged',
          () => ({ documents: [item(docs.organisation), item(docs.notImaged)], delivery: web }),
          422,
          {
            type: 'invalid_request_error',
            code: 'document_not_imaged',
            param: 'documents[1].documentNumber',
          },
        ],
        [
          'only documents without an image',
          () => ({ documents: [item(docs.unavailable)], delivery: web }),
          422,
          { type: 'invalid_request_error', code: 'document_not_imaged', param: 'documents' },
        ],
        [
          'no delivery',
          () => ({ documents: [item(docs.organisation)] }),
          400,
          { type: 'invalid_request_error', code: 'delivery_invalid', param: 'delivery' },
        ],
        [
          'post without a postcode',
          () => ({ documents: [item(docs.organisation)], delivery: { ...post, postcode: undefined } }),
          400,
          { type: 'invalid_request_error', code: 'delivery_invalid', param: 'delivery.postcode' },
        ],
        ['no documents', () => ({ documents: [], delivery: web }), 422, validationError('documents')],
        [
          'more than 50 documents',
          () => ({
            documents: Array.from({ length: 51 }, (_, i) => item(`9E0${String(i).padStart(6, '0')}`)),
            delivery: web,
          }),
          422,
          validationError('documents'),
        ],
        [
          'a page number that is not a whole number',
          () => ({
            documents: [{ documentNumber: docs.organisation, pages: { from: 1.5, to: 3 } }],
            delivery: web,
          }),
          422,
          validationError('documents[0].pages.from'),
        ],
        [
          'a page number below 1',
          () => ({
            documents: [{ documentNumber: docs.organisation, pages: { from: 0, to: 2 } }],
            delivery: web,
          }),
          400,
          { type: 'invalid_request_error', code: 'page_range_invalid', param: 'documents[0].pages.from' },
        ],
        [
          'pages.to 0, below pages.from',
          () => ({
            documents: [{ documentNumber: docs.organisation, pages: { from: 1, to: 0 } }],
            delivery: web,
          }),
          400,
          { type: 'invalid_request_error', code: 'page_range_invalid', param: 'documents[0].pages.to' },
        ],
        [
          'a page far beyond any document',
          () => ({
            documents: [{ documentNumber: docs.organisation, pages: { from: 200_000, to: 200_001 } }],
            delivery: web,
          }),
          400,
          { type: 'invalid_request_error', code: 'page_range_invalid', param: 'documents[0].pages' },
        ],
        [
          'a document number of 65 characters',
          () => ({ documents: [{ documentNumber: `1${'2'.repeat(64)}` }], delivery: web }),
          400,
          {
            type: 'invalid_request_error',
            code: 'document_number_invalid',
            param: 'documents[0].documentNumber',
          },
        ],
        [
          'a document number that is not a string',
          () => ({ documents: [{ documentNumber: 123456789 }], delivery: web }),
          422,
          validationError('documents[0].documentNumber'),
        ],
        [
          'documents that is not an array',
          () => ({ documents: docs.organisation, delivery: web }),
          422,
          validationError('documents'),
        ],
        [
          'an unknown field in a document',
          () => ({ documents: [{ documentNumber: docs.organisation, copies: 2 }], delivery: web }),
          422,
          validationError('documents[0].copies'),
        ],
      ];

      it.each(cases)('%s', async (_name, body, status, error) => {
        const key = await createKey(environment);
        expectError(await orderImages(key.secret, body()), status, {
          type: error.type as string,
          code: error.code as string,
          param: error.param ?? null,
          registryCode: error.registryCode ?? null,
        });
        expect((await usageOf(key.secret)).data).toStrictEqual([]);
      });

      it('over 50 pages by email → 422 document_too_large_for_delivery with the page count', async () => {
        const key = await createKey(environment);
        const response = await orderImages(key.secret, {
          documents: [item(docs.organisation)],
          delivery: { method: 'email', email: 'ops@example.com' },
        });
        expectError(response, 422, {
          type: 'invalid_request_error',
          code: 'document_too_large_for_delivery',
          param: 'delivery.method',
          details: { pageCount: 64, method: 'email', limit: 50 },
        });
        expect(errorOf(response).message).toContain('64 pages');
        expect((await usageOf(key.secret)).data).toStrictEqual([]);
      });
    },
  );

  it('50 documents are accepted', async () => {
    const key = await createKey('test');
    // The 90 documents of the huge charges extract, all imaged: take 50 of them.
    const plan = accepted(await orderCharges(key.secret, SANDBOX.hugeChargesExtract, { delivery: post }));
    const fifty = plan.documents.slice(0, 50).map((d) => item(d.documentNumber));
    const order = accepted(await orderImages(key.secret, { documents: fifty, delivery: post }));
    expect(order.documents).toHaveLength(50);
    expect(order.company).toStrictEqual(
      company(SANDBOX.hugeChargesExtract, 'PINNACLE RESOURCES LIMITED', 'APUB', '44990000167'),
    );
    const [, done] = await Promise.all([settled(key.secret, plan.id), settled(key.secret, order.id)]);
    expect(done.status).toBe('delivered');
    // One registry image request per 10 documents.
    expect(done.registryRequestIds).toHaveLength(5);
  }, 60_000);
});

describe('GET /v1/orders/{orderId}', () => {
  it('reads the order for free: meta.billable false, product charges_extract', async () => {
    const key = await createKey('live');
    const placed = accepted(await orderCharges(key.secret, SANDBOX.smallChargesExtract));
    const response = await getOrder(key.secret, placed.id);
    expect(response.status, response.text).toBe(200);
    expect(response.body.meta).toStrictEqual({
      billable: false,
      product: 'charges_extract',
      requestId: response.headers.get('x-request-id'),
    });
    expect(response.body.id).toBe(placed.id);
    expect(response.body.createdAt).toBe(placed.createdAt);
    expect((await usageOf(key.secret)).data).toHaveLength(1);
  });

  it('a document image order reads as product document_image', async () => {
    const key = await createKey('test');
    const placed = accepted(
      await orderImages(key.secret, {
        documents: [{ documentNumber: SANDBOX.documents.person }],
        delivery: web,
      }),
    );
    const response = await getOrder(key.secret, placed.id);
    expect(response.body.meta).toMatchObject({ billable: false, product: 'document_image' });
  });

  it.each([
    ['an unknown order id', 'ord_000000000000000000000000'],
    ['a malformed id', 'not-an-order'],
    ['an offline search id', 'ofs_000000000000000000000000'],
    ['a very long id', `ord_${'a'.repeat(100)}`],
  ])('%s → 404 order_not_found', async (_name, id) => {
    const key = await createKey('test');
    expectError(await getOrder(key.secret, id), 404, {
      type: 'not_found_error',
      code: 'order_not_found',
      param: 'orderId',
    });
    expectError(await download(key.secret, id), 404, {
      type: 'not_found_error',
      code: 'order_not_found',
      param: 'orderId',
    });
  });

  it('another account’s order, or the same account’s other environment → 403 order_owner_mismatch', async () => {
    const owner = await createKey('test');
    const placed = accepted(await orderCharges(owner.secret, SANDBOX.smallChargesExtract));
    await settled(owner.secret, placed.id);
    const stranger = await createKey('test');
    const ownLive = await createKey('live', { accountId: owner.accountId });
    for (const other of [stranger, ownLive]) {
      const mismatch = { type: 'permission_error', code: 'order_owner_mismatch', param: 'orderId' };
      expectError(await getOrder(other.secret, placed.id), 403, mismatch);
      expectError(await download(other.secret, placed.id), 403, mismatch);
    }
    expect((await listOrders(ownLive.secret)).body.data).toStrictEqual([]);
  });
});

describe('GET /v1/orders', () => {
  it('lists newest first, filters by status and type, pages with a cursor', async () => {
    const key = await createKey('test');
    const first = accepted(await orderCharges(key.secret, SANDBOX.smallChargesExtract));
    await clock.advance(1_000);
    const second = accepted(
      await orderCharges(
        key.secret,
        SANDBOX.smallChargesExtract,
        { delivery: web },
        {
          'X-Sandbox-Simulate': 'order_failed',
        },
      ),
    );
    await clock.advance(1_000);
    const third = accepted(
      await orderImages(key.secret, {
        documents: [{ documentNumber: SANDBOX.documents.other }],
        delivery: web,
      }),
    );
    const done = await Promise.all([first, second, third].map((o) => settled(key.secret, o.id)));
    expect(done.map((o) => o.status)).toStrictEqual(['ready', 'failed', 'ready']);

    const all = await listOrders(key.secret);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toStrictEqual({
      object: 'list',
      data: [...done].reverse().map(({ meta: _meta, ...order }) => order),
      hasMore: false,
      nextCursor: null,
      totalCount: null,
      meta: { billable: false, product: null, requestId: all.headers.get('x-request-id') },
    });

    const ids = async (query: string) => {
      const response = await listOrders(key.secret, query);
      expect(response.status, response.text).toBe(200);
      return response.body.data.map((o) => o.id);
    };
    expect(await ids('?status=failed')).toStrictEqual([second.id]);
    expect(await ids('?status=ready')).toStrictEqual([third.id, first.id]);
    expect(await ids('?status=pending')).toStrictEqual([]);
    expect(await ids('?status=processing')).toStrictEqual([]);
    expect(await ids('?type=document_image')).toStrictEqual([third.id]);
    expect(await ids('?type=charges_extract')).toStrictEqual([second.id, first.id]);
    expect(await ids('?status=ready&type=charges_extract')).toStrictEqual([first.id]);

    const page1 = await listOrders(key.secret, '?limit=2');
    expect(page1.body.data.map((o) => o.id)).toStrictEqual([third.id, second.id]);
    expect(page1.body.hasMore).toBe(true);
    expect(typeof page1.body.nextCursor).toBe('string');
    const cursor = encodeURIComponent(page1.body.nextCursor as string);
    const page2 = await listOrders(key.secret, `?limit=2&cursor=${cursor}`);
    expect(page2.status, page2.text).toBe(200);
    expect(page2.body.data.map((o) => o.id)).toStrictEqual([first.id]);
    expect([page2.body.hasMore, page2.body.nextCursor]).toStrictEqual([false, null]);

    expectError(
      await listOrders(key.secret, `?limit=2&status=ready&cursor=${cursor}`),
      400,
      validationError('cursor'),
    );
    expectError(
      await listOrders(key.secret, `?limit=2&type=charges_extract&cursor=${cursor}`),
      400,
      validationError('cursor'),
    );
  });

  it.each([
    ['status=done', 'status'],
    ['status=READY', 'status'],
    ['type=extract', 'type'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['colour=blue', 'colour'],
  ])('?%s → 422 validation_error', async (query, param) => {
    const key = await createKey('test');
    expectError(await listOrders(key.secret, `?${query}`), 422, validationError(param));
  });

  it('a cursor that is not one the service issued → 400 validation_error on cursor', async () => {
    const key = await createKey('test');
    expectError(await listOrders(key.secret, '?cursor=not-a-cursor'), 400, validationError('cursor'));
  });
});

describe('GET /v1/orders/{orderId}/download', () => {
  it('the PDF: cover page and every page of the 30-page extract; downloadUrl and its expiry', async () => {
    const key = await createKey('test');
    const placed = accepted(await orderCharges(key.secret, SANDBOX.benchmarkChargesExtract));
    const order = await settled(key.secret, placed.id);
    expect(order.status).toBe('ready');
    expect(order.readyAt).toMatch(TIMESTAMP);
    expect(order.downloadUrl).toBe(`${baseUrl}/v1/orders/${order.id}/download`);
    expect(order.downloadExpiresAt).toBe(
      new Date(Date.parse(order.readyAt as string) + 7 * DAY_MS).toISOString().replace('.000Z', 'Z'),
    );
    expect(order.registryRequestIds).toHaveLength(1);

    const pdf = await download(key.secret, order.id);
    expect(pdf.status, pdf.text.slice(0, 300)).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${order.id}.pdf"`);
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const document = await PDFDocument.load(pdf.bytes);
    // One cover page, then the 30 pages ordered.
    expect(document.getPageCount()).toBe(1 + order.pageCount);
    expect(order.pageCount).toBe(30);
    // Downloading is free.
    expect((await usageOf(key.secret)).data).toHaveLength(1);
  });

  it('409 order_not_ready while the registry is still producing the images (live key)', async () => {
    const key = await createKey('live');
    await simulator.addFault({ image: { pendingChecks: 15 }, accountId: key.accountId, times: 1 });
    const placed = accepted(await orderCharges(key.secret, SANDBOX.smallChargesExtract));
    const early = await download(key.secret, placed.id);
    expectError(early, 409, { type: 'conflict_error', code: 'order_not_ready', param: 'orderId' });
    const pending = await getOrder(key.secret, placed.id);
    expect(['pending', 'processing']).toContain(pending.body.status);
    expect(pending.body.downloadUrl).toBeNull();
    const done = await settled(key.secret, placed.id);
    expect(done.status).toBe('ready');
    expect((await download(key.secret, placed.id)).status).toBe(200);
  });

  it('409 order_not_ready for a failed order, with its own message', async () => {
    const key = await createKey('test');
    const placed = accepted(
      await orderCharges(
        key.secret,
        SANDBOX.smallChargesExtract,
        { delivery: web },
        {
          'X-Sandbox-Simulate': 'order_failed',
        },
      ),
    );
    expect((await settled(key.secret, placed.id)).status).toBe('failed');
    const response = await download(key.secret, placed.id);
    expectError(response, 409, { type: 'conflict_error', code: 'order_not_ready', param: 'orderId' });
    expect(errorOf(response).message).toMatch(/failed/);
  });

  it('410 order_download_expired 7 days after readyAt; still there just before', async () => {
    const key = await createKey('test');
    const placed = accepted(await orderCharges(key.secret, SANDBOX.smallChargesExtract));
    const order = await settled(key.secret, placed.id);
    const expiry = Date.parse(order.readyAt as string) + 7 * DAY_MS;
    await clock.advance(expiry - 60_000 - Date.now());
    expect((await download(key.secret, order.id)).status).toBe(200);
    await clock.reset();
    await clock.advance(expiry + 60_000 - Date.now());
    expectError(await download(key.secret, order.id), 410, {
      type: 'invalid_request_error',
      code: 'order_download_expired',
      param: 'orderId',
    });
    // The order itself stays readable.
    expect((await getOrder(key.secret, order.id)).status).toBe(200);
  });
});

describe('email and post orders', () => {
  it('email: delivered with readyAt, no downloadUrl; the PDF is mailed and a copy can be downloaded', async () => {
    const key = await createKey('test');
    const email = `orders+${key.accountId}@example.com`;
    const placed = accepted(
      await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: { method: 'email', email } }),
    );
    const order = await settled(key.secret, placed.id);
    expect(order.status).toBe('delivered');
    expect(order.readyAt).toMatch(TIMESTAMP);
    expect(order.downloadUrl).toBeNull();
    expect(order.downloadExpiresAt).toBeNull();
    const mail = (await outbox()).filter((message) => message.to === email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.attachments.map((a) => [a.filename, a.contentType])).toStrictEqual([
      [`${order.id}.pdf`, 'application/pdf'],
    ]);
    const copy = await download(key.secret, order.id);
    expect(copy.status).toBe(200);
    expect((await PDFDocument.load(copy.bytes)).getPageCount()).toBe(1 + 5);
  });

  it('post: delivered with readyAt, no downloadUrl', async () => {
    const key = await createKey('test');
    const placed = accepted(await orderCharges(key.secret, SANDBOX.smallChargesExtract, { delivery: post }));
    const order = await settled(key.secret, placed.id);
    expect(order.status).toBe('delivered');
    expect(order.readyAt).toMatch(TIMESTAMP);
    expect(order.downloadUrl).toBeNull();
    expect(order.downloadExpiresAt).toBeNull();
    expect(order.delivery).toStrictEqual({ ...post, email: null });
  });
});
