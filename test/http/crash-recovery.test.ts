import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createCompanyRegisterClient } from '../../clients/typescript/index.ts';
import { freePort } from '../../local/dynamodb.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { HOLD_LEASE_MS } from '../../shared/spend-caps/sweep.ts';
import { createKey, registryCalls, registryPurchases, simulator, type TestKey } from '../support/api.ts';
import { spawnStackProcess, stopStackProcess } from '../support/spawn-stack.ts';
import { localStack } from '../support/stack.ts';

/**
 * A client that follows the spec never loses a purchase it paid for (issue 30): purchases are
 * made against a stack process of their own (test/support/stack-process.ts) on the tests'
 * DynamoDB Local and registry simulator, and that process is killed (SIGKILL, as a crash) while
 * the registry is selling, started again on the same data and port, killed again during the
 * recovery, and the registry's answers are lost. At the end every purchase the registry billed is
 * in the client's hands, once, and on the fee ledger once.
 *
 * Bounded: each scenario waits for what it needs (registry calls, a process listening) with a
 * deadline, never for a fixed time; its assertions are on counts and ids, never on timings.
 */

/** The stack process: started, killed and started again on one port. */
class StackProcess {
  private child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  get baseUrl() {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    ({ child: this.child } = await spawnStackProcess({
      STACK_PORT: String(this.port),
      STACK_DYNAMO: localStack.dynamoEndpoint,
      STACK_REGISTRY_URL: localStack.registryUrl,
      STACK_REGISTRY_CREDENTIAL: localStack.registryCredential,
    }));
  }

  /** SIGKILL: nothing of the process runs after it, as when a machine or a function dies. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) await stopStackProcess(child, 'SIGKILL');
  }
}

/** Polls `check` every 50 ms until it is true, failing after `timeoutMs`. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

const COMPANIES = [
  SANDBOX.proprietary,
  SANDBOX.satisfiedCharges,
  SANDBOX.proprietary,
  SANDBOX.satisfiedCharges,
];
const TYPES = ['current', 'historical', 'historical', 'current'] as const;
/** The n-th purchase of a scenario: a company and an extract type (several purchases may be alike). */
const purchaseOf = (n: number) => ({
  id: COMPANIES[n % COMPANIES.length] as string,
  type: TYPES[n % TYPES.length] as (typeof TYPES)[number],
});

type Bought = { status: number; id: string | undefined; code: string | undefined };

/**
 * A customer's integration written from the spec alone: one `Idempotency-Key` per purchase, and
 * retries only of what spec 7.2's "Retry" column allows (429 after Retry-After, 503 with backoff,
 * 500 and 502 once each) and of a request that got no answer at all (which only the key makes
 * safe). Bounded: at most 12 attempts, waits doubling from 0.5 s up to 8 s, or Retry-After.
 */
async function specClientBuy(baseUrl: string, key: TestKey, n: number): Promise<Bought> {
  const { id, type } = purchaseOf(n);
  const idempotencyKey = randomUUID();
  const retriedOnce = new Set<number>();
  for (let attempt = 0; ; attempt++) {
    let response: Response | undefined;
    try {
      response = await fetch(`${baseUrl}/v1/companies/${id}/extracts`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key.secret}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': idempotencyKey,
        },
        body: JSON.stringify({ type }),
      });
    } catch {
      response = undefined;
    }
    const status = response?.status;
    const body = response
      ? ((await response.json()) as { id?: string; error?: { code: string } })
      : undefined;
    const again =
      status === undefined ||
      status === 429 ||
      status === 503 ||
      ((status === 500 || status === 502) && !retriedOnce.has(status));
    if (!again || attempt >= 11) return { status: status ?? 0, id: body?.id, code: body?.error?.code };
    if (status !== undefined) retriedOnce.add(status);
    const retryAfter = Number(response?.headers.get('Retry-After') ?? Number.NaN);
    const backoff = Math.min(8_000, 500 * 2 ** attempt);
    await new Promise((done) => setTimeout(done, Number.isFinite(retryAfter) ? retryAfter * 1000 : backoff));
  }
}

