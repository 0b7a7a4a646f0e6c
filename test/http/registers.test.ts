import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_REGISTERS } from '../../shared/registers/adapters/sandbox-data.ts';
import {
  type ApiResponse,
  call,
  clock,
  createKey,
  errorOf,
  expectError,
  type FeeEntryBody,
  failNextCommits,
  registryCalls,
  simulator,
  sweepLater,
  type TestKey,
  validationError,
} from '../support/api.ts';

/**
 * The registers (GET /v1/registers, browse, entry, extract purchase) over real HTTP: test keys reach
 * the sandbox, live keys the registry simulator, whose call log shows what the registry was asked and
 * billed. Every response is checked against docs/openapi.json by the contract check.
 */

type Entry = Record<string, unknown> & { holder: { person: { formatted: string } | null } };
type EntryList = { data: Entry[]; hasMore: boolean; nextCursor: string | null; totalCount: number | null };

const browse = (key: TestKey, register: string, query: Record<string, string>) =>
  call<EntryList>(`/v1/registers/${encodeURIComponent(register)}/entries?${new URLSearchParams(query)}`, {
    key: key.secret,
  });
const entry = (key: TestKey, register: string, number: string) =>
  call<Entry>(`/v1/registers/${encodeURIComponent(register)}/entries/${encodeURIComponent(number)}`, {
    key: key.secret,
  });
const buy = (
  key: TestKey,
  register: string,
  number: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) =>
  call<Record<string, unknown> & { id: string; meta: Record<string, unknown> }>(
    `/v1/registers/${encodeURIComponent(register)}/entries/${encodeURIComponent(number)}/extracts`,
    { key: key.secret, method: 'POST', body, headers },
  );
const usageOf = async (key: TestKey) =>
  (await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: key.secret })).body.data;
const heldRegisterExtracts = async (key: TestKey) =>
  (await call<{ data: { id: string; kind: string }[] }>('/v1/extracts?kind=register', { key: key.secret }))
    .body.data;
const billed = async (key: TestKey) =>
  (await registryCalls(key.accountId, 'register.extract')).filter((c) => c.billed).length;
const registryAsked = async (key: TestKey) =>
  (await simulator.calls()).calls.filter(
    (c) => c.accountId === key.accountId && c.operation.startsWith('register.'),
  ).length;
const numberOf = (row: Record<string, unknown>) =>
  (row.registrationNumber ?? row.licenceNumber ?? row.representativeNumber ?? row.asicIdentifier) as string;

const registerInvalid = { type: 'invalid_request_error', code: 'register_invalid', param: 'register' };
const noMatches = (param: string, registryCode: string) => ({
  type: 'not_found_error',
  code: 'no_matches',
  param,
  registryCode,
  details: { counts: { returned: 0, found: 0 } },
});

afterEach(async () => {
  await simulator.clearFaults();
  await failNextCommits(0);
  await clock.reset();
});

describe('GET /v1/registers', () => {
  it('lists the twelve served registers, free, and keeps answering in a maintenance window', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ51', accountId: key.accountId });
    const response = await call<{ data: Record<string, unknown>[]; totalCount: number; meta: unknown }>(
      '/v1/registers',
      { key: key.secret },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.totalCount).toBe(12);
    expect(response.body.data.map((r) => r.code)).toEqual([
      'RA',
      'RQ',
      'OQ',
      'IA',
      'SD',
      'FB',
      'FD',
      'SP',
      'FP',
      'DD',
      'BS',
      'BF',
    ]);
    expect(response.body.data[9]).toStrictEqual({
      object: 'register',
      code: 'DD',
      label: 'Disqualified Directors',
      family: 'banned-disqualified',
      identifierField: 'asicIdentifier',
      feeCode: '959D',
    });
    expect(response.body.meta).toMatchObject({ billable: false, product: null });
    expect(await registryAsked(key)).toBe(0);
  });
});

