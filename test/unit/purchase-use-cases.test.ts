/**
 * The purchase and order use cases against in-memory fakes of their ports (Prepare / Act /
 * Assess): what the registry bills and what the ledger records stay one and the same when the
 * registry's answer is lost, when our write fails, and whether or not the client retries.
 */
import { describe, expect, it } from 'vitest';
import { RegistryUnreachable } from '../../shared/adapters/registry-http/transport.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { SANDBOX_PEOPLE } from '../../shared/adapters/sandbox/data/people.ts';
import {
  AT_RISK_AFTER_MS,
  reconcilePurchases,
  UNSETTLED_AFTER_MS,
} from '../../shared/app/reconcile-purchases.ts';
import { purchaseCompanyExtract } from '../../shared/companies/extracts.ts';
import { parseCompanyIdentifier } from '../../shared/companies/identifier.ts';
import { createSandboxRegistry } from '../../shared/composition/registry/sandbox.ts';
import type { Owner } from '../../shared/kernel/api-keys.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { acceptChargesExtractOrder, type OrderRequest } from '../../shared/orders/accept.ts';
import { parseOrderDelivery } from '../../shared/orders/delivery.ts';
import type { OrderStore } from '../../shared/orders/store-port.ts';
import { PURCHASE_CONCURRENCY, purchasePersonExtracts } from '../../shared/people/purchase.ts';
import type { PeopleRegistry } from '../../shared/people/registry-port.ts';
import { searchPeople } from '../../shared/people/search.ts';
import {
  extractRoles,
  KeyedRegistry,
  MemoryExtractStore,
  MemoryOrderStore,
  MemoryPeopleSearchStore,
  MemoryQueue,
} from '../support/fakes.ts';

const NOW = new Date('2026-11-23T10:00:00Z');
const LATER = new Date(NOW.getTime() + UNSETTLED_AFTER_MS + 60_000);
const live: Owner = { accountId: 'acct_unit', environment: 'live' };

/** A live registry in memory (the sandbox's data behind the keyed-call promises) and empty stores. */
function prepare() {
  const keyed = new KeyedRegistry(createSandboxRegistry(() => NOW));
  return {
    keyed,
    registry: keyed.registry,
    store: new MemoryExtractStore(),
    searches: new MemoryPeopleSearchStore(),
  };
}

const companyPurchase = (
  world: ReturnType<typeof prepare>,
  options: { recoveryKey?: string; requestId?: string } = {},
) =>
  purchaseCompanyExtract({
    company: parseCompanyIdentifier(SANDBOX.proprietary),
    type: 'current',
    owner: live,
    requestId: options.requestId ?? 'req_1',
    clientReference: 'matter 9',
    recoveryKey: options.recoveryKey,
    now: NOW,
    registry: world.registry,
    ...extractRoles(world.store),
  });

const rejectionOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

/** The id of the extract a purchase returned. */
const idOf = (result: { body: unknown }) => (result.body as { id: string }).id;

const sweep = (world: ReturnType<typeof prepare>) =>
  reconcilePurchases({ ...extractRoles(world.store), registryFor: () => world.registry, now: LATER });

