import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import {
  buyExtract,
  call,
  createKey,
  expectError,
  type FeeEntryBody,
  failNextCommits,
  registryPurchases,
  simulator,
  validationError,
} from '../support/api.ts';

/**
 * POST /v1/companies/{id}/extracts: bought once, billed once, never lost (issue 3, items 3, 5, 6).
 * Live keys reach the registry simulator, whose call log shows what the registry billed.
 */

const usageOf = async (secret: string) =>
  (await call<{ data: FeeEntryBody[]; totals: unknown[] }>('/v1/usage', { key: secret })).body;

afterEach(async () => {
  await simulator.clearFaults();
  await failNextCommits(0);
});

describe('a purchase', () => {
  it('returns the whole extract with 201 and the fee code of its type (live key, billed)', async () => {
    const key = await createKey('live');
    const response = await buyExtract(key.secret, SANDBOX.satisfiedCharges, 'historical');
    expect(response.status, response.text).toBe(201);
    const body = response.body as unknown as Record<string, unknown> & { meta: Record<string, unknown> };
    expect(body.object).toBe('extract');
    expect(body.id).toMatch(/^ext_[0-9a-f]{24}$/);
    expect(body.kind).toBe('company');
    expect(body.type).toBe('historical');
    expect((body.company as { acn: string }).acn).toBe(SANDBOX.satisfiedCharges);
    expect(Array.isArray(body.charges)).toBe(true);
    expect((body.charges as unknown[]).length).toBeGreaterThan(0);
    expect(body.relationships).toBeNull();
    const purchasedAt = Date.parse(body.purchasedAt as string);
    const expiresAt = new Date(purchasedAt);
    expiresAt.setUTCMonth(expiresAt.getUTCMonth() + 12);
    expect(body.expiresAt).toBe(`${expiresAt.toISOString().slice(0, 19)}Z`);
    expect(body.meta).toStrictEqual({
      billable: true,
      product: 'company_extract_historical',
      requestId: response.headers.get('x-request-id'),
    });
    expect(await registryPurchases(key.accountId)).toBe(1);

    const usage = await usageOf(key.secret);
    expect(usage.data).toStrictEqual([
      {
        object: 'feeEntry',
        at: body.purchasedAt,
        product: 'company_extract_historical',
        feeCode: '955A',
        quantity: 1,
        billable: true,
        clientReference: null,
        requestId: response.headers.get('x-request-id'),
        resourceId: body.id,
        // The (example) price in force at the purchase: 40.00.
        unitAmountCents: 4000,
        amountCents: 4000,
        priceVersion: '2020-01-01',
      },
    ]);
  });

  it.each([
    ['current', 'company_extract_current', '955A'],
    ['relational', 'company_relationships', '955B'],
  ])('of type %s is product %s with fee code %s', async (type, product, feeCode) => {
    const key = await createKey('live');
    const response = await buyExtract(key.secret, SANDBOX.relational, type);
    expect(response.status, response.text).toBe(201);
    expect((response.body as unknown as { meta: { product: string } }).meta.product).toBe(product);
    const usage = await usageOf(key.secret);
    expect(usage.data.map((entry) => [entry.product, entry.feeCode, entry.billable])).toStrictEqual([
      [product, feeCode, true],
    ]);
  });

  it('with a test key is served by the sandbox, not billed, and recorded as non-billable', async () => {
    const key = await createKey('test');
    const response = await buyExtract(key.secret, SANDBOX.satisfiedCharges, 'historical', {
      'X-Client-Reference': 'matter 42',
    });
    expect(response.status, response.text).toBe(201);
    const body = response.body as { id: string; clientReference: string; meta: Record<string, unknown> };
    expect(body.meta.billable).toBe(false);
    expect(body.meta.product).toBe('company_extract_historical');
    expect(body.clientReference).toBe('matter 42');
    expect(await registryPurchases(key.accountId)).toBe(0);
    const usage = await usageOf(key.secret);
    expect(usage.data.map((entry) => [entry.billable, entry.feeCode, entry.clientReference])).toStrictEqual([
      [false, null, 'matter 42'],
    ]);
  });

  it('accepts the company by ABN and by its display form with spaces', async () => {
    const key = await createKey('test');
    const byAbn = await buyExtract(key.secret, SANDBOX.abnRecorded, 'current');
    expect(byAbn.status, byAbn.text).toBe(201);
    expect((byAbn.body as unknown as { company: { acn: string } }).company.acn).toBe(SANDBOX.proprietary);
    const spaced = SANDBOX.proprietary.replace(/(\d{3})(\d{3})(\d{3})/, '$1 $2 $3');
    const bySpaces = await buyExtract(key.secret, spaced, 'current');
    expect(bySpaces.status, bySpaces.text).toBe(201);
  });
});

