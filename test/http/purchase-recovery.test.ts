import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import {
  buyExtract,
  buyPeople,
  call,
  clock,
  createKey,
  errorOf,
  expectError,
  type FeeEntryBody,
  failNextCommits,
  registryCalls,
  registryPurchases,
  searchedPeople,
  simulator,
  sweepLater,
  type TestKey,
} from '../support/api.ts';

/**
 * Purchases stay exactly once when the registry is slow, when its answer is lost, and when our own
 * write fails, whether or not the client retries (issue 13, items 1 and 2). Live keys reach the
 * registry simulator, whose call log shows what the registry billed; the sweeper
 * (`POST /__local/sweep`) finishes what a request left behind once it is five minutes old.
 */

const usageOf = async (key: TestKey) =>
  (await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: key.secret })).body.data;
const heldExtracts = async (key: TestKey) =>
  (await call<{ data: { id: string; kind: string }[] }>('/v1/extracts', { key: key.secret })).body.data;

afterEach(async () => {
  await simulator.clearFaults();
  await failNextCommits(0);
  await clock.reset();
});

// The two wait on the registry in real time (12 s and twice 5 s), each with faults of its own
// account only, so they wait side by side; afterEach's resets touch neither's registry call,
// which had its latency from the moment it arrived.
describe.concurrent('a slow registry', () => {
  it('a purchase slower than ten seconds still finishes once: the function has its deployed 29 s', async () => {
    const key = await createKey('live');
    await simulator.addFault({
      latencyMs: 12_000,
      operations: ['company.extract'],
      accountId: key.accountId,
    });
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = buyExtract(key.secret, SANDBOX.proprietary, 'current', headers);
    await new Promise((done) => setTimeout(done, 1_000));
    // The first is still running (it renews its lease): the duplicate waits for it, never runs,
    // and answers the first's extract.
    const duplicate = await buyExtract(key.secret, SANDBOX.proprietary, 'current', headers);
    const bought = await first;
    expect(bought.status, bought.text).toBe(201);
    expect(duplicate.status, duplicate.text).toBe(201);
    expect(duplicate.body.id).toBe(bought.body.id);
    const again = await buyExtract(key.secret, SANDBOX.proprietary, 'current', headers);
    expect(again.body.id).toBe(bought.body.id);
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect((await usageOf(key)).map((fee) => fee.resourceId)).toStrictEqual([bought.body.id]);
  }, 30_000);

  it('a lookup the registry never answers in time is 503 registry_unavailable, not a 500', async () => {
    const key = await createKey('live');
    await simulator.addFault({ latencyMs: 6_000, operations: ['company.get'], accountId: key.accountId });
    const response = await call(`/v1/companies/${SANDBOX.proprietary}`, { key: key.secret });
    expectError(response, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
    });
    // The lookup's 5 s timeout, then its one retry.
    expect((await registryCalls(key.accountId, 'company.get')).length).toBe(2);
  }, 30_000);
});

describe('a lost registry answer', () => {
  it.each([
    ['dropped', 'disconnect'],
    ['garbled', 'non-json'],
  ] as const)(
    '%s once: asked again with the same client key, bought and billed once',
    async (_, response) => {
      const key = await createKey('live');
      await simulator.addFault({
        response,
        operations: ['company.extract'],
        times: 1,
        accountId: key.accountId,
      });
      const bought = await buyExtract(key.secret, SANDBOX.proprietary, 'current');
      expect(bought.status, bought.text).toBe(201);
      const calls = await registryCalls(key.accountId, 'company.extract');
      expect(calls.map((c) => [c.billed, c.repeated])).toStrictEqual([
        [true, false],
        [false, true],
      ]);
      expect(calls[1]?.clientKey).toBe(calls[0]?.clientKey);
      expect(calls[0]?.clientKey).toMatch(/^pur_[0-9a-f]{32}$/);
      expect((await usageOf(key)).map((fee) => fee.resourceId)).toStrictEqual([bought.body.id]);
    },
  );

  it('lost twice: 503 that never says nothing was charged; the retry with the same key gets it unbilled', async () => {
    const key = await createKey('live');
    const headers = { 'Idempotency-Key': randomUUID() };
    await simulator.addFault({
      response: 'disconnect',
      operations: ['company.extract'],
      times: 2,
      accountId: key.accountId,
    });
    const lost = await buyExtract(key.secret, SANDBOX.proprietary, 'historical', headers);
    expectError(lost, 503, { type: 'registry_unavailable_error', code: 'registry_unavailable', param: null });
    expect(errorOf(lost).message).not.toMatch(/nothing was charged/i);
    expect(errorOf(lost).message).toMatch(/not known/);
    // Retryable (spec 7.2), and says when: every retryable answer carries Retry-After.
    expect(lost.headers.get('retry-after')).toBe('5');
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect(await usageOf(key)).toStrictEqual([]);

    const retried = await buyExtract(key.secret, SANDBOX.proprietary, 'historical', headers);
    expect(retried.status, retried.text).toBe(201);
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect((await usageOf(key)).map((fee) => fee.resourceId)).toStrictEqual([retried.body.id]);
    // The sweeper finds nothing left to do for it.
    await sweepLater();
    expect((await usageOf(key)).map((fee) => fee.resourceId)).toStrictEqual([retried.body.id]);
    expect((await heldExtracts(key)).map((extract) => extract.id)).toStrictEqual([retried.body.id]);
  });

  it('lost twice and never retried (no Idempotency-Key): the sweeper records what the registry billed', async () => {
    const key = await createKey('live');
    await simulator.addFault({
      response: 'disconnect',
      operations: ['company.extract'],
      times: 2,
      accountId: key.accountId,
    });
    const lost = await buyExtract(key.secret, SANDBOX.satisfiedCharges, 'historical', {
      'X-Client-Reference': 'lost-answer',
    });
    expect(lost.status).toBe(503);
    expect(await registryPurchases(key.accountId)).toBe(1);
    expect(await heldExtracts(key)).toStrictEqual([]);

    const swept = await sweepLater();
    expect(swept.committed).toBeGreaterThanOrEqual(1);
    const [held] = await heldExtracts(key);
    expect(held?.kind).toBe('company');
    const usage = await usageOf(key);
    expect(usage.map((fee) => [fee.resourceId, fee.feeCode, fee.clientReference])).toStrictEqual([
      [held?.id, '955A', 'lost-answer'],
    ]);
    const read = await call<{ charges: unknown[] }>(`/v1/extracts/${held?.id}`, { key: key.secret });
    expect(read.status).toBe(200);
    expect(read.body.charges.length).toBeGreaterThan(0);
    // A second sweep changes nothing; the registry was asked what became of the key, never to buy again.
    await sweepLater();
    expect(await usageOf(key)).toHaveLength(1);
    expect(await registryPurchases(key.accountId)).toBe(1);
  });

  it('a purchase the registry refused is dropped by the sweeper, nothing recorded', async () => {
    const key = await createKey('live');
    await simulator.addFault({ code: 'ZZ51', operations: ['company.extract'], accountId: key.accountId });
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'current')).status).toBe(503);
    await sweepLater();
    expect(await heldExtracts(key)).toStrictEqual([]);
    expect(await usageOf(key)).toStrictEqual([]);
  });
});