describe('company extract purchase', () => {
  it('buys once: one registry bill, one fee, the extract held', async () => {
    // Prepare
    const world = prepare();
    // Act
    const bought = await companyPurchase(world);
    // Assess
    expect(bought.billable).toBe(true);
    expect(world.keyed.billed).toHaveLength(1);
    expect(
      [...world.store.fees.values()].map((fee) => [fee.resourceId, fee.feeCode, fee.clientReference]),
    ).toEqual([[idOf(bought), '955A', 'matter 9']]);
    expect(await world.store.unsettledPurchases(LATER.toISOString(), 10)).toEqual([]);
  });

  it('an answer lost after the registry billed: 503 saying the outcome is unknown; the retry gets it unbilled', async () => {
    const world = prepare();
    world.keyed.loseAnswers = 1;
    const lost = await rejectionOf(companyPurchase(world, { recoveryKey: 'k1' }));
    expect(lost).toBeInstanceOf(ApiError);
    expect((lost as ApiError).code).toBe('registry_unavailable');
    expect((lost as ApiError).message).toMatch(/not known/);
    expect(world.store.fees.size).toBe(0);

    const retried = await companyPurchase(world, { recoveryKey: 'k1', requestId: 'req_2' });
    expect(world.keyed.billed).toHaveLength(1);
    expect(world.keyed.calls).toHaveLength(2);
    expect(world.keyed.calls[1]?.clientKey).toBe(world.keyed.calls[0]?.clientKey);
    expect([...world.store.fees.values()].map((fee) => fee.resourceId)).toEqual([idOf(retried)]);
  });

  it('never retried: the sweeper asks the registry and records the same extract once', async () => {
    const world = prepare();
    world.keyed.loseAnswers = 1;
    await rejectionOf(companyPurchase(world));
    expect(await sweep(world)).toEqual({ committed: 1, forgotten: 0, waiting: 0, atRisk: 0 });
    const [fee] = [...world.store.fees.values()];
    expect(fee).toMatchObject({ feeCode: '955A', clientReference: 'matter 9', at: '2026-11-23T10:00:00Z' });
    expect(world.store.headers.get(fee?.resourceId as string)?.subjectKey).toBe(SANDBOX.proprietary);
    // Nothing left, nothing bought again.
    expect(await sweep(world)).toEqual({ committed: 0, forgotten: 0, waiting: 0, atRisk: 0 });
    expect(world.keyed.billed).toHaveLength(1);
  });

  it('a purchase the registry cannot settle yet is left waiting, and counted at risk once an hour old', async () => {
    const world = prepare();
    world.keyed.loseAnswers = 1;
    await rejectionOf(companyPurchase(world));
    const registryDown = new Proxy(world.registry, {
      get: (target, property, receiver) =>
        property === 'findPurchase'
          ? async () => {
              throw new RegistryUnreachable('findPurchase' as never, 'connection', 'registry down');
            }
          : Reflect.get(target, property, receiver),
    });
    const sweepAt = (now: Date) =>
      reconcilePurchases({ ...extractRoles(world.store), registryFor: () => registryDown, now });
    expect(await sweepAt(LATER)).toEqual({ committed: 0, forgotten: 0, waiting: 1, atRisk: 0 });
    const anHourOn = new Date(NOW.getTime() + AT_RISK_AFTER_MS + 1_000);
    expect(await sweepAt(anHourOn)).toEqual({ committed: 0, forgotten: 0, waiting: 1, atRisk: 1 });
    // Once the registry answers, the purchase is settled and nothing is at risk any more.
    expect(
      await reconcilePurchases({
        ...extractRoles(world.store),
        registryFor: () => world.registry,
        now: anHourOn,
      }),
    ).toEqual({ committed: 1, forgotten: 0, waiting: 0, atRisk: 0 });
  });

  it('our commit fails three times: the retry with the same key commits the stored answer without asking again', async () => {
    const world = prepare();
    world.store.failCommits = 3;
    await rejectionOf(companyPurchase(world, { recoveryKey: 'k2' }));
    expect(world.store.fees.size).toBe(0);
    const retried = await companyPurchase(world, { recoveryKey: 'k2' });
    expect(world.keyed.calls).toHaveLength(1);
    expect([...world.store.fees.keys()]).toEqual([idOf(retried)]);
  });

  it('our commit fails and nobody retries: the sweeper commits the stored answer, without asking the registry', async () => {
    const world = prepare();
    world.store.failCommits = 3;
    await rejectionOf(companyPurchase(world));
    expect(await sweep(world)).toEqual({ committed: 1, forgotten: 0, waiting: 0, atRisk: 0 });
    expect(world.store.fees.size).toBe(1);
    expect(world.keyed.calls).toHaveLength(1);
  });

  it('a sweep racing the retry still writes one extract and one fee', async () => {
    const world = prepare();
    world.keyed.loseAnswers = 1;
    await rejectionOf(companyPurchase(world, { recoveryKey: 'k3' }));
    await sweep(world);
    const retried = await companyPurchase(world, { recoveryKey: 'k3' });
    expect([...world.store.fees.keys()]).toEqual([idOf(retried)]);
    expect(world.keyed.billed).toHaveLength(1);
  });

  it('a rejection buys nothing and leaves no record behind', async () => {
    const world = prepare();
    const error = await rejectionOf(
      purchaseCompanyExtract({
        company: parseCompanyIdentifier(SANDBOX.unknownNumber),
        type: 'current',
        owner: live,
        requestId: 'req_1',
        clientReference: null,
        recoveryKey: undefined,
        now: NOW,
        registry: world.registry,
        ...extractRoles(world.store),
      }),
    );
    expect((error as ApiError).code).toBe('company_not_found');
    expect(world.store.records.size).toBe(0);
    expect(await sweep(world)).toEqual({ committed: 0, forgotten: 0, waiting: 0, atRisk: 0 });
  });
});