describe('browsing a register', () => {
  it.each([['FX'], ['ra'], ['XX'], ['IL']])(
    'register %s → 400 register_invalid, before any registry call',
    async (register) => {
      const key = await createKey('live');
      expectError(await browse(key, register, { browse: 'SMITH' }), 400, registerInvalid);
      expect(await registryAsked(key)).toBe(0);
    },
  );

  it('a key under two characters after trimming → 400 browse_key_too_short; missing or over 100 → 422', async () => {
    const key = await createKey('live');
    const tooShort = { type: 'invalid_request_error', code: 'browse_key_too_short', param: 'browse' };
    expectError(await browse(key, 'RQ', { browse: SANDBOX_REGISTERS.browse.tooShort }), 400, tooShort);
    expectError(await browse(key, 'RQ', { browse: '  K ' }), 400, tooShort);
    expectError(await browse(key, 'RQ', {}), 422, validationError('browse'));
    expectError(await browse(key, 'RQ', { browse: 'A'.repeat(101) }), 422, validationError('browse'));
    expectError(await browse(key, 'RQ', { browse: 'SMITH', limit: '101' }), 422, validationError('limit'));
    expect(await registryAsked(key)).toBe(0);
  });

  it.each([
    ['test', 'RQ', 'RP51'],
    ['live', 'RQ', 'RP51'],
    ['live', 'FP', 'RR51'],
    ['live', 'BF', 'RB51'],
  ] as const)(
    '%s key, %s, no name beginning ZZ → 404 no_matches (%s) with counts',
    async (env, register, code) => {
      const key = await createKey(env);
      expectError(
        await browse(key, register, { browse: SANDBOX_REGISTERS.browse.none }),
        404,
        noMatches('browse', code),
      );
    },
  );

  it.each(['test', 'live'] as const)(
    '%s key: SM pages past 100 in name order, totalCount null; the last page has no cursor',
    async (env) => {
      const key = await createKey(env);
      const first = await browse(key, 'RQ', { browse: 'sm', limit: '100' });
      expect(first.status, first.text).toBe(200);
      expect([first.body.data.length, first.body.hasMore, first.body.totalCount]).toEqual([100, true, null]);
      const second = await browse(key, 'RQ', {
        browse: 'sm',
        limit: '100',
        cursor: first.body.nextCursor as string,
      });
      expect(second.status, second.text).toBe(200);
      expect([second.body.data.length, second.body.hasMore, second.body.nextCursor]).toEqual([
        50,
        false,
        null,
      ]);
      const names = [...first.body.data, ...second.body.data].map((row) => row.holder.person?.formatted);
      expect(new Set(names).size).toBe(SANDBOX_REGISTERS.browse.smithCount);
      const sortKeys = [...first.body.data, ...second.body.data].map((row) => {
        const person = row.holder.person as unknown as { familyName: string; givenNames: string[] };
        return [person.familyName, ...person.givenNames].join(' ');
      });
      expect(sortKeys).toEqual([...sortKeys].sort());
    },
  );

  it('a cursor continues only the same register, key and caller: otherwise 400 validation_error on cursor', async () => {
    const key = await createKey('test');
    const other = await createKey('test');
    const first = await browse(key, 'RQ', { browse: 'SMITH', limit: '10' });
    const cursor = first.body.nextCursor as string;
    const cursorError = { type: 'invalid_request_error', code: 'validation_error', param: 'cursor' };
    expectError(await browse(key, 'RQ', { browse: 'SMIT', cursor }), 400, cursorError);
    expectError(await browse(key, 'OQ', { browse: 'SMITH', cursor }), 400, cursorError);
    expectError(await browse(other, 'RQ', { browse: 'SMITH', cursor }), 400, cursorError);
    const next = await browse(key, 'RQ', { browse: 'SMITH', limit: '10', cursor });
    expect(next.status).toBe(200);
    expect(next.body.data.map(numberOf)).not.toContain(numberOf(first.body.data[0] as Entry));
  });

  it("matches names as the people search does: case and apostrophes ignored (O'BRIEN = OBRIEN = o’brien)", async () => {
    const key = await createKey('test');
    for (const browseKey of ["O'BRIEN", 'OBRIEN', 'o’brien']) {
      const response = await browse(key, 'RA', { browse: browseKey });
      expect(response.status, response.text).toBe(200);
      expect(response.body.data.map(numberOf)).toEqual([SANDBOX_REGISTERS.apostrophe.number]);
    }
  });

  it('every row carries the number its entry lookup needs, and the lookup answers the same row', async () => {
    const key = await createKey('test');
    for (const [register, name] of [
      ['RQ', 'KOWALSKI'],
      ['RA', 'LEDGERLINE'],
      ['SD', 'HARBOURSIDE'],
      ['SP', 'LIM'],
      ['DD', 'DRAKE'],
      ['BS', 'FAIRWEATHER'],
    ]) {
      const page = await browse(key, register as string, { browse: name as string });
      expect(page.status, page.text).toBe(200);
      const row = page.body.data[0] as Entry;
      const looked = await entry(key, register as string, numberOf(row));
      expect(looked.status, looked.text).toBe(200);
      const { meta: _meta, ...shown } = looked.body;
      expect(shown).toStrictEqual(row);
    }
  });
});

