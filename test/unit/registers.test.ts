/**
 * The register use cases against in-memory fakes (Prepare / Act / Assess): the register list, the
 * request rules before any registry call, browse pages and their cursors, entries of every family,
 * and the extract purchase exactly once (a lost answer, a failed commit, the sweeper).
 */
import { describe, expect, it } from 'vitest';
import { presentHeldExtract } from '../../shared/app/present-extract.ts';
import { reconcilePurchases, UNSETTLED_AFTER_MS } from '../../shared/app/reconcile-purchases.ts';
import type { Registry } from '../../shared/app/registry.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import { sandboxDataset } from '../../shared/composition/registry/sandbox.ts';
import type { Owner } from '../../shared/kernel/api-keys.ts';
import { CursorCodec } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { check } from '../../shared/kernel/http/request.ts';
import type { RegistryCaller } from '../../shared/kernel/registry-port.ts';
import { SANDBOX_REGISTERS } from '../../shared/registers/adapters/sandbox-data.ts';
import { browseRegister } from '../../shared/registers/browse.ts';
import { getRegisterEntry } from '../../shared/registers/entry.ts';
import { listRegisters } from '../../shared/registers/list.ts';
import { purchaseRegisterExtract, type RegisterPurchaseInput } from '../../shared/registers/purchase.ts';
import { browseQuery } from '../../shared/registers/schemas.ts';
import { extractRoles, KeyedRegistry, MemoryExtractStore } from '../support/fakes.ts';

const NOW = new Date('2026-11-25T10:00:00Z');
const live: Owner = { accountId: 'acct_unit', environment: 'live' };
const caller: RegistryCaller = { accountId: 'acct_unit', requestId: 'req_unit' };

/** A registry that counts the register calls it is asked, in front of the sandbox. */
function countingRegistry() {
  const inner = new DatasetRegistry(sandboxDataset(), () => NOW) as unknown as Registry;
  const calls: string[] = [];
  const registry = new Proxy(inner, {
    get: (target, property, receiver) => {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return value.apply(target, args);
      };
    },
  });
  return { registry, calls };
}

const cursors = new CursorCodec(async () => 'unit-signing-key', { now: () => NOW });

async function apiError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, param, status, registryCode, details } = error as ApiError;
    return { code, param, status, registryCode, details };
  }
  throw new Error('expected an ApiError');
}

const browse = (
  registry: Registry,
  register: string,
  key: string,
  options: { limit?: number; cursor?: string; owner?: Owner } = {},
) =>
  browseRegister({
    register,
    browse: key,
    limit: options.limit ?? 20,
    cursor: options.cursor,
    route: 'BrowseRegister',
    owner: options.owner ?? live,
    caller,
    registry,
    cursors,
  });

describe('the register list', () => {
  it('lists the twelve served registers with family, identifier field and fee code, FX/IF/IG/IL left out', () => {
    const list = listRegisters();
    expect(list.totalCount).toBe(12);
    expect(list.hasMore).toBe(false);
    expect(
      list.data.map((register) => [
        register.code,
        register.family,
        register.identifierField,
        register.feeCode,
      ]),
    ).toEqual([
      ['RA', 'professional', 'registrationNumber', '959A'],
      ['RQ', 'professional', 'registrationNumber', '959B'],
      ['OQ', 'professional', 'registrationNumber', '959C'],
      ['IA', 'professional', 'licenceNumber', '959E'],
      ['SD', 'professional', 'licenceNumber', '959E'],
      ['FB', 'professional', 'licenceNumber', '959F'],
      ['FD', 'professional', 'licenceNumber', '959F'],
      ['SP', 'authorised-representatives', 'representativeNumber', '959G'],
      ['FP', 'authorised-representatives', 'representativeNumber', '959H'],
      ['DD', 'banned-disqualified', 'asicIdentifier', '959D'],
      ['BS', 'banned-disqualified', 'asicIdentifier', '959I'],
      ['BF', 'banned-disqualified', 'asicIdentifier', '959J'],
    ]);
    expect(list.data[1]).toEqual({
      object: 'register',
      code: 'RQ',
      label: 'Registered Liquidators',
      family: 'professional',
      identifierField: 'registrationNumber',
      feeCode: '959B',
    });
  });
});