describe('person extract batch purchase', () => {
  async function prepareSearch() {
    const world = prepare();
    const search = await searchPeople({
      body: { familyName: 'KOWALSKI', givenName: 'ANNA' },
      owner: live,
      requestId: 'req_s',
      now: NOW,
      registry: world.registry,
      searches: world.searches,
    });
    const personIds = search.data.map((person) => person.id as string);
    const buy = (recoveryKey?: string) =>
      purchasePersonExtracts({
        body: { searchId: search.id, personIds },
        owner: live,
        requestId: 'req_b',
        clientReference: null,
        recoveryKey,
        now: NOW,
        registry: world.registry,
        ...extractRoles(world.store),
        searches: world.searches,
      });
    return { world, personIds, buy };
  }

  it('buys every person once, one 958 fee each', async () => {
    const { world, personIds, buy } = await prepareSearch();
    const bought = await buy();
    expect(bought.extracts).toHaveLength(personIds.length);
    expect(world.keyed.billed).toHaveLength(personIds.length);
    expect([...world.store.fees.values()].map((fee) => fee.feeCode)).toEqual(personIds.map(() => '958'));
  });

  it('an answer lost: 503 naming what was kept; the sweeper records every person the registry billed', async () => {
    const { world, personIds, buy } = await prepareSearch();
    world.keyed.loseAnswers = 1;
    const error = (await rejectionOf(buy())) as ApiError;
    expect(error.code).toBe('registry_unavailable');
    expect(world.store.fees.size).toBe(0);
    expect(world.keyed.billed).toHaveLength(personIds.length);
    await sweep(world);
    expect(world.store.fees.size).toBe(personIds.length);
    expect(world.keyed.billed).toHaveLength(personIds.length);
  });

  it('the retry with the same key after a sweep committed the batch in part: each person billed once', async () => {
    const { world, personIds, buy } = await prepareSearch();
    world.keyed.loseAnswers = 1;
    await rejectionOf(buy('kb'));
    await sweep(world);
    const retried = await buy('kb');
    expect(retried.extracts).toHaveLength(personIds.length);
    expect(world.store.fees.size).toBe(personIds.length);
    expect(world.keyed.billed).toHaveLength(personIds.length);
  });
});