describe('a register entry', () => {
  it('RQ 401234: the liquidator KOWALSKI, whose person extract lists the same licence number', async () => {
    const key = await createKey('test');
    const response = await entry(key, 'RQ', '401 234');
    expect(response.status, response.text).toBe(200);
    expect(response.body).toStrictEqual({
      object: 'registerEntry',
      register: { code: 'RQ', label: 'Registered Liquidators' },
      family: 'professional',
      registrationNumber: '401234',
      holder: {
        type: 'person',
        person: { familyName: 'KOWALSKI', givenNames: ['ANNA', 'MARIA'], formatted: 'ANNA MARIA KOWALSKI' },
        birth: null,
        organisation: null,
      },
      status: { code: 'C', label: 'Current' },
      licenceStatus: null,
      from: '1995-02-01',
      to: null,
      principal: null,
      bans: null,
      address: { locality: 'BRISBANE', state: 'QLD', postcode: '4000' },
      meta: { billable: false, product: null, requestId: response.headers.get('x-request-id') },
    });
  });

  it('exactly one identifier field per family; an organisation holder; a suspended liquidator', async () => {
    const key = await createKey('live');
    const auditCompany = await entry(key, 'RA', SANDBOX_REGISTERS.auditCompany.number);
    expect(auditCompany.body).toMatchObject({
      registrationNumber: '301988',
      holder: { type: 'organisation', person: null, organisation: { name: 'LEDGERLINE AUDIT PTY LTD' } },
    });
    const revoked = await entry(key, 'IA', SANDBOX_REGISTERS.revokedLicence.number);
    expect(revoked.body).toMatchObject({
      licenceNumber: '000087731',
      licenceStatus: { code: 'NOAC' },
      to: '2003-05-16',
    });
    expect(revoked.body).not.toHaveProperty('registrationNumber');
    const representative = await entry(key, 'SP', SANDBOX_REGISTERS.representative.number);
    expect(representative.body).toMatchObject({
      family: 'authorised-representatives',
      representativeNumber: '000245990',
      principal: { name: 'HARBOURSIDE SECURITIES LIMITED', licenceNumber: '000113245' },
    });
    const suspended = await entry(key, 'RQ', SANDBOX_REGISTERS.suspendedLiquidator.number);
    expect(suspended.body.status).toStrictEqual({ code: 'S', label: 'Suspended' });
    const official = await entry(key, 'OQ', SANDBOX_REGISTERS.officialLiquidator.officialNumber);
    expect(official.body).toMatchObject({
      registrationNumber: '512001',
      holder: { person: { familyName: 'NGUYEN' } },
    });
  });

  it('a banned person is one subject with every ban; either of its numbers finds it', async () => {
    const key = await createKey('test');
    const drake = await entry(key, 'DD', SANDBOX_REGISTERS.disqualified.number);
    expect(drake.status, drake.text).toBe(200);
    expect(drake.body).toMatchObject({
      family: 'banned-disqualified',
      asicIdentifier: '000312440',
      status: null,
    });
    expect(
      (drake.body.bans as { to: string | null; status: { code: string } }[]).map((b) => [
        b.to,
        b.status.code,
      ]),
    ).toEqual([
      ['2031-05-31', 'C'],
      ['2012-01-14', 'E'],
    ]);
    const earlier = await entry(key, 'DD', SANDBOX_REGISTERS.disqualified.earlierNumber);
    expect(earlier.body.asicIdentifier).toBe('000312440');
    const crowe = await entry(key, 'DD', SANDBOX_REGISTERS.openEndedBan.number);
    expect((crowe.body.bans as Record<string, unknown>[])[0]).toMatchObject({
      to: null,
      legislation: { code: '0001', label: 'Companies Act' },
    });
    const fairweather = await entry(key, 'BF', SANDBOX_REGISTERS.bannedFutures.number);
    expect((fairweather.body.bans as Record<string, unknown>[])[0]).toMatchObject({
      type: { code: 'BFC' },
      to: '2011-03-31',
      status: { code: 'E' },
    });
  });

  it('bad register, bad number, unknown number', async () => {
    const key = await createKey('live');
    expectError(await entry(key, 'rq', '401234'), 400, registerInvalid);
    expectError(await entry(key, 'RQ', '12345678X'), 422, validationError('number'));
    expectError(await entry(key, 'RQ', '1234567890'), 422, validationError('number'));
    expect(await registryAsked(key)).toBe(0);
    expectError(await entry(key, 'RQ', SANDBOX_REGISTERS.unknownNumber), 404, noMatches('number', 'RQ51'));
  });
});