describe('our own write fails', () => {
  it('without an Idempotency-Key: the sweeper commits the stored answer', async () => {
    const key = await createKey('live');
    await failNextCommits(3);
    const failed = await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    expect(failed.status).toBe(500);
    expect(await heldExtracts(key)).toStrictEqual([]);
    expect(await usageOf(key)).toStrictEqual([]);

    await sweepLater();
    const held = await heldExtracts(key);
    expect(held).toHaveLength(1);
    expect((await usageOf(key)).map((fee) => fee.resourceId)).toStrictEqual([held[0]?.id]);
    expect(await registryPurchases(key.accountId)).toBe(1);
  });
});

describe('a batch of person extracts', () => {
  it('every answer lost: 503; the sweeper records each extract the registry billed, once', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    const personIds = search.data.map((person) => person.id);
    expect(personIds).toHaveLength(4);
    // Each person's call and its one retry: every answer is lost.
    await simulator.addFault({
      response: 'disconnect',
      operations: ['person.extract'],
      times: 8,
      accountId: key.accountId,
    });
    const lost = await buyPeople(key.secret, { searchId: search.id, personIds });
    expectError(lost, 503, { type: 'registry_unavailable_error', code: 'registry_unavailable', param: null });
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(4);
    expect(await usageOf(key)).toStrictEqual([]);

    await sweepLater();
    const held = await heldExtracts(key);
    expect(held.map((extract) => extract.kind)).toStrictEqual(['person', 'person', 'person', 'person']);
    const usage = await usageOf(key);
    expect(usage.map((fee) => [fee.product, fee.feeCode])).toStrictEqual(
      Array.from({ length: 4 }, () => ['person_extract', '958']),
    );
    expect(new Set(usage.map((fee) => fee.resourceId))).toStrictEqual(
      new Set(held.map((extract) => extract.id)),
    );
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(4);
  });

  it('the commit fails and nobody retries: the sweeper commits every stored answer', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    await failNextCommits(3);
    const failed = await buyPeople(key.secret, {
      searchId: search.id,
      personIds: search.data.map((p) => p.id),
    });
    expect(failed.status).toBe(500);
    expect(await usageOf(key)).toStrictEqual([]);

    await sweepLater();
    expect(await heldExtracts(key)).toHaveLength(4);
    expect(await usageOf(key)).toHaveLength(4);
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(4);
  });

  it('the sweeper committed part of a batch; the retry with the same key finishes the rest, each billed once', async () => {
    const key = await createKey('live');
    const search = await searchedPeople(key.secret, 'KOWALSKI', 'ANNA');
    const personIds = search.data.map((person) => person.id);
    const headers = { 'Idempotency-Key': randomUUID() };
    // One of the four calls (all run at once) meets a maintenance window; the other three are bought.
    await simulator.addFault({
      code: 'ZZ51',
      operations: ['person.extract'],
      times: 1,
      accountId: key.accountId,
    });
    const firstTry = await buyPeople(key.secret, { searchId: search.id, personIds }, headers);
    expectError(firstTry, 503, {
      type: 'registry_unavailable_error',
      code: 'registry_unavailable',
      param: null,
      registryCode: 'ZZ51',
    });
    expect(errorOf(firstTry).message).toContain('3 of the 4 extracts were bought before this failure');
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(3);
    expect(await usageOf(key)).toStrictEqual([]);

    await sweepLater();
    expect(await heldExtracts(key)).toHaveLength(3);
    expect(await usageOf(key)).toHaveLength(3);

    const retried = await buyPeople<{ data: { id: string }[] }>(
      key.secret,
      { searchId: search.id, personIds },
      headers,
    );
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.data).toHaveLength(4);
    // Only the fourth person was asked for again; each is billed once, by the registry and on the ledger.
    expect(await registryPurchases(key.accountId, 'person.extract')).toBe(4);
    const usage = await usageOf(key);
    expect(usage).toHaveLength(4);
    expect(new Set(usage.map((fee) => fee.resourceId))).toStrictEqual(
      new Set(retried.body.data.map((extract) => extract.id)),
    );
  });
});