describe('browsing a register', () => {
  it('refuses a bad register (case-sensitive) and a short key before asking the registry', async () => {
    const { registry, calls } = countingRegistry();
    for (const register of ['FX', 'ra', 'XX', '']) {
      expect(await apiError(browse(registry, register, 'SMITH'))).toMatchObject({
        code: 'register_invalid',
        param: 'register',
        status: 400,
        registryCode: null,
      });
    }
    // The request's schema refuses a short key (the use case is never called with one).
    expect(await apiError((async () => check(browseQuery, { browse: ' K  ' }, 'query'))())).toMatchObject({
      code: 'browse_key_too_short',
      param: 'browse',
      status: 400,
    });
    expect(await apiError(browse(registry, 'RQ', 'A'.repeat(101)))).toMatchObject({
      code: 'validation_error',
      param: 'browse',
      status: 422,
    });
    expect(calls).toEqual([]);
  });

  it('no entry → 404 no_matches with counts and the registry code of the family', async () => {
    const { registry } = countingRegistry();
    expect(await apiError(browse(registry, 'RQ', 'ZZ'))).toEqual({
      code: 'no_matches',
      param: 'browse',
      status: 404,
      registryCode: 'RP51',
      details: { counts: { returned: 0, found: 0 } },
    });
    expect((await apiError(browse(registry, 'SP', 'ZZ'))).registryCode).toBe('RR51');
    expect((await apiError(browse(registry, 'DD', 'ZZ'))).registryCode).toBe('RB51');
  });

  it('pages SM past 100 matches in name order with a null total; a changed key is refused on cursor', async () => {
    const { registry } = countingRegistry();
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await browse(registry, 'RQ', 'SM', { limit: 100, ...(cursor ? { cursor } : {}) });
      expect(page.totalCount).toBeNull();
      for (const entry of page.data)
        names.push((entry.holder.person as { familyName: string; formatted: string }).formatted);
      cursor = page.nextCursor ?? undefined;
      expect(page.hasMore).toBe(cursor !== undefined);
      pages += 1;
    } while (cursor);
    expect(pages).toBe(2);
    expect(names).toHaveLength(SANDBOX_REGISTERS.browse.smithCount);
    const first = await browse(registry, 'RQ', 'SM', { limit: 5 });
    expect(
      await apiError(browse(registry, 'RQ', 'SMITH', { cursor: first.nextCursor as string })),
    ).toMatchObject({
      code: 'validation_error',
      param: 'cursor',
      status: 400,
    });
    expect(
      await apiError(browse(registry, 'OQ', 'SM', { cursor: first.nextCursor as string })),
    ).toMatchObject({
      param: 'cursor',
      status: 400,
    });
    const other: Owner = { accountId: 'acct_other', environment: 'live' };
    expect(
      await apiError(browse(registry, 'RQ', 'SM', { cursor: first.nextCursor as string, owner: other })),
    ).toMatchObject({
      param: 'cursor',
      status: 400,
    });
    const second = await browse(registry, 'RQ', 'SM', { limit: 5, cursor: first.nextCursor as string });
    expect(second.data[0]).not.toEqual(first.data[0]);
  });

  it("ignores case and apostrophes: o'brien, OBRIEN and O’Brien find the same auditor", async () => {
    const { registry } = countingRegistry();
    for (const key of ["o'brien", 'OBRIEN', 'O’Brien']) {
      const page = await browse(registry, 'RA', key);
      expect(page.data.map((entry) => (entry as { registrationNumber?: string }).registrationNumber)).toEqual(
        [SANDBOX_REGISTERS.apostrophe.number],
      );
    }
  });
});