describe('person extract batch purchase: registry calls beside our writes', () => {
  /** The sandbox search that finds exactly 100 people, and a purchase of all of them. */
  async function prepareHundred() {
    const world = prepare();
    const { familyName, givenName, birthDateFrom, birthDateTo } = SANDBOX_PEOPLE.search.hundred;
    const search = await searchPeople({
      body: {
        familyName,
        givenName,
        birthDateFrom: birthDateFrom ?? undefined,
        birthDateTo: birthDateTo ?? undefined,
      },
      owner: live,
      requestId: 'req_s',
      now: NOW,
      registry: world.registry,
      searches: world.searches,
    });
    const personIds = search.data.map((person) => person.id as string);
    const buy = (options: { recoveryKey?: string; registry?: PeopleRegistry; requestId?: string } = {}) =>
      purchasePersonExtracts({
        body: { searchId: search.id, personIds },
        owner: live,
        requestId: options.requestId ?? 'req_h',
        clientReference: null,
        recoveryKey: options.recoveryKey,
        now: NOW,
        registry: options.registry ?? world.registry,
        ...extractRoles(world.store),
        searches: world.searches,
      });
    return { world, personIds, buy };
  }

  /** A promise the test opens when it chooses. */
  function gate() {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { opened, open };
  }

  /** Waits (on the real clock, at most 2 s) until `reached` holds. */
  async function until(reached: () => boolean, what: string) {
    for (const started = Date.now(); !reached(); ) {
      if (Date.now() - started > 2_000) throw new Error(`never reached: ${what}`);
      await new Promise((done) => setTimeout(done, 1));
    }
  }

  it('a slow draft write holds back no registry call: all 100 are asked before any answer is saved', async () => {
    const { world, buy } = await prepareHundred();
    const saves = gate();
    let saved = 0;
    const save = world.store.saveSections.bind(world.store);
    world.store.saveSections = async (...args) => {
      await saves.opened;
      await save(...args);
      saved += 1;
    };
    const purchase = buy();
    await until(() => world.keyed.calls.length === 100, '100 registry calls while no save has ended');
    expect(saved).toBe(0);
    expect(world.store.fees.size).toBe(0);
    saves.open();
    const bought = await purchase;
    expect(bought.extracts).toHaveLength(100);
    expect(saved).toBe(100);
    expect(world.keyed.billed).toHaveLength(100);
    expect(world.store.fees.size).toBe(100);
  });

  it('the first wave is asked once its records are written; every later call waits for its own record', async () => {
    const { world, buy } = await prepareHundred();
    const laterRecords = gate();
    const recorded = new Set<string>();
    const start = world.store.startPurchases.bind(world.store);
    let writes = 0;
    world.store.startPurchases = async (records) => {
      writes += 1;
      if (writes === 2) await laterRecords.opened;
      const started = await start(records);
      for (const record of started) recorded.add(record.clientKey);
      return started;
    };
    // Every call is checked as it is made: its purchase must be recorded already.
    const unrecorded: string[] = [];
    const registry = new Proxy(world.registry, {
      get: (target, property, receiver) =>
        property === 'purchasePersonExtract'
          ? (...args: Parameters<PeopleRegistry['purchasePersonExtract']>) => {
              if (!recorded.has(args[3])) unrecorded.push(args[3]);
              return target.purchasePersonExtract(...args);
            }
          : Reflect.get(target, property, receiver),
    });
    const purchase = buy({ registry });
    await until(() => world.keyed.calls.length === PURCHASE_CONCURRENCY, 'the first wave asked');
    await new Promise((done) => setTimeout(done, 20));
    // The first wave has its answers, and nobody else is asked while the later records are held.
    expect(world.keyed.calls).toHaveLength(PURCHASE_CONCURRENCY);
    expect(recorded.size).toBe(PURCHASE_CONCURRENCY);
    laterRecords.open();
    expect((await purchase).extracts).toHaveLength(100);
    expect(writes).toBe(2);
    expect(world.keyed.calls).toHaveLength(100);
    expect(unrecorded).toEqual([]);
  });

  it('a failed draft write fails the purchase; the other answers stay saved and the retry buys nothing twice', async () => {
    const { world, personIds, buy } = await prepareHundred();
    const failing = personIds[60] as string;
    const save = world.store.saveSections.bind(world.store);
    let failed = false;
    world.store.saveSections = async (id, sections, expiresAt, record) => {
      if (record.slot === failing && !failed) {
        failed = true;
        throw new Error('injected fault: the draft write failed');
      }
      await save(id, sections, expiresAt, record);
    };
    const error = await rejectionOf(buy({ recoveryKey: 'kf' }));
    expect((error as Error).message).toBe('injected fault: the draft write failed');
    expect(world.store.fees.size).toBe(0);
    expect(world.keyed.billed).toHaveLength(100);
    const kept = await world.store.findDrafts('kf', NOW.toISOString());
    expect(kept.size).toBe(99);
    expect(kept.has(failing)).toBe(false);

    const retried = await buy({ recoveryKey: 'kf' });
    expect(retried.extracts).toHaveLength(100);
    // Only the person whose answer was not saved is asked again, with the same client key, unbilled.
    expect(world.keyed.calls).toHaveLength(101);
    expect(world.keyed.calls.slice(0, 100).map((call) => call.clientKey)).toContain(
      world.keyed.calls[100]?.clientKey,
    );
    expect(world.keyed.billed).toHaveLength(100);
    expect(world.store.fees.size).toBe(100);
  });

  it('a failed write of the later records: the first wave is kept for the retry, the others are never asked', async () => {
    const { world, buy } = await prepareHundred();
    const start = world.store.startPurchases.bind(world.store);
    let writes = 0;
    world.store.startPurchases = async (records) => {
      writes += 1;
      if (writes === 2) throw new Error('injected fault: the records write failed');
      return start(records);
    };
    const error = await rejectionOf(buy({ recoveryKey: 'kr' }));
    expect((error as Error).message).toBe('injected fault: the records write failed');
    expect(world.keyed.billed).toHaveLength(PURCHASE_CONCURRENCY);
    expect((await world.store.findDrafts('kr', NOW.toISOString())).size).toBe(PURCHASE_CONCURRENCY);
    expect(world.store.fees.size).toBe(0);

    const retried = await buy({ recoveryKey: 'kr' });
    expect(retried.extracts).toHaveLength(100);
    expect(world.keyed.calls).toHaveLength(100);
    expect(world.keyed.billed).toHaveLength(100);
    expect(world.store.fees.size).toBe(100);
  });

  it("a retry that fails before asking again keeps the earlier attempt's records: the sweeper settles every purchase", async () => {
    const { world, buy } = await prepareHundred();
    // The first attempt: every answer arrives (and is billed) but none can be saved.
    const save = world.store.saveSections.bind(world.store);
    world.store.saveSections = async () => {
      throw new Error('injected fault: the draft write failed');
    };
    await rejectionOf(buy({ recoveryKey: 'kk', requestId: 'req_1' }));
    expect(world.keyed.billed).toHaveLength(100);
    world.store.saveSections = save;
    // The retry: the registry cannot be reached for its first call, so most records are not asked again.
    let down = true;
    const registry = new Proxy(world.registry, {
      get: (target, property, receiver) =>
        property === 'purchasePersonExtract'
          ? (...args: Parameters<PeopleRegistry['purchasePersonExtract']>) => {
              if (!down) return target.purchasePersonExtract(...args);
              down = false;
              throw new RegistryUnreachable('person.extract' as never, 'connection', 'registry down');
            }
          : Reflect.get(target, property, receiver),
    });
    const error = (await rejectionOf(buy({ recoveryKey: 'kk', requestId: 'req_2', registry }))) as ApiError;
    expect(error.code).toBe('registry_unavailable');
    expect(world.keyed.calls.length).toBeLessThan(200);
    // Every purchase the registry billed is still recorded, so the sweeper commits them all, once.
    expect(await sweep(world)).toMatchObject({ committed: 100, waiting: 0 });
    expect(world.store.fees.size).toBe(100);
    expect(world.keyed.billed).toHaveLength(100);
  });
});