/** The project's own client, with its default settings. */
async function projectClientBuy(baseUrl: string, key: TestKey, n: number, company?: string): Promise<Bought> {
  const { type } = purchaseOf(n);
  const id = company ?? purchaseOf(n).id;
  const client = createCompanyRegisterClient({ baseUrl, apiKey: key.secret });
  const { data, error, response } = await client.POST('/v1/companies/{id}/extracts', {
    params: { path: { id } },
    body: { type },
  });
  return { status: response.status, id: data?.id, code: error?.error.code };
}

/** Every purchase is in the client's hands; the registry billed each once; each is on the ledger once. */
async function expectEveryBilledPurchaseHeld(baseUrl: string, key: TestKey, results: Bought[]) {
  expect(results.map(({ status, code }) => [status, code])).toStrictEqual(
    results.map(() => [201, undefined]),
  );
  const held = results.map(({ id }) => id as string).sort();
  expect(new Set(held).size).toBe(results.length);
  expect(await registryPurchases(key.accountId)).toBe(results.length);
  const get = async <T>(path: string) =>
    (await (
      await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key.secret}` } })
    ).json()) as T;
  const usage = await get<{ data: { resourceId: string; billable: boolean }[] }>('/v1/usage?limit=100');
  expect(usage.data.map((fee) => fee.resourceId).sort()).toStrictEqual(held);
  expect(usage.data.every((fee) => fee.billable)).toBe(true);
  const extracts = await get<{ data: { id: string }[] }>('/v1/extracts?limit=100');
  expect(extracts.data.map((extract) => extract.id).sort()).toStrictEqual(held);
}

const stacks: StackProcess[] = [];
const newStack = async () => {
  const stack = new StackProcess(await freePort(0));
  stacks.push(stack);
  await stack.start();
  return stack;
};

afterEach(async () => {
  await simulator.clearFaults();
  for (const stack of stacks.splice(0)) await stack.kill();
});

afterAll(async () => {
  for (const stack of stacks.splice(0)) await stack.kill();
});

describe('a stack killed while it sells', () => {
  it('killed while the registry sells 6 purchases, started again: the project client (default settings) returns every extract, each billed once; a purchase never billed ends in a definite error', async () => {
    const key = await createKey('live');
    const stack = await newStack();
    await simulator.addFault({ latencyMs: 1_500, operations: ['company.extract'], accountId: key.accountId });
    const buying = Promise.all(Array.from({ length: 6 }, (_, n) => projectClientBuy(stack.baseUrl, key, n)));
    // A company the registry does not have: it bills nothing, and the answer is a definite 404.
    const unknown = projectClientBuy(stack.baseUrl, key, 0, SANDBOX.unknownNumber);
    // Every purchase has reached the registry, which sells them whatever becomes of us.
    await until(
      '7 registry calls',
      async () => (await registryCalls(key.accountId, 'company.extract')).length >= 7,
    );
    await stack.kill();
    await stack.start();
    await expectEveryBilledPurchaseHeld(stack.baseUrl, key, await buying);
    expect(await unknown).toStrictEqual({ status: 404, id: undefined, code: 'company_not_found' });
  }, 180_000);

  it('killed again during the recovery: a spec-following client still gets every extract it paid for', async () => {
    const key = await createKey('live');
    const stack = await newStack();
    await simulator.addFault({ latencyMs: 1_500, operations: ['company.extract'], accountId: key.accountId });
    const buying = Promise.all(Array.from({ length: 6 }, (_, n) => specClientBuy(stack.baseUrl, key, n)));
    await until(
      '6 registry calls',
      async () => (await registryCalls(key.accountId, 'company.extract')).length >= 6,
    );
    await stack.kill();
    await stack.start();
    // The retries reach the registry again (same client keys, nothing more billed): kill it then.
    await until(
      'a retry at the registry',
      async () => (await registryCalls(key.accountId, 'company.extract')).length >= 7,
    );
    await stack.kill();
    await stack.start();
    await expectEveryBilledPurchaseHeld(stack.baseUrl, key, await buying);
  }, 240_000);

  it('the registry’s answers lost, then a kill: the 503s are retried with the same key, and every extract is held', async () => {
    const key = await createKey('live');
    const stack = await newStack();
    // Each purchase's first request loses both of its registry answers (the call and the adapter's
    // repeat): 503 "not known yet", with Retry-After.
    await simulator.addFault({
      response: 'disconnect',
      operations: ['company.extract'],
      times: 8,
      accountId: key.accountId,
    });
    const buying = Promise.all(Array.from({ length: 4 }, (_, n) => specClientBuy(stack.baseUrl, key, n)));
    await until(
      '8 lost registry answers',
      async () => (await registryCalls(key.accountId, 'company.extract')).length >= 8,
    );
    await stack.kill();
    await stack.start();
    await expectEveryBilledPurchaseHeld(stack.baseUrl, key, await buying);
  }, 180_000);

  it('concurrent duplicates of each purchase across a kill: one purchase each, every duplicate answers the same extract', async () => {
    const key = await createKey('live');
    const stack = await newStack();
    await simulator.addFault({ latencyMs: 1_500, operations: ['company.extract'], accountId: key.accountId });
    const client = createCompanyRegisterClient({ baseUrl: stack.baseUrl, apiKey: key.secret });
    const keys = Array.from({ length: 3 }, () => randomUUID());
    const buying = Promise.all(
      keys.flatMap((idempotencyKey, n) =>
        Array.from({ length: 3 }, async () => {
          const { id, type } = purchaseOf(n);
          const { data, response } = await client.POST('/v1/companies/{id}/extracts', {
            params: { path: { id }, header: { 'Idempotency-Key': idempotencyKey } },
            body: { type },
          });
          return { key: idempotencyKey, status: response.status, id: data?.id };
        }),
      ),
    );
    await until(
      '3 registry calls',
      async () => (await registryCalls(key.accountId, 'company.extract')).length >= 3,
    );
    await stack.kill();
    await stack.start();
    const results = await buying;
    expect(results.map((r) => r.status)).toStrictEqual(results.map(() => 201));
    for (const idempotencyKey of keys) {
      const ids = new Set(results.filter((r) => r.key === idempotencyKey).map((r) => r.id));
      expect(ids.size).toBe(1);
    }
    const one = keys.map(
      (idempotencyKey) => results.find((r) => r.key === idempotencyKey) as Bought & { key: string },
    );
    await expectEveryBilledPurchaseHeld(
      stack.baseUrl,
      key,
      one.map(({ status, id }) => ({ status, id, code: undefined })),
    );
  }, 180_000);
});

describe('spend holds a killed stack left open', () => {
  /** A request to the stack process's own API (its clock and sweeper are its own). */
  const on = async <T>(
    stack: StackProcess,
    path: string,
    init: { key?: TestKey; method?: string; body?: unknown } = {},
  ) => {
    const response = await fetch(`${stack.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.key ? { Authorization: `Bearer ${init.key.secret}` } : {}),
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  type Holds = { converted: number; released: number; waiting: number };
  const sweepAfter = async (stack: StackProcess, ms: number): Promise<Holds[]> => {
    expect((await on(stack, '/__local/clock', { method: 'POST', body: { advanceMs: ms } })).status).toBe(200);
    // Two sweeps at once, as overlapping scheduled runs: each hold is settled by one of them.
    const swept = await Promise.all(
      [0, 1].map(() => on<{ holds: Holds }>(stack, '/__local/sweep', { method: 'POST' })),
    );
    return swept.map(({ status, body }) => {
      expect(status).toBe(200);
      return body.holds;
    });
  };
  const total = (reports: Holds[]) =>
    reports.reduce((sum, r) => ({
      converted: sum.converted + r.converted,
      released: sum.released + r.released,
      waiting: Math.max(sum.waiting, r.waiting),
    }));
  const spentOf = async (stack: StackProcess, key: TestKey) =>
    (await on<{ spentCents: number }>(stack, '/v1/spend-caps/account', { key })).body.spentCents;
  /** One attempt, no retry: a client that gives up when the stack dies under it. */
  const buyOnce = (stack: StackProcess, key: TestKey) =>
    fetch(`${stack.baseUrl}/v1/companies/${SANDBOX.proprietary}/extracts`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key.secret}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': randomUUID(),
      },
      body: JSON.stringify({ type: 'current' }),
    }).then(
      (response) => response.status,
      () => 0,
    );

  it('killed while the registry sells 3 purchases (billed) and refuses 2 (not billed), nobody retrying: the sweeps turn the billed holds into spend and release the others after the lease, once each', async () => {
    const billed = await createKey('live');
    const unbilled = await createKey('live');
    const stack = await newStack();
    for (const key of [billed, unbilled]) {
      const capped = await on(stack, '/v1/spend-caps/account', {
        key,
        method: 'PUT',
        body: { amountCents: 20_000 },
      });
      expect(capped.status).toBe(200);
    }
    await simulator.addFault({
      latencyMs: 2_000,
      operations: ['company.extract'],
      accountId: billed.accountId,
    });
    // The registry is in a maintenance window: after the delay it answers ZZ51, having sold nothing.
    await simulator.addFault({
      latencyMs: 2_000,
      code: 'ZZ51',
      operations: ['company.extract'],
      accountId: unbilled.accountId,
    });
    const buying = Promise.all([
      ...Array.from({ length: 3 }, () => buyOnce(stack, billed)),
      ...Array.from({ length: 2 }, () => buyOnce(stack, unbilled)),
    ]);
    await until('5 registry calls', async () => {
      const sold = await registryCalls(billed.accountId, 'company.extract');
      const refused = await registryCalls(unbilled.accountId, 'company.extract');
      return sold.length >= 3 && refused.length >= 2;
    });
    await stack.kill();
    expect(await buying).toStrictEqual([0, 0, 0, 0, 0]);
    await stack.start();
    // The holds are counted at their reserved fees (2,500 each) while open.
    expect([await spentOf(stack, billed), await spentOf(stack, unbilled)]).toStrictEqual([7_500, 5_000]);

    // The registry finishes its calls after the delay, the stack gone: until then the sweeper's
    // question about a purchase is answered `pending`, and the restarted stack may ask sooner.
    await until('the registry to finish the 5 calls', async () => {
      const calls = [
        ...(await registryCalls(billed.accountId, 'company.extract')),
        ...(await registryCalls(unbilled.accountId, 'company.extract')),
      ];
      return calls.every((call) => call.outcome !== 'pending');
    });
    // The purchase sweeper commits the 3 billed purchases (their fees reach the ledger) and forgets
    // the 2 the registry never made; the holds sweep runs beside it and settles what it finds.
    const first = total(await sweepAfter(stack, 6 * 60_000));
    const second = total(await sweepAfter(stack, 6 * 60_000));
    expect(first.converted + second.converted).toBe(3);
    expect(first.released + second.released).toBe(0);
    expect(second.waiting).toBe(2);
    const fees = await on<{ data: { unitAmountCents: number }[] }>(stack, '/v1/usage?limit=100', {
      key: billed,
    });
    expect(fees.body.data.map((fee) => fee.unitAmountCents)).toStrictEqual([2_500, 2_500, 2_500]);
    expect([await spentOf(stack, billed), await spentOf(stack, unbilled)]).toStrictEqual([7_500, 5_000]);

    // Past the lease without a fee entry: released. Sweeps after that find nothing open.
    const third = total(await sweepAfter(stack, HOLD_LEASE_MS));
    expect(third).toStrictEqual({ converted: 0, released: 2, waiting: 0 });
    expect(total(await sweepAfter(stack, 6 * 60_000))).toStrictEqual({
      converted: 0,
      released: 0,
      waiting: 0,
    });
    expect([await spentOf(stack, billed), await spentOf(stack, unbilled)]).toStrictEqual([7_500, 0]);
  }, 180_000);
});
