import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import {
  buyExtract,
  call,
  createKey,
  errorOf,
  expectError,
  registryPurchases,
  sweepLater,
  type TestKey,
  validationError,
} from '../support/api.ts';
import { type ConsoleSession, inviteAndSignIn, signIn, withSession } from '../support/console.ts';
import { outbox } from '../support/orders.ts';
import { alertsOf, capOf, type SpendCapBody, setCap, usageOf } from '../support/spend-caps.ts';

/**
 * Monthly spend caps (issue 43, part 1): set, read and cleared through the API; a purchase that would
 * pass a cap refused before the registry; a burst unable to pass a cap; alerts as events. Example
 * prices of the local stack: current extract 2500 cents, historical 4000.
 */

const month = () => new Date().toISOString().slice(0, 7);
/** An admin member of the key's account, signed in with the emailed link: who may raise and remove caps. */
const adminMember = async (key: TestKey) =>
  inviteAndSignIn(await signIn(key.secret), `admin-${randomUUID()}@example.com`, 'admin');
const adminSets = (session: ConsoleSession, path: string, body?: Record<string, unknown>) =>
  withSession(session, `/v1/spend-caps/${path}`, body ? { method: 'PUT', body } : { method: 'DELETE' });

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

    const cleared = await adminSets(await adminMember(key), 'account');
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
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