describe('a register entry', () => {
  it('has exactly the identifier field of its register and a Party holder', async () => {
    const { registry } = countingRegistry();
    const entry = await getRegisterEntry({ register: 'RA', number: '301988', caller, registry });
    expect(entry).toMatchObject({
      object: 'registerEntry',
      register: { code: 'RA', label: 'Registered Auditors' },
      family: 'professional',
      registrationNumber: '301988',
      holder: { type: 'organisation', person: null, birth: null },
      status: { code: 'C', label: 'Current' },
      licenceStatus: null,
      bans: null,
      address: { locality: 'PERTH', state: 'WA', postcode: '6000' },
    });
    const fields = (value: object) =>
      Object.keys(value).filter((key) =>
        ['registrationNumber', 'licenceNumber', 'representativeNumber', 'asicIdentifier'].includes(key),
      );
    expect(fields(entry)).toEqual(['registrationNumber']);
    const dealer = await getRegisterEntry({ register: 'IA', number: '000087731', caller, registry });
    expect(fields(dealer)).toEqual(['licenceNumber']);
    expect(dealer.licenceStatus).toEqual({ code: 'NOAC', label: expect.any(String) });
    const representative = await getRegisterEntry({ register: 'SP', number: '000245990', caller, registry });
    expect(fields(representative)).toEqual(['representativeNumber']);
    expect(representative.principal).toEqual({
      name: 'HARBOURSIDE SECURITIES LIMITED',
      licenceNumber: '000113245',
    });
  });

  it('a banned person is one subject with every ban, found by either number', async () => {
    const { registry } = countingRegistry();
    const drake = await getRegisterEntry({ register: 'DD', number: '000312440', caller, registry });
    expect(drake.asicIdentifier).toBe('000312440');
    expect(drake.status).toBeNull();
    expect(drake.bans?.map((ban) => [ban.from, ban.to, ban.status.code])).toEqual([
      ['2021-06-01', '2031-05-31', 'C'],
      ['2009-01-15', '2012-01-14', 'E'],
    ]);
    const byEarlier = await getRegisterEntry({ register: 'DD', number: '000198032', caller, registry });
    expect(byEarlier).toEqual(drake);
    const crowe = await getRegisterEntry({ register: 'DD', number: '000051207', caller, registry });
    expect(crowe.bans?.[0]).toEqual({
      type: null,
      from: '1989-05-01',
      to: null,
      status: { code: 'C', label: 'Current' },
      documentNumber: expect.stringMatching(/^9R\d{7}$/),
      legislation: { code: '0001', label: 'Companies Act' },
    });
  });

  it('bad register, bad number and unknown number', async () => {
    const { registry, calls } = countingRegistry();
    expect(
      await apiError(getRegisterEntry({ register: 'rq', number: '401234', caller, registry })),
    ).toMatchObject({
      code: 'register_invalid',
      param: 'register',
    });
    for (const number of ['12345678X', '1234567890', '', '-1']) {
      expect(await apiError(getRegisterEntry({ register: 'RQ', number, caller, registry }))).toMatchObject({
        code: 'validation_error',
        param: 'number',
        status: 422,
      });
    }
    expect(calls).toEqual([]);
    expect(
      await apiError(getRegisterEntry({ register: 'RQ', number: '999 999 999', caller, registry })),
    ).toEqual({
      code: 'no_matches',
      param: 'number',
      status: 404,
      registryCode: 'RQ51',
      details: { counts: { returned: 0, found: 0 } },
    });
  });
});