describe('charges extract order acceptance', () => {
  function request(
    world: { registry: OrderRequest['registry'] },
    store: MemoryOrderStore,
    queue: MemoryQueue,
    recoveryKey?: string,
  ): OrderRequest {
    return {
      owner: live,
      requestId: 'req_o',
      clientReference: null,
      recoveryKey,
      now: NOW,
      delivery: parseOrderDelivery({ method: 'web' }),
      simulateFailure: false,
      registry: world.registry,
      store: store as unknown as OrderStore,
      queue,
    };
  }

  it('the same key twice: one order, one set of fees, queued each time', async () => {
    const world = prepare();
    const store = new MemoryOrderStore();
    const queue = new MemoryQueue();
    const company = parseCompanyIdentifier(SANDBOX.satisfiedCharges);
    const first = await acceptChargesExtractOrder(company, request(world, store, queue, 'ko'));
    const again = await acceptChargesExtractOrder(company, request(world, store, queue, 'ko'));
    expect(again.id).toBe(first.id);
    expect(store.orders.size).toBe(1);
    expect(first.fees.map((fee) => [fee.product, fee.feeCode, fee.quantity])).toEqual([
      ['charges_extract', '955E', 1],
    ]);
    expect(queue.sent.map((message) => message.id)).toEqual([first.id, first.id]);
  });

  it('accepted and paid for even when the queue is down (the sweeper starts it later)', async () => {
    const world = prepare();
    const store = new MemoryOrderStore();
    const queue = new MemoryQueue();
    queue.down = true;
    const order = await acceptChargesExtractOrder(
      parseCompanyIdentifier(SANDBOX.satisfiedCharges),
      request(world, store, queue),
    );
    expect(order.status).toBe('pending');
    expect(store.orders.get(order.id)?.fees).toHaveLength(1);
    expect(queue.sent).toEqual([]);
  });
});