describe('validation happens before the registry is called, and nothing is billed', () => {
  it.each([
    ['bogus', 400, { type: 'invalid_request_error', code: 'extract_type_invalid', param: 'type' }],
    ['HISTORICAL', 400, { type: 'invalid_request_error', code: 'extract_type_invalid', param: 'type' }],
  ])('type %s → %i', async (type, status, expected) => {
    const key = await createKey('live');
    expectError(await buyExtract(key.secret, SANDBOX.proprietary, type), status, expected);
    expect(await registryPurchases(key.accountId)).toBe(0);
    expect((await usageOf(key.secret)).data).toStrictEqual([]);
  });

  it('a missing type, an unknown field, a non-JSON body', async () => {
    const key = await createKey('live');
    const path = `/v1/companies/${SANDBOX.proprietary}/extracts`;
    expectError(
      await call(path, { key: key.secret, method: 'POST', body: {} }),
      422,
      validationError('type'),
    );
    expectError(
      await call(path, { key: key.secret, method: 'POST', body: { type: 'current', extra: 1 } }),
      422,
      validationError('extra'),
    );
    expectError(await call(path, { key: key.secret, method: 'POST', rawBody: '{type' }), 400, {
      type: 'invalid_request_error',
      code: 'invalid_json',
      param: null,
    });
    expect(await registryPurchases(key.accountId)).toBe(0);
  });

  it('X-Client-Reference over 30 characters → 422 on that header', async () => {
    const key = await createKey('live');
    const response = await buyExtract(key.secret, SANDBOX.proprietary, 'current', {
      'X-Client-Reference': 'x'.repeat(31),
    });
    expectError(response, 422, validationError('X-Client-Reference'));
    const ok = await buyExtract(key.secret, SANDBOX.proprietary, 'current', {
      'X-Client-Reference': 'y'.repeat(30),
    });
    expect(ok.status).toBe(201);
    expect(await registryPurchases(key.accountId)).toBe(1);
  });

  it('a bad company number → acn_invalid; an unknown one → company_not_found with CE03, unbilled', async () => {
    const key = await createKey('live');
    expectError(await buyExtract(key.secret, '12345678', 'current'), 400, {
      type: 'invalid_request_error',
      code: 'acn_invalid',
      param: 'id',
    });
    expectError(await buyExtract(key.secret, SANDBOX.unknownNumber, 'current'), 404, {
      type: 'not_found_error',
      code: 'company_not_found',
      param: 'id',
      registryCode: 'CE03',
    });
    expect(await registryPurchases(key.accountId)).toBe(0);
    expect((await usageOf(key.secret)).data).toStrictEqual([]);
  });
});

describe('registry faults', () => {
  it('a maintenance window (ZZ51) → 503 with Retry-After 300, nothing bought or billed', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ51' });
    const response = await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(response.headers.get('retry-after')).toBe('300');
    expect(await registryPurchases(key.accountId)).toBe(0);
    expect((await usageOf(key.secret)).data).toStrictEqual([]);
    expect((await call('/v1/extracts', { key: key.secret })).body).toMatchObject({ data: [] });
  });

  it('an application error (ZZ53) once is retried and bought once; twice → 502, unbilled', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ53', operations: ['company.extract'], times: 1 });
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'current')).status).toBe(201);
    expect(await registryPurchases(key.accountId)).toBe(1);

    await simulator.addFault({ code: 'ZZ53', operations: ['company.extract'], times: 2 });
    expectError(await buyExtract(key.secret, SANDBOX.proprietary, 'current'), 502, {
      type: 'api_error',
      code: 'registry_application_error',
      param: null,
      registryCode: 'ZZ53',
    });
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect((await usageOf(key.secret)).data).toHaveLength(1);
  });

  it('a test key never reaches the registry: the sandbox serves it during a maintenance window', async () => {
    const key = await createKey('test');
    await simulator.addFault({ code: 'ZZ51' });
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'current')).status).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  it('the same key and body → the same status and body, no second registry call, one fee', async () => {
    const key = await createKey('live');
    const idempotencyKey = randomUUID();
    const headers = { 'Idempotency-Key': idempotencyKey, 'X-Client-Reference': 'inv-7' };
    const first = await buyExtract(key.secret, SANDBOX.proprietary, 'historical', headers);
    const again = await buyExtract(key.secret, SANDBOX.proprietary, 'historical', headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    const { meta: firstMeta, ...firstBody } = first.body as Record<string, unknown>;
    const { meta: againMeta, ...againBody } = again.body as Record<string, unknown>;
    expect(againBody).toStrictEqual(firstBody);
    // meta.requestId always equals this response's X-Request-Id; the rest of meta is replayed.
    expect(againMeta).toStrictEqual({
      ...(firstMeta as object),
      requestId: again.headers.get('x-request-id'),
    });
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect((await usageOf(key.secret)).data).toHaveLength(1);
  });

  it('five identical requests at once → one purchase and one fee; the duplicates wait for the first and answer its extract', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID() };
    await simulator.addFault({ latencyMs: 300, operations: ['company.extract'] });
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => buyExtract(key.secret, SANDBOX.proprietary, 'current', headers)),
    );
    expect(responses.map((r) => r.status)).toStrictEqual([201, 201, 201, 201, 201]);
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    // Each answer is its own request's: meta.requestId is its X-Request-Id.
    for (const response of responses) {
      expect((response.body.meta as { requestId: string }).requestId).toBe(
        response.headers.get('x-request-id'),
      );
    }
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect((await usageOf(key.secret)).data).toHaveLength(1);
    // Once the first has finished, a retry gets its result.
    const later = await buyExtract(key.secret, SANDBOX.proprietary, 'current', headers);
    expect(later.status).toBe(201);
    expect(later.body.id).toBe([...ids][0]);
  });

  it('the same key with a different body or path → 409 idempotency_conflict, nothing bought', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID() };
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'current', headers)).status).toBe(201);
    expectError(await buyExtract(key.secret, SANDBOX.proprietary, 'historical', headers), 409, {
      type: 'conflict_error',
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
    expectError(
      await buyExtract(key.secret, SANDBOX.proprietary, 'current', {
        ...headers,
        'X-Client-Reference': 'other',
      }),
      409,
      { type: 'conflict_error', code: 'idempotency_conflict', param: 'Idempotency-Key' },
    );
    expect(await registryPurchases(key.accountId)).toBe(1);
  });

  it('is scoped to the account and environment: another key with the same Idempotency-Key buys its own', async () => {
    const a = await createKey('live');
    const b = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await buyExtract(a.secret, SANDBOX.proprietary, 'current', headers);
    const second = await buyExtract(b.secret, SANDBOX.proprietary, 'current', headers);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(await registryPurchases(b.accountId)).toBe(1);
  });

  it('a failed request keeps nothing: the retry runs (a 503 during maintenance, then 201)', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID() };
    await simulator.addFault({ code: 'ZZ51', times: 1 });
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'current', headers)).status).toBe(503);
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'current', headers)).status).toBe(201);
    expect(await registryPurchases(key.accountId)).toBe(1);
  });

  it('an empty or overlong key → 422 on Idempotency-Key', async () => {
    const key = await createKey('live');
    expectError(
      await buyExtract(key.secret, SANDBOX.proprietary, 'current', { 'Idempotency-Key': 'k'.repeat(256) }),
      422,
      validationError('Idempotency-Key'),
    );
    expect(await registryPurchases(key.accountId)).toBe(0);
  });
});

