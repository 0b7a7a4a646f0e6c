import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import {
  buyExtract,
  call,
  createKey,
  errorOf,
  expectError,
  type FeeEntryBody,
  registryPurchases,
  sweepLater,
  type TestKey,
  validationError,
} from '../support/api.ts';
import { outbox } from '../support/orders.ts';

/**
 * Monthly spend caps (issue 43, part 1): set, read and cleared through the API; a purchase that would
 * pass a cap refused before the registry; a burst unable to pass a cap; alerts as events. Example
 * prices of the local stack: current extract 2500 cents, historical 4000.
 */

interface SpendCapBody {
  object: string;
  scope: string;
  keyId: string | null;
  amountCents: number | null;
  currency: string;
  month: string;
  spentCents: number;
  remainingCents: number | null;
  alertThresholds: number[];
  alertsSent: number[];
  alertEmails: string[];
  billed: boolean;
  examplePrices: boolean;
  updatedAt: string | null;
}

const month = () => new Date().toISOString().slice(0, 7);
const capOf = (key: TestKey, path: string) =>
  call<SpendCapBody>(`/v1/spend-caps/${path}`, { key: key.secret });
const setCap = (key: TestKey, path: string, body: Record<string, unknown>) =>
  call<SpendCapBody>(`/v1/spend-caps/${path}`, { key: key.secret, method: 'PUT', body });
const usageOf = async (key: TestKey) =>
  (await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: key.secret })).body.data;
const alertsOf = async (key: TestKey) =>
  (
    await call<{ data: { type: string; data: { threshold: number; cap: SpendCapBody } }[] }>(
      '/v1/events?type=spend_cap.threshold_reached',
      { key: key.secret },
    )
  ).body.data;

describe('spend caps through the API', () => {
  it('no cap by default; a cap set, read, listed and cleared, for the account and for a key', async () => {
    const key = await createKey('test');
    const none = await capOf(key, 'account');
    expect(none.status, none.text).toBe(200);
    const { meta: _meta, ...fields } = none.body as SpendCapBody & { meta: unknown };
    expect(fields).toStrictEqual({
      object: 'spendCap',
      scope: 'account',
      keyId: null,
      amountCents: null,
      currency: 'AUD',
      month: month(),
      spentCents: 0,
      remainingCents: null,
      alertThresholds: [50, 80, 100],
      alertsSent: [],
      alertEmails: [],
      billed: false,
      examplePrices: true,
      updatedAt: null,
    });

    const set = await setCap(key, 'account', { amountCents: 10_000, alertEmails: ['billing@example.com'] });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      amountCents: 10_000,
      remainingCents: 10_000,
      alertEmails: ['billing@example.com'],
    });
    const keyCap = await setCap(key, `keys/${key.keyId}`, { amountCents: 5_000 });
    expect(keyCap.status, keyCap.text).toBe(200);
    expect(keyCap.body).toMatchObject({
      scope: 'key',
      keyId: key.keyId,
      amountCents: 5_000,
      alertEmails: [],
    });

    const list = await call<{ data: SpendCapBody[] }>('/v1/spend-caps', { key: key.secret });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((cap) => [cap.scope, cap.keyId, cap.amountCents])).toStrictEqual([
      ['account', null, 10_000],
      ['key', key.keyId, 5_000],
    ]);

    const cleared = await call<SpendCapBody>('/v1/spend-caps/account', { key: key.secret, method: 'DELETE' });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.amountCents).toBeNull();
    expect((await capOf(key, 'account')).body.amountCents).toBeNull();
    expect((await capOf(key, `keys/${key.keyId}`)).body.amountCents).toBe(5_000);
  });

  it('refuses a key of another account or environment, and a cap that is no whole positive amount', async () => {
    const key = await createKey('test');
    const other = await createKey('test');
    const live = await createKey('live', { accountId: key.accountId });
    for (const keyId of [other.keyId, live.keyId, 'key_nope']) {
      expectError(await capOf(key, `keys/${keyId}`), 404, {
        type: 'not_found_error',
        code: 'api_key_not_found',
        param: 'keyId',
      });
    }
    expectError(await setCap(key, 'account', { amountCents: 0 }), 422, validationError('amountCents'));
    expectError(await setCap(key, 'account', { amountCents: 10.5 }), 422, validationError('amountCents'));
    expectError(
      await setCap(key, 'account', { amountCents: 100, alertEmails: ['not an address'] }),
      422,
      validationError('alertEmails[0]'),
    );
    expectError(
      await setCap(key, `keys/${key.keyId}`, { amountCents: 100, alertEmails: [] }),
      422,
      validationError('alertEmails'),
    );
  });
});

