/**
 * The console's key creation and labels (shared/console/keys.ts) against the local stack: a key of
 * the session's account and environment whose secret is answered once and stored only as its
 * hash; the same client token never makes a second key, even sent at once; at most 20 usable keys,
 * even when creations race; labels validated with the envelope, set on a key the console did not
 * make, and audited; CSRF, another account's key and a key instead of a session refused.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeySecret, hashKey, newKeyRecord } from '../../shared/kernel/api-keys.ts';
import { MAX_USABLE_KEYS, newAuditRecord } from '../../shared/kernel/key-admin.ts';
import { baseUrl, call, clock, createKey, revokeKey } from '../support/api.ts';
import { type ConsoleSession, keyAdmin, signIn, withSession } from '../support/console.ts';

afterEach(async () => {
  await clock.reset();
});

interface PresentedKey {
  id: string;
  label: string | null;
  name: string;
  environment: string;
  status: string;
  lastFour: string;
}

const create = (session: ConsoleSession, body: Record<string, unknown>, csrf?: string | null) =>
  withSession(session, '/console/keys', { method: 'POST', body, ...(csrf === undefined ? {} : { csrf }) });

const listed = async (session: ConsoleSession) =>
  ((await withSession(session, '/console/keys')).body.data as PresentedKey[]).map((key) => key.id).sort();

describe('POST /console/keys', () => {
  it("creates a key of the session's account and environment, its secret answered once and stored as its hash", async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    const made = await create(session, { label: 'Billing service', clientToken: randomUUID() });
    expect(made.status).toBe(201);
    const secret = made.body.secret as string;
    expect(secret).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    const presented = made.body.key as PresentedKey;
    expect(presented).toMatchObject({
      object: 'apiKey',
      label: 'Billing service',
      name: 'Billing service',
      environment: 'test',
      status: 'active',
      lastFour: secret.slice(-4),
      expiresAt: null,
      revokedAt: null,
      lastUsedHour: null,
    });
    // The new key works against the API, as a client sends it.
    const used = await fetch(`${baseUrl}/v1/usage`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(used.status).toBe(200);
    // Stored by its hash; the secret itself is nowhere in the table's record of it.
    expect(await keyAdmin.hashOf(key.accountId, presented.id)).toBe(hashKey(secret));
    const { keys, audit } = await keyAdmin.list(key.accountId);
    expect(JSON.stringify({ keys, audit })).not.toContain(secret);
    expect(audit.filter((record) => record.action === 'created')).toMatchObject([
      {
        keyId: presented.id,
        by: `console:${session.sessionId}`,
        detail: 'test key, labelled "Billing service"',
      },
    ]);
    expect(await listed(session)).toEqual([key.keyId, presented.id].sort());
  });

  it('makes a live key from a live session, and an unlabelled key goes by its environment and last four', async () => {
    const key = await createKey('live');
    const session = await signIn(key.secret);
    const made = await create(session, { clientToken: randomUUID() });
    expect(made.status).toBe(201);
    const secret = made.body.secret as string;
    expect(secret).toMatch(/^sk_live_/);
    expect(made.body.key).toMatchObject({
      environment: 'live',
      label: null,
      name: `Live key …${secret.slice(-4)}`,
    });
    expect((await call('/v1/usage', { key: secret })).status).toBe(200);
  });

  it('makes one key per client token: a repeat, even sent at once, answers that key without its secret', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    const clientToken = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => create(session, { label: 'Double click', clientToken })),
    );
    const made = answers.filter((answer) => answer.status === 201);
    expect(made).toHaveLength(1);
    const madeKey = made[0]?.body.key as PresentedKey;
    expect(made[0]?.body.secret).toMatch(/^sk_test_/);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ object: 'createdKey', secret: null, key: { id: madeKey.id } });
    }
    const later = await create(session, { clientToken });
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ secret: null, key: { id: madeKey.id, label: 'Double click' } });
    expect(await listed(session)).toEqual([key.keyId, madeKey.id].sort());
    const { audit } = await keyAdmin.list(key.accountId);
    expect(audit.filter((record) => record.action === 'created')).toHaveLength(1);
    // Another token is another key.
    expect((await create(session, { clientToken: randomUUID() })).status).toBe(201);
  });

  it(`stops at ${MAX_USABLE_KEYS} usable keys, even when creations race; revoked and expired keys do not count`, async () => {
    const key = await createKey('test');
    const others = await Promise.all(
      Array.from({ length: MAX_USABLE_KEYS - 3 }, () => createKey('test', { accountId: key.accountId })),
    );
    // Neither the other environment's keys nor revoked or expired ones count.
    await createKey('live', { accountId: key.accountId });
    await revokeKey(await createKey('test', { accountId: key.accountId }));
    await createKey('test', { accountId: key.accountId, expiresAt: new Date(Date.now() + 60_000) });
    await clock.advance(2 * 60_000);
    const session = await signIn(key.secret);
    // 18 usable: of 10 racing creations, 2 are made and 8 refused.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        create(session, { label: `Race ${n}`, clientToken: randomUUID() }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, ...Array(8).fill(400)]);
    for (const refused of answers.filter((answer) => answer.status === 400))
      expect(refused.body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'api_key_limit_reached',
        param: null,
        details: { limit: MAX_USABLE_KEYS },
      });
    const usable = (await withSession(session, '/console/keys')).body.data as PresentedKey[];
    expect(usable.filter((k) => k.status === 'active')).toHaveLength(MAX_USABLE_KEYS);
    // Revoking one makes room for one.
    await revokeKey(others[0] as (typeof others)[number]);
    expect((await create(session, { clientToken: randomUUID() })).status).toBe(201);
    expect((await create(session, { clientToken: randomUUID() })).status).toBe(400);
  });

  it('holds the limit and the client token in the store itself, for creations issued all at once', async () => {
    const now = new Date();
    const attempt = (accountId: string, requestHash: string) => {
      const { hash, record } = newKeyRecord(generateKeySecret('test'), accountId, now);
      const audit = newAuditRecord(
        { accountId, action: 'created', keyId: record.keyId, by: 'test', detail: 'race' },
        now,
      );
      return keyAdmin.createForRequest({ hash, record, audit, requestHash, limit: 3, now });
    };
    // Every read happens before any write: without the ledger's version, all of them would be made.
    const crowded = `acct_race${randomUUID().slice(0, 8)}`;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, n) => attempt(crowded, `request-${n}`)),
    );
    expect(outcomes.filter((o) => o.outcome === 'created')).toHaveLength(3);
    expect(outcomes.filter((o) => o.outcome === 'limit')).toHaveLength(7);
    expect((await keyAdmin.list(crowded)).keys).toHaveLength(3);

    const clicked = `acct_twin${randomUUID().slice(0, 8)}`;
    const twins = await Promise.all(Array.from({ length: 6 }, () => attempt(clicked, 'one-click')));
    expect(twins.filter((o) => o.outcome === 'created')).toHaveLength(1);
    const { keys } = await keyAdmin.list(clicked);
    expect(keys).toHaveLength(1);
    expect(twins.filter((o) => o.outcome === 'duplicate')).toEqual(
      Array(5).fill({ outcome: 'duplicate', keyId: keys[0]?.keyId }),
    );
  });

  it.each([
    [{ label: '', clientToken: randomUUID() }, 'label'],
    [{ label: ' padded', clientToken: randomUUID() }, 'label'],
    [{ label: 'x'.repeat(41), clientToken: randomUUID() }, 'label'],
    [{ label: '<script>', clientToken: randomUUID() }, 'label'],
    [{ label: 'tab\there', clientToken: randomUUID() }, 'label'],
    [{ label: 7, clientToken: randomUUID() }, 'label'],
    [{ label: 'Fine' }, 'clientToken'],
    [{ clientToken: 'short' }, 'clientToken'],
    [{ clientToken: `${randomUUID()}!` }, 'clientToken'],
  ])('refuses %j with 422 validation_error on %s, creating nothing', async (body, param) => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    const refused = await create(session, body);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'validation_error',
      param,
    });
    expect(await listed(session)).toEqual([key.keyId]);
  });

  it('needs the CSRF token and a console session: a key cannot create keys here', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    for (const csrf of [null, 'not-the-token']) {
      const refused = await create(session, { clientToken: randomUUID() }, csrf);
      expect(refused.status).toBe(403);
      expect(refused.body.error?.code).toBe('csrf_token_invalid');
    }
    const withKey = await fetch(`${baseUrl}/console/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key.secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ clientToken: randomUUID() }),
    });
    expect(withKey.status).toBe(401);
    expect(await listed(session)).toEqual([key.keyId]);
    expect((await keyAdmin.list(key.accountId)).audit.map((record) => record.action)).toEqual(['signed_in']);
  });
});

describe('POST /console/keys/{keyId}/label', () => {
  it('names a key the console did not make, removes the name with null, each change audited', async () => {
    const key = await createKey('test');
    const seeded = await createKey('test', { accountId: key.accountId });
    const session = await signIn(key.secret);
    const path = `/console/keys/${seeded.keyId}/label`;
    const named = await withSession(session, path, {
      method: 'POST',
      body: { label: 'Zürich CI (staging)' },
    });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({
      id: seeded.keyId,
      label: 'Zürich CI (staging)',
      name: 'Zürich CI (staging)',
    });
    const page = (await withSession(session, '/console/keys')).body.data as PresentedKey[];
    expect(page.find((k) => k.id === seeded.keyId)?.name).toBe('Zürich CI (staging)');
    // The key still works, and still is the same key.
    expect((await call('/v1/usage', { key: seeded.secret })).status).toBe(200);

    const removed = await withSession(session, path, { method: 'POST', body: { label: null } });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ label: null, name: `Test key …${seeded.secret.slice(-4)}` });
    const { audit } = await keyAdmin.list(key.accountId);
    expect(
      audit
        .filter((record) => record.action === 'labelled')
        .map((record) => [record.keyId, record.by, record.detail]),
    ).toEqual([
      [seeded.keyId, `console:${session.sessionId}`, 'labelled "Zürich CI (staging)"'],
      [seeded.keyId, `console:${session.sessionId}`, 'label removed'],
    ]);
  });

  it("refuses a bad label with the envelope, and another account's or environment's key as no key", async () => {
    const key = await createKey('test');
    const live = await createKey('live', { accountId: key.accountId });
    const stranger = await createKey('test');
    const session = await signIn(key.secret);
    for (const label of ['', 'x'.repeat(41), 'new\nline', '-dash first', 'ends with space ']) {
      const refused = await withSession(session, `/console/keys/${key.keyId}/label`, {
        method: 'POST',
        body: { label },
      });
      expect(refused.status, JSON.stringify(label)).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'validation_error', param: 'label' });
    }
    const missing = await withSession(session, `/console/keys/${key.keyId}/label`, {
      method: 'POST',
      body: {},
    });
    expect(missing.body.error).toMatchObject({ code: 'validation_error', param: 'label' });
    for (const target of [live, stranger]) {
      const refused = await withSession(session, `/console/keys/${target.keyId}/label`, {
        method: 'POST',
        body: { label: 'Mine now' },
      });
      expect(refused.status).toBe(404);
      expect(refused.body.error).toMatchObject({ code: 'api_key_not_found', param: 'keyId' });
    }
    expect((await keyAdmin.find(stranger.accountId, stranger.keyId))?.label).toBeUndefined();
    expect((await keyAdmin.find(key.accountId, live.keyId))?.label).toBeUndefined();
    expect((await keyAdmin.find(key.accountId, key.keyId))?.label).toBeUndefined();
  });

  it('keeps the label on the key a roll makes', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    await withSession(session, `/console/keys/${key.keyId}/label`, {
      method: 'POST',
      body: { label: 'Web app' },
    });
    const rolled = await withSession(session, `/console/keys/${key.keyId}/roll`, {
      method: 'POST',
      body: { grace: '1h' },
    });
    expect(rolled.status).toBe(200);
    expect(rolled.body.key).toMatchObject({ label: 'Web app', name: 'Web app' });
  });
});