describe('who may change a cap', () => {
  const forbidden = (change: 'raise' | 'remove', which: string) => ({
    type: 'permission_error',
    code: 'spend_cap_raise_forbidden',
    param: null,
    message: `Only an admin member signed in to the console may ${change} ${which}; an API key, or a session opened with one, may only set a cap where none is set or lower one.`,
  });

  it('a key sets a first cap and lowers it, never raises or removes one, its own included; nor does a session opened with its link', async () => {
    const key = await createKey('test');
    const other = await createKey('test', { accountId: key.accountId });
    expect((await setCap(key, 'account', { amountCents: 10_000 })).status).toBe(200);
    expect((await setCap(key, `keys/${key.keyId}`, { amountCents: 5_000 })).status).toBe(200);
    expect((await setCap(key, `keys/${other.keyId}`, { amountCents: 5_000 })).status).toBe(200);
    const lowered = await setCap(key, 'account', { amountCents: 9_000, alertEmails: ['cfo@example.com'] });
    expect(lowered.status, lowered.text).toBe(200);
    expect(lowered.body).toMatchObject({ amountCents: 9_000, alertEmails: ['cfo@example.com'] });
    // The same amount is no raise (its alert emails may change).
    expect((await setCap(key, 'account', { amountCents: 9_000 })).status).toBe(200);

    expectError(
      await setCap(key, 'account', { amountCents: 9_001 }),
      403,
      forbidden('raise', "the account's spend cap"),
    );
    expectError(
      await setCap(key, `keys/${key.keyId}`, { amountCents: 6_000 }),
      403,
      forbidden('raise', `key ${key.keyId}'s spend cap`),
    );
    expectError(
      await setCap(other, `keys/${other.keyId}`, { amountCents: 6_000 }),
      403,
      forbidden('raise', `key ${other.keyId}'s spend cap`),
    );
    expectError(
      await call('/v1/spend-caps/account', { key: key.secret, method: 'DELETE' }),
      403,
      forbidden('remove', "the account's spend cap"),
    );
    expectError(
      await call(`/v1/spend-caps/keys/${key.keyId}`, { key: key.secret, method: 'DELETE' }),
      403,
      forbidden('remove', `key ${key.keyId}'s spend cap`),
    );
    // A session opened with the key's link stands for the key.
    const keySession = await signIn(key.secret);
    const raised = await adminSets(keySession, 'account', { amountCents: 20_000 });
    expect([raised.status, raised.body.error?.code]).toStrictEqual([403, 'spend_cap_raise_forbidden']);
    const removed = await adminSets(keySession, `keys/${key.keyId}`);
    expect([removed.status, removed.body.error?.code]).toStrictEqual([403, 'spend_cap_raise_forbidden']);

    const caps = await call<{ data: SpendCapBody[] }>('/v1/spend-caps', { key: key.secret });
    expect(caps.body.data.map((cap) => [cap.keyId, cap.amountCents])).toStrictEqual([
      [null, 9_000],
      // The account's cap, then the keys' in the order of their ids.
      ...[key.keyId, other.keyId].sort().map((keyId) => [keyId, 5_000]),
    ]);
  });

  it('an admin member raises and removes caps; a billing member may read them but change none', async () => {
    const key = await createKey('test');
    await setCap(key, 'account', { amountCents: 1_000 });
    const admin = await adminMember(key);
    const raised = await adminSets(admin, 'account', { amountCents: 50_000 });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body.amountCents).toBe(50_000);
    const billing = await inviteAndSignIn(
      await signIn(key.secret),
      `billing-${randomUUID()}@example.com`,
      'billing',
    );
    expect((await withSession(billing, '/v1/spend-caps/account')).body.amountCents).toBe(50_000);
    const refused = await adminSets(billing, 'account', { amountCents: 60_000 });
    expect([refused.status, refused.body.error?.code]).toStrictEqual([403, 'console_role_forbidden']);
    const removed = await adminSets(admin, 'account');
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await capOf(key, 'account')).body.amountCents).toBeNull();
  });

  it("a key's lowering racing an admin's lowering never leaves the key's higher amount (10 rounds)", async () => {
    const key = await createKey('test');
    const admin = await adminMember(key);
    for (let round = 0; round < 10; round++) {
      expect((await adminSets(admin, 'account', { amountCents: 10_000 })).status).toBe(200);
      const [byKey, byAdmin] = await Promise.all([
        setCap(key, 'account', { amountCents: 5_000 }),
        adminSets(admin, 'account', { amountCents: 1_000 }),
      ]);
      expect(byAdmin.status).toBe(200);
      // Before the admin's write it lowers 10,000 to 5,000; after it, it would raise 1,000.
      expect([200, 403]).toContain(byKey.status);
      if (byKey.status === 403) expect(errorOf(byKey).code).toBe('spend_cap_raise_forbidden');
      expect((await capOf(key, 'account')).body.amountCents).toBe(1_000);
    }
  });

  it('a cap set at or below what the month spent alerts its thresholds at once', async () => {
    const key = await createKey('test');
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'historical')).status).toBe(201);
    const set = await setCap(key, 'account', { amountCents: 100 });
    expect(set.body).toMatchObject({ spentCents: 4_000, remainingCents: 0, alertsSent: [50, 80, 100] });
    expect((await alertsOf(key)).map((event) => event.data.threshold).sort()).toStrictEqual([100, 50, 80]);
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
  it("mails each alert once to the account's billing and admin members and the cap's alert emails, when the sweeper publishes its event", async () => {
    const key = await createKey('test');
    const admin = await signIn(key.secret);
    const address = (role: string) => `${role}-${randomUUID()}@example.com`;
    const members = { billing: address('billing'), admin: address('admin'), developer: address('developer') };
    for (const [role, email] of Object.entries(members)) {
      const invited = await withSession(admin, '/console/members', { method: 'POST', body: { email, role } });
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    }
    // A member of another account gets nothing.
    const stranger = address('billing');
    const elsewhere = await signIn((await createKey('test')).secret);
    await withSession(elsewhere, '/console/members', {
      method: 'POST',
      body: { email: stranger, role: 'billing' },
    });
    const to = address('cfo');
    await setCap(key, 'account', { amountCents: 8_000, alertEmails: [to, members.billing.toUpperCase()] });
    const bought = await buyExtract(key.secret, SANDBOX.proprietary, 'historical');
    expect(bought.status, bought.text).toBe(201);
    await sweepLater();
    await sweepLater();
    const alerts = (await outbox()).filter((message) => message.subject.startsWith('Spend alert'));
    const sentTo = (email: string) => alerts.filter((message) => message.to === email).map((m) => m.subject);
    for (const email of [members.billing, members.admin, to]) {
      expect(sentTo(email), email).toStrictEqual(['Spend alert: 50% of your monthly spend cap reached']);
    }
    expect(sentTo(members.developer)).toStrictEqual([]);
    expect(sentTo(stranger)).toStrictEqual([]);
    const mail = alerts.find((message) => message.to === members.billing);
    expect(mail?.text).toContain('Your account has spent AUD 40.00 of its AUD 80.00 monthly spend cap');
    expect(mail?.text).toContain('test mode: counted at example prices, never billed');
  });
});