describe('nothing paid for is lost', () => {
  it('a write that fails once is retried in place: 201, one purchase, one fee', async () => {
    const key = await createKey('live');
    await failNextCommits(1);
    const response = await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    expect(response.status, response.text).toBe(201);
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect((await usageOf(key.secret)).data).toHaveLength(1);
  });

  it('when storing fails after the registry answered, the retry returns the kept result without buying again', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID(), 'X-Client-Reference': 'keep-me' };
    // Three failures: the purchase's own retries of its final write all fail.
    await failNextCommits(3);
    const failed = await buyExtract(key.secret, SANDBOX.satisfiedCharges, 'historical', headers);
    expect(failed.status).toBe(500);
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect((await usageOf(key.secret)).data).toStrictEqual([]);

    const retried = await buyExtract(key.secret, SANDBOX.satisfiedCharges, 'historical', headers);
    expect(retried.status, retried.text).toBe(201);
    expect(await registryPurchases(key.accountId)).toBe(1);
    const body = retried.body as { id: string; clientReference: string; charges: unknown[] };
    expect(body.clientReference).toBe('keep-me');
    expect(body.charges.length).toBeGreaterThan(0);
    const usage = await usageOf(key.secret);
    expect(usage.data.map((entry) => [entry.resourceId, entry.feeCode])).toStrictEqual([[body.id, '955A']]);
    const read = await call<{ id: string }>(`/v1/extracts/${body.id}`, { key: key.secret });
    expect(read.status).toBe(200);
  });
});

describe('purchase headers and path', () => {
  it.each([
    ['Idempotency-Key', 'has space'],
    ['Idempotency-Key', 'clé'],
    ['X-Client-Reference', 'r'.repeat(31)],
  ])('%s %j → 422 validation_error on that header, nothing bought', async (header, value) => {
    const key = await createKey('live');
    expectError(
      await buyExtract(key.secret, SANDBOX.proprietary, 'current', { [header]: value }),
      422,
      validationError(header),
    );
    expect(await registryPurchases(key.accountId)).toBe(0);
  });

  it('an ABN that embeds no ACN → 400 abn_not_acn_based; a bad ABN → 400 abn_invalid; nothing bought', async () => {
    const key = await createKey('live');
    expectError(await buyExtract(key.secret, '51824753556', 'current'), 400, {
      type: 'invalid_request_error',
      code: 'abn_not_acn_based',
      param: 'id',
    });
    expectError(await buyExtract(key.secret, '51824753557', 'current'), 400, {
      type: 'invalid_request_error',
      code: 'abn_invalid',
      param: 'id',
    });
    expect(await registryPurchases(key.accountId)).toBe(0);
  });

  it('takes no query parameters', async () => {
    const key = await createKey('live');
    const response = await call(`/v1/companies/${SANDBOX.proprietary}/extracts?type=current`, {
      key: key.secret,
      method: 'POST',
      body: { type: 'current' },
    });
    expectError(response, 422, validationError('type'));
    expect(await registryPurchases(key.accountId)).toBe(0);
  });
});