describe('buying a register extract', () => {
  it('with a test key: 201, not billed, stored 12 months, read back free by id and in the register list', async () => {
    const key = await createKey('test');
    const bought = await buy(key, 'RQ', '401234', { history: true }, { 'X-Client-Reference': 'screening-1' });
    expect(bought.status, bought.text).toBe(201);
    const body = bought.body;
    expect(body).toMatchObject({
      object: 'extract',
      kind: 'register',
      type: 'historical',
      clientReference: 'screening-1',
    });
    expect(body.meta).toStrictEqual({
      billable: false,
      product: 'register_extract',
      requestId: bought.headers.get('x-request-id'),
    });
    const expiresAt = new Date(Date.parse(body.purchasedAt as string));
    expiresAt.setUTCMonth(expiresAt.getUTCMonth() + 12);
    expect(body.expiresAt).toBe(`${expiresAt.toISOString().slice(0, 19)}Z`);
    const entryBody = body.entry as Record<
      string,
      { type: { code: string }; status: { code: string } }[] | null
    >;
    expect(entryBody.addresses?.map((a) => [a.type.code, a.status.code])).toEqual([
      ['PS', 'C'],
      ['PA', 'C'],
      ['OP', 'C'],
      ['OP', 'E'],
    ]);
    expect(entryBody.trading?.map((t) => t.type.code)).toEqual(['FI']);
    const read = await call<Record<string, unknown>>(`/v1/extracts/${body.id}`, { key: key.secret });
    expect(read.status, read.text).toBe(200);
    const { meta: _bought, ...boughtBody } = body;
    const { meta: readMeta, ...readBody } = read.body;
    expect(readBody).toStrictEqual(boughtBody);
    expect(readMeta).toMatchObject({ billable: false, product: null });
    expect((await heldRegisterExtracts(key)).map((e) => e.id)).toEqual([body.id]);
    expect((await usageOf(key)).map((fee) => [fee.product, fee.feeCode, fee.billable])).toEqual([
      ['register_extract', null, false],
    ]);
  });

  it.each([
    ['RA', SANDBOX_REGISTERS.auditor.number, '959A'],
    ['RQ', SANDBOX_REGISTERS.liquidator.number, '959B'],
    ['OQ', SANDBOX_REGISTERS.officialLiquidator.officialNumber, '959C'],
    ['DD', SANDBOX_REGISTERS.disqualified.number, '959D'],
    ['IA', SANDBOX_REGISTERS.revokedLicence.number, '959E'],
    ['SP', SANDBOX_REGISTERS.representative.number, '959G'],
    ['BS', SANDBOX_REGISTERS.bannedSecurities.number, '959I'],
    ['BF', SANDBOX_REGISTERS.bannedFutures.number, '959J'],
  ])('with a live key, %s %s is billed once with fee code %s', async (register, number, feeCode) => {
    const key = await createKey('live');
    const bought = await buy(key, register, number);
    expect(bought.status, bought.text).toBe(201);
    expect(bought.body.meta).toMatchObject({ billable: true, product: 'register_extract' });
    expect(await billed(key)).toBe(1);
    expect(
      (await usageOf(key)).map((fee) => [fee.product, fee.feeCode, fee.billable, fee.resourceId]),
    ).toEqual([['register_extract', feeCode, true, bought.body.id]]);
  });

  it('the sections of each family: officers and legislation of a dealer, authorities of a representative, bans with comments', async () => {
    const key = await createKey('test');
    const dealer = (await buy(key, 'SD', SANDBOX_REGISTERS.dealer.number, { history: true })).body
      .entry as Record<string, unknown>;
    expect((dealer.officers as { role: { code: string } }[]).map((o) => o.role.code)).toEqual([
      'DR',
      'SR',
      'EO',
    ]);
    expect(dealer.legislation).toStrictEqual({ code: '0002', label: expect.any(String) });
    expect(dealer.authorities).toBeNull();
    const current = (await buy(key, 'SP', SANDBOX_REGISTERS.representative.number)).body.entry as Record<
      string,
      unknown
    >;
    expect((current.authorities as { type: { code: string } }[]).map((a) => a.type.code)).toEqual(['RS']);
    expect((current.addresses as { type: { code: string } }[]).map((a) => a.type.code)).toEqual(['PA', 'RB']);
    expect(current.trading).toBeNull();
    const crowe = (await buy(key, 'DD', SANDBOX_REGISTERS.openEndedBan.number)).body.entry as Record<
      string,
      unknown
    >;
    expect((crowe.bans as { comments: string | null }[])[0]?.comments).toBe(
      'Order of the Supreme Court of Victoria',
    );
    expect(crowe.holder).toMatchObject({ birth: { date: '1941-07-19' } });
    expect(crowe.suspensions).toBeNull();
    const brandt = (await buy(key, 'RQ', SANDBOX_REGISTERS.suspendedLiquidator.number)).body.entry as Record<
      string,
      unknown
    >;
    expect((brandt.suspensions as { reason: unknown }[]).map((s) => s.reason)).toEqual([
      { code: 'INCA', label: expect.any(String) },
      { code: 'XPRV', label: 'XPRV' },
    ]);
  });

  it('refused before the registry: register, number, history, unknown fields; nothing bought', async () => {
    const key = await createKey('live');
    expectError(await buy(key, 'FX', '401234'), 400, registerInvalid);
    expectError(await buy(key, 'RQ', 'abc'), 422, validationError('number'));
    expectError(await buy(key, 'RQ', '401234', { history: 'yes' }), 422, validationError('history'));
    expectError(await buy(key, 'RQ', '401234', { type: 'current' }), 422, validationError('type'));
    expectError(
      await buy(key, 'RQ', '401234', {}, { 'X-Client-Reference': 'x'.repeat(31) }),
      422,
      validationError('X-Client-Reference'),
    );
    expect(await registryAsked(key)).toBe(0);
    expectError(await buy(key, 'RQ', SANDBOX_REGISTERS.unknownNumber), 404, noMatches('number', 'RS51'));
    expect(await billed(key)).toBe(0);
    expect(await usageOf(key)).toStrictEqual([]);
    expect(await heldRegisterExtracts(key)).toStrictEqual([]);
  });

  it('product RE disabled (ZZ02) → 403 product_not_enabled; a registry RS02 → 400 extract_type_invalid; nothing billed', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ02', operations: ['register.extract'], accountId: key.accountId });
    expectError(await buy(key, 'RQ', '401234'), 403, {
      type: 'permission_error',
      code: 'product_not_enabled',
      param: null,
      registryCode: 'ZZ02',
    });
    await simulator.clearFaults();
    await simulator.addFault({
      code: 'RS02',
      operations: ['register.extract'],
      accountId: key.accountId,
      times: 1,
    });
    expectError(await buy(key, 'RQ', '401234'), 400, {
      type: 'invalid_request_error',
      code: 'extract_type_invalid',
      param: 'history',
      registryCode: 'RS02',
    });
    expect(await billed(key)).toBe(0);
    expect(await usageOf(key)).toStrictEqual([]);
  });

  it('a maintenance window (ZZ51) → 503 Retry-After 300; browse and entry too; nothing billed', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ51', accountId: key.accountId });
    const unavailable = {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    };
    const bought = await buy(key, 'RQ', '401234');
    expectError(bought, 503, unavailable);
    expect(bought.headers.get('retry-after')).toBe('300');
    expectError(await browse(key, 'RQ', { browse: 'SMITH' }), 503, unavailable);
    expectError(await entry(key, 'RQ', '401234'), 503, unavailable);
    expect(await usageOf(key)).toStrictEqual([]);
  });
});