describe('buying a register extract', () => {
  function prepare() {
    const keyed = new KeyedRegistry(new DatasetRegistry(sandboxDataset(), () => NOW));
    return { keyed, registry: keyed.registry, store: new MemoryExtractStore() };
  }
  const purchase = (world: ReturnType<typeof prepare>, overrides: Partial<RegisterPurchaseInput> = {}) =>
    purchaseRegisterExtract({
      register: 'RQ',
      number: '401234',
      history: false,
      owner: live,
      requestId: 'req_1',
      clientReference: null,
      recoveryKey: undefined,
      now: NOW,
      registry: world.registry,
      ...extractRoles(world.store),
      ...overrides,
    });

  it('stores and bills one extract with the register fee code; current leaves out ceased records', async () => {
    const world = prepare();
    const bought = await purchase(world);
    const body = bought.body as Record<string, unknown> & { entry: Record<string, unknown> };
    expect([bought.billable, bought.product]).toEqual([true, 'register_extract']);
    expect(body).toMatchObject({ object: 'extract', kind: 'register', type: 'current' });
    expect((body.subject as { registrationNumber: string }).registrationNumber).toBe('401234');
    const addresses = body.entry.addresses as { type: { code: string }; status: { code: string } }[];
    expect(addresses.map((a) => [a.type.code, a.status.code])).toEqual([
      ['PS', 'C'],
      ['PA', 'C'],
      ['OP', 'C'],
    ]);
    expect(body.entry.trading).toEqual([
      { type: { code: 'FI', label: 'Firm' }, name: 'KOWALSKI INSOLVENCY PARTNERS', number: null },
    ]);
    expect(body.entry.authorities).toBeNull();
    expect(body.entry.bans).toBeNull();
    expect([...world.store.fees.values()].map((fee) => [fee.product, fee.feeCode, fee.billable])).toEqual([
      ['register_extract', '959B', true],
    ]);
    const historical = await purchase(world, { history: true, requestId: 'req_2' });
    const past = (
      historical.body as { entry: { addresses: { type: { code: string }; status: { code: string } }[] } }
    ).entry.addresses;
    expect(past.map((a) => [a.type.code, a.status.code])).toEqual([
      ['PS', 'C'],
      ['PA', 'C'],
      ['OP', 'C'],
      ['OP', 'E'],
    ]);
    expect(world.keyed.billed).toHaveLength(2);
    // Read back as GET /v1/extracts/{id} shows it.
    const stored = await world.store.getExtract((bought.body as { id: string }).id);
    const read = { store: world.store, cursors, owner: live };
    expect(await presentHeldExtract(stored as NonNullable<typeof stored>, read)).toEqual(bought.body);
  });

  it('test keys are recorded without a fee code; the sections of each family', async () => {
    const world = prepare();
    const test: Owner = { accountId: 'acct_unit', environment: 'test' };
    const drake = await purchase(world, { register: 'DD', number: '000312440', owner: test });
    expect(drake.billable).toBe(false);
    const entry = (drake.body as { entry: Record<string, unknown> }).entry;
    expect(entry.holder).toMatchObject({ birth: { date: '1958-02-14' } });
    expect(entry.suspensions).toBeNull();
    expect(entry.trading).toBeNull();
    expect((entry.bans as unknown[]).length).toBe(2);
    const brandt = await purchase(world, { register: 'RQ', number: '403377', owner: test, history: true });
    const reasons = (
      brandt.body as { entry: { suspensions: { reason: { code: string; label: string } }[] } }
    ).entry.suspensions.map((s) => s.reason);
    expect(reasons).toContainEqual({ code: 'XPRV', label: 'XPRV' });
    const lim = await purchase(world, { register: 'SP', number: '000245990', owner: test, history: true });
    const authorities = (
      lim.body as { entry: { authorities: { type: { code: string }; to: string | null }[] } }
    ).entry.authorities;
    expect(authorities.map((a) => [a.type.code, a.to])).toEqual([
      ['RS', null],
      ['RI', '2001-06-30'],
    ]);
    expect([...world.store.fees.values()].map((fee) => [fee.feeCode, fee.billable])).toEqual([
      [null, false],
      [null, false],
      [null, false],
    ]);
  });

  it('refuses before the registry: register, number; RS51 unknown; nothing recorded', async () => {
    const world = prepare();
    expect(await apiError(purchase(world, { register: 'IL' }))).toMatchObject({
      code: 'register_invalid',
      param: 'register',
    });
    expect(await apiError(purchase(world, { number: 'abc' }))).toMatchObject({
      code: 'validation_error',
      param: 'number',
    });
    expect(world.keyed.calls).toEqual([]);
    expect(await apiError(purchase(world, { number: '999999999' }))).toMatchObject({
      code: 'no_matches',
      param: 'number',
      registryCode: 'RS51',
      details: { counts: { returned: 0, found: 0 } },
    });
    expect(world.store.records.size).toBe(0);
    expect(world.store.fees.size).toBe(0);
  });

  it('a lost answer never retried: the sweeper records the extract the registry billed, once', async () => {
    const world = prepare();
    world.keyed.loseAnswers = 2;
    await expect(purchase(world, { clientReference: 'lost' })).rejects.toThrow();
    expect(world.keyed.billed).toHaveLength(1);
    expect(world.store.headers.size).toBe(0);
    const later = new Date(NOW.getTime() + UNSETTLED_AFTER_MS + 60_000);
    const sweep = () =>
      reconcilePurchases({ ...extractRoles(world.store), registryFor: () => world.registry, now: later });
    expect(await sweep()).toEqual({ committed: 1, forgotten: 0, waiting: 0, atRisk: 0 });
    expect(await sweep()).toEqual({ committed: 0, forgotten: 0, waiting: 0, atRisk: 0 });
    const [header] = [...world.store.headers.values()];
    expect([header?.kind, header?.subjectKey, header?.clientReference]).toEqual([
      'register',
      'RQ#401234',
      'lost',
    ]);
    expect([...world.store.fees.values()].map((fee) => fee.feeCode)).toEqual(['959B']);
    expect(world.keyed.billed).toHaveLength(1);
  });

  it('a commit that keeps failing leaves a draft: the retry with the same key commits it without buying again', async () => {
    const world = prepare();
    world.store.failCommits = 3;
    await expect(purchase(world, { recoveryKey: 'idem-1' })).rejects.toThrow();
    expect(world.store.fees.size).toBe(0);
    const retried = await purchase(world, { recoveryKey: 'idem-1', requestId: 'req_retry' });
    expect(world.keyed.billed).toHaveLength(1);
    expect([...world.store.fees.values()].map((fee) => fee.resourceId)).toEqual([
      (retried.body as { id: string }).id,
    ]);
    expect((retried.body as { entry: unknown }).entry).not.toBeNull();
  });
});