describe('a purchase past a cap', () => {
  it('is refused before the registry with the cap, the spend and the cost; a retry of an earlier purchase still answers it; alerts at 50 and 80 %', async () => {
    const key = await createKey('test');
    await setCap(key, `keys/${key.keyId}`, { amountCents: 5_000 });
    const idempotency = { 'Idempotency-Key': randomUUID() };
    const first = await buyExtract(key.secret, SANDBOX.proprietary, 'historical', idempotency);
    expect(first.status, first.text).toBe(201);

    const second = await buyExtract(key.secret, SANDBOX.proprietary, 'historical');
    expectError(second, 403, {
      type: 'permission_error',
      code: 'spend_cap_exceeded',
      param: null,
      details: {
        cap: { scope: 'key', keyId: key.keyId, amountCents: 5_000 },
        month: month(),
        currency: 'AUD',
        spentCents: 4_000,
        purchaseCents: 4_000,
        maxPossible: false,
      },
    });

    const replay = await buyExtract(key.secret, SANDBOX.proprietary, 'historical', idempotency);
    expect(replay.status, replay.text).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
    expect((await usageOf(key)).length).toBe(1);
    const cap = await capOf(key, `keys/${key.keyId}`);
    expect(cap.body).toMatchObject({ spentCents: 4_000, remainingCents: 1_000, alertsSent: [50, 80] });

    const alerts = await alertsOf(key);
    expect(alerts.map((event) => event.data.threshold).sort()).toStrictEqual([50, 80]);
    expect(alerts[0]?.data.cap).toMatchObject({
      scope: 'key',
      keyId: key.keyId,
      amountCents: 5_000,
      spentCents: 4_000,
    });
  });

  it('a purchase the registry refuses releases its hold: nothing counted', async () => {
    const key = await createKey('test');
    await setCap(key, 'account', { amountCents: 5_000 });
    const refused = await buyExtract(key.secret, SANDBOX.unknownNumber, 'historical');
    expect(refused.status, refused.text).toBe(404);
    expect((await capOf(key, 'account')).body).toMatchObject({ spentCents: 0, alertsSent: [] });
    const bought = await buyExtract(key.secret, SANDBOX.proprietary, 'historical');
    expect(bought.status, bought.text).toBe(201);
  });

  it('a burst of 20 live purchases with room for exactly 7: 7 bought, 13 refused, the registry asked 7 times, 7 fees', async () => {
    const key = await createKey('live');
    await setCap(key, 'account', { amountCents: 7 * 2_500 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => buyExtract(key.secret, SANDBOX.proprietary, 'current')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201).length, JSON.stringify(statuses)).toBe(7);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.length).toBe(13);
    for (const answer of refused) {
      expect(answer.status, answer.text).toBe(403);
      expect(errorOf(answer).code).toBe('spend_cap_exceeded');
    }
    expect(await registryPurchases(key.accountId)).toBe(7);
    expect((await usageOf(key)).length).toBe(7);
    const cap = await capOf(key, 'account');
    expect(cap.body).toMatchObject({ spentCents: 17_500, remainingCents: 0, alertsSent: [50, 80, 100] });
    expect((await alertsOf(key)).map((event) => event.data.threshold).sort()).toStrictEqual([100, 50, 80]);
  });
});

describe('spend alerts by email', () => {
  it("mails each alert once to the account's billing recipients, when the sweeper publishes its event", async () => {
    const key = await createKey('test');
    const to = `billing-${randomUUID()}@example.com`;
    await setCap(key, 'account', { amountCents: 8_000, alertEmails: [to] });
    const bought = await buyExtract(key.secret, SANDBOX.proprietary, 'historical');
    expect(bought.status, bought.text).toBe(201);
    await sweepLater();
    await sweepLater();
    const mail = (await outbox()).filter((message) => message.to === to);
    expect(mail.map((message) => message.subject)).toStrictEqual([
      'Spend alert: 50% of your monthly spend cap reached',
    ]);
    expect(mail[0]?.text).toContain('Your account has spent AUD 40.00 of its AUD 80.00 monthly spend cap');
    expect(mail[0]?.text).toContain('test mode: counted at example prices, never billed');
  });
});