describe('Idempotency-Key and exactly once', () => {
  it('the same key and body → the same extract, one registry purchase, one fee; another body → 409', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID(), 'X-Client-Reference': 'inv-9' };
    const first = await buy(key, 'DD', '000312440', { history: true }, headers);
    const again = await buy(key, 'DD', '000312440', { history: true }, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    const { meta: _a, ...firstBody } = first.body;
    const { meta: againMeta, ...againBody } = again.body;
    expect(againBody).toStrictEqual(firstBody);
    expect(againMeta).toStrictEqual({ ...first.body.meta, requestId: again.headers.get('x-request-id') });
    expectError(await buy(key, 'DD', '000312440', { history: false }, headers), 409, {
      type: 'conflict_error',
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
    expect(await billed(key)).toBe(1);
    expect(await usageOf(key)).toHaveLength(1);
  });

  it('five identical requests at once → one purchase and one fee; the others are 409 or the replay', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID() };
    await simulator.addFault({ latencyMs: 300, operations: ['register.extract'], accountId: key.accountId });
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => buy(key, 'RQ', '401234', {}, headers)),
    );
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(new Set(responses.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
    expect(await billed(key)).toBe(1);
    expect(await usageOf(key)).toHaveLength(1);
  });

  it.each([
    ['dropped', 'disconnect'],
    ['garbled', 'non-json'],
  ] as const)('an answer %s once: asked again with the same client key, billed once', async (_, response) => {
    const key = await createKey('live');
    await simulator.addFault({
      response,
      operations: ['register.extract'],
      times: 1,
      accountId: key.accountId,
    });
    const bought = await buy(key, 'RQ', '401234');
    expect(bought.status, bought.text).toBe(201);
    const calls = await registryCalls(key.accountId, 'register.extract');
    expect(calls.map((c) => [c.billed, c.repeated])).toStrictEqual([
      [true, false],
      [false, true],
    ]);
    expect(calls[1]?.clientKey).toBe(calls[0]?.clientKey);
    expect((await usageOf(key)).map((fee) => fee.resourceId)).toStrictEqual([bought.body.id]);
  });

  it('lost twice: 503 that never says nothing was charged; the retry with the same key gets it, one fee', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID() };
    await simulator.addFault({
      response: 'disconnect',
      operations: ['register.extract'],
      times: 2,
      accountId: key.accountId,
    });
    const lost = await buy(key, 'RQ', '401234', {}, headers);
    expectError(lost, 503, { type: 'registry_unavailable_error', code: 'registry_unavailable', param: null });
    expect(errorOf(lost).message).toMatch(/not known/);
    expect(await billed(key)).toBe(1);
    const retried = await buy(key, 'RQ', '401234', {}, headers);
    expect(retried.status, retried.text).toBe(201);
    expect(await billed(key)).toBe(1);
    await sweepLater();
    expect((await usageOf(key)).map((fee) => fee.resourceId)).toStrictEqual([retried.body.id]);
    expect((await heldRegisterExtracts(key)).map((e) => e.id)).toStrictEqual([retried.body.id]);
  });

  it('lost twice and never retried: the sweeper records the register extract the registry billed, once', async () => {
    const key = await createKey('live');
    await simulator.addFault({
      response: 'disconnect',
      operations: ['register.extract'],
      times: 2,
      accountId: key.accountId,
    });
    const lost: ApiResponse<unknown> = await buy(
      key,
      'BS',
      '000150921',
      {},
      { 'X-Client-Reference': 'lost-reg' },
    );
    expect(lost.status).toBe(503);
    expect(await heldRegisterExtracts(key)).toStrictEqual([]);
    expect((await sweepLater()).committed).toBeGreaterThanOrEqual(1);
    const [held] = await heldRegisterExtracts(key);
    expect(held?.kind).toBe('register');
    expect(
      (await usageOf(key)).map((fee) => [fee.resourceId, fee.feeCode, fee.clientReference]),
    ).toStrictEqual([[held?.id, '959I', 'lost-reg']]);
    const read = await call<{ entry: { bans: unknown[] } }>(`/v1/extracts/${held?.id}`, { key: key.secret });
    expect(read.status, read.text).toBe(200);
    expect(read.body.entry.bans).toHaveLength(1);
    await sweepLater();
    expect(await usageOf(key)).toHaveLength(1);
    expect(await billed(key)).toBe(1);
  });

  it('our commit fails three times: 500; the retry with the same key commits the kept answer without buying again', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID() };
    await failNextCommits(3);
    expect((await buy(key, 'RA', '301122', {}, headers)).status).toBe(500);
    expect(await usageOf(key)).toStrictEqual([]);
    const retried = await buy(key, 'RA', '301122', {}, headers);
    expect(retried.status, retried.text).toBe(201);
    expect(await billed(key)).toBe(1);
    expect((await usageOf(key)).map((fee) => [fee.resourceId, fee.feeCode])).toStrictEqual([
      [retried.body.id, '959A'],
    ]);
  });

  it('our commit fails and nobody retries: the sweeper commits the stored answer', async () => {
    const key = await createKey('live');
    await failNextCommits(3);
    expect((await buy(key, 'RA', '301122')).status).toBe(500);
    await sweepLater();
    expect(await heldRegisterExtracts(key)).toHaveLength(1);
    expect(await usageOf(key)).toHaveLength(1);
    expect(await billed(key)).toBe(1);
  });
});
