/**
 * Signing in to the console (shared/console/sign-in.ts) and what a session may do: a single-use
 * link valid 5 minutes, an HttpOnly/Secure/SameSite=Strict cookie, CSRF on every change, sign-out
 * and key revocation ending the session at once, audit records; and every abuse (expired or reused
 * link, another account's or environment's data, missing or wrong CSRF token, a revoked key's
 * session) answered with a clear page or the envelope, changing nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../shared/console/pages.ts';
import { hashToken, newToken } from '../../shared/kernel/sessions.ts';
import { baseUrl, call, clock, createKey, revokeKey } from '../support/api.ts';
import {
  consoleAuthorization,
  keyAdmin,
  openLink,
  sessionTokenOf,
  signIn,
  signInLink,
  viewLink,
  withSession,
} from '../support/console.ts';
import { testPorts } from '../support/ports.ts';

afterEach(async () => {
  await clock.reset();
});

const endpointBody = { url: 'https://hooks.example.com/console', enabledEvents: ['order.ready'] };

describe('POST /v1/console/sessions', () => {
  it('gives a link to /console/sign-in valid for 5 minutes, for the key', async () => {
    const key = await createKey('test');
    const before = Date.now();
    const response = await call<{
      object: string;
      url: string;
      expiresAt: string;
      meta: { requestId: string };
    }>('/v1/console/sessions', { key: key.secret, method: 'POST', body: {} });
    expect(response.status).toBe(201);
    expect(response.body.object).toBe('consoleLink');
    expect(response.body.url).toMatch(/\/console\/sign-in\?token=[A-Za-z0-9_-]{43}$/);
    expect(new URL(response.body.url).port).toBe(new URL(baseUrl).port);
    const ttl = Date.parse(response.body.expiresAt) - before;
    expect(ttl).toBeGreaterThan(5 * 60_000 - 5_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 5_000);
  });

  it('refuses a console session: only a key makes a link', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    const response = await withSession(session, '/v1/console/sessions', { method: 'POST', body: {} });
    expect(response.status).toBe(401);
    expect(response.body.error?.code).toBe('unauthorized');
  });

  it('refuses a request without a key', async () => {
    const response = await call('/v1/console/sessions', { method: 'POST', body: {} });
    expect(response.status).toBe(401);
  });
});

describe('the sign-in link', () => {
  it('shows a page on GET that spends nothing, and signs in only from its button (a POST)', async () => {
    const key = await createKey('test');
    const url = await signInLink(key.secret);
    // A mail or chat scanner fetches the link, twice: each sees the page, nothing is spent.
    for (let i = 0; i < 2; i++) {
      const viewed = await viewLink(url);
      expect(viewed.status).toBe(200);
      expect(viewed.headers.get('set-cookie')).toBeNull();
      expect(viewed.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(viewed.headers.get('cache-control')).toBe('no-store');
      expect(viewed.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      const page = await viewed.text();
      expect(page).toContain('<form method="post" action="sign-in?token=');
      expect(page).toContain('<button type="submit">Sign in</button>');
    }
    expect((await keyAdmin.list(key.accountId)).audit).toEqual([]);
    // The owner's button then signs in.
    expect((await openLink(url)).status).toBe(303);
  });

  it('ignores arguments it does not know (utm_source…) on the page and on sign-in', async () => {
    const key = await createKey('test');
    const url = `${await signInLink(key.secret)}&utm_source=mail&utm_medium=x`;
    const viewed = await viewLink(url);
    expect(viewed.status).toBe(200);
    expect(await viewed.text()).toContain('Sign in to the account console');
    expect((await openLink(url)).status).toBe(303);
  });

  it('answers an unknown, a malformed and a missing token with the "does not work" page (404), never JSON', async () => {
    for (const url of [
      `${baseUrl}/console/sign-in?token=${'A'.repeat(43)}`,
      `${baseUrl}/console/sign-in?token=not-a-token`,
      `${baseUrl}/console/sign-in?token=${'A'.repeat(400)}`,
      `${baseUrl}/console/sign-in`,
      `${baseUrl}/console/sign-in?utm_source=x`,
    ]) {
      for (const answer of [await viewLink(url), await openLink(url)]) {
        expect(answer.status, url).toBe(404);
        expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await answer.text()).toContain('This sign-in link does not work');
      }
    }
  });

  it('tells a used link (410 "has been used") from an expired one (410 "has expired") on GET and POST', async () => {
    const key = await createKey('test');
    const used = await signInLink(key.secret);
    expect((await openLink(used)).status).toBe(303);
    const expired = await signInLink(key.secret);
    await clock.advance(5 * 60_000 + 1_000);
    for (const [url, text] of [
      [used, 'This sign-in link has been used'],
      [expired, 'This sign-in link has expired'],
    ] as const) {
      for (const answer of [await viewLink(url), await openLink(url)]) {
        expect(answer.status, text).toBe(410);
        expect(answer.headers.get('set-cookie')).toBeNull();
        expect(await answer.text()).toContain(text);
      }
    }
  });

  it('refuses a sign-in posted from another site (login CSRF), and the link still works', async () => {
    const key = await createKey('test');
    const url = await signInLink(key.secret);
    for (const headers of [
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } as Record<string, string>,
      { Origin: 'https://evil.example' },
      // A sandboxed frame of another site; and an older browser that sends no Sec-Fetch-Site.
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ]) {
      const refused = await openLink(url, headers);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(await refused.text()).toContain('Sign in from the link’s own page');
    }
    // As Chromium posts the page's form (its no-referrer policy makes the Origin null).
    expect((await openLink(url, { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })).status).toBe(303);
  });

  it('opens a session once: a strict cookie, the console headers, and an audit record', async () => {
    const key = await createKey('test');
    const url = await signInLink(key.secret);
    const opened = await openLink(url);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('../console');
    const cookie = opened.headers.get('set-cookie') as string;
    expect(cookie).toMatch(
      /^__Host-crds_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Strict; Max-Age=28800$/,
    );
    expect(opened.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(opened.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    expect(opened.headers.get('cache-control')).toBe('no-store');

    const again = await openLink(url);
    expect(again.status).toBe(410);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('This sign-in link has been used');

    const session = await testPorts.apiKeys.findSession(hashToken(sessionTokenOf(opened)));
    expect(session).toMatchObject({
      accountId: key.accountId,
      environment: 'test',
      keyId: key.keyId,
      revokedAt: null,
    });
    const { audit } = await keyAdmin.list(key.accountId);
    expect(audit.map((record) => [record.action, record.keyId, record.by])).toEqual([
      ['signed_in', key.keyId, `console:${session?.sessionId}`],
    ]);
  });

  it('opens one session when the same link is opened five times at once', async () => {
    const key = await createKey('test');
    const url = await signInLink(key.secret);
    const answers = await Promise.all(Array.from({ length: 5 }, () => openLink(url)));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 410, 410, 410, 410]);
    const { audit } = await keyAdmin.list(key.accountId);
    expect(audit.filter((record) => record.action === 'signed_in')).toHaveLength(1);
  });

  it('refuses a link past its 5 minutes with a page, and opens nothing', async () => {
    const key = await createKey('test');
    const url = await signInLink(key.secret);
    await clock.advance(5 * 60_000 + 1_000);
    const opened = await openLink(url);
    expect(opened.status).toBe(410);
    expect(opened.headers.get('set-cookie')).toBeNull();
    expect(opened.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await opened.text()).toContain('This sign-in link has expired');
    expect((await keyAdmin.list(key.accountId)).audit).toEqual([]);
  });

  it('refuses the link of a key revoked since it was made', async () => {
    const key = await createKey('test');
    const url = await signInLink(key.secret);
    await revokeKey(key);
    const opened = await openLink(url);
    expect(opened.status).toBe(404);
    expect(opened.headers.get('set-cookie')).toBeNull();
  });
});

describe('a console session', () => {
  it("reads the API as its key's account and environment", async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    expect(session).toMatchObject({ accountId: key.accountId, environment: 'test' });
    const usage = await withSession(session, '/v1/usage');
    expect(usage.status).toBe(200);
    expect(usage.body.object).toBe('list');
  });

  it('changes nothing without its CSRF token, or with another session’s', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    const other = await signIn((await createKey('test')).secret);
    for (const csrf of [null, '', other.csrfToken, `${session.csrfToken}x`]) {
      const response = await withSession(session, '/v1/webhook-endpoints', {
        method: 'POST',
        body: endpointBody,
        csrf,
      });
      expect(response.status, String(csrf)).toBe(403);
      expect(response.body.error).toMatchObject({
        type: 'permission_error',
        code: 'csrf_token_invalid',
        param: null,
      });
    }
    const listed = await call<{ data: unknown[] }>('/v1/webhook-endpoints', { key: key.secret });
    expect(listed.body.data).toEqual([]);
    const made = await withSession(session, '/v1/webhook-endpoints', { method: 'POST', body: endpointBody });
    expect(made.status).toBe(201);
  });

  it("sees nothing of another account's endpoint", async () => {
    const a = await createKey('test');
    const b = await createKey('test');
    const made = await call<{ id: string }>('/v1/webhook-endpoints', {
      key: b.secret,
      method: 'POST',
      body: endpointBody,
    });
    const session = await signIn(a.secret);
    const read = await withSession(session, `/v1/webhook-endpoints/${made.body.id}`);
    expect(read.status).toBe(403);
    expect(read.body.error?.code).toBe('webhook_endpoint_owner_mismatch');
    const disable = await withSession(session, `/v1/webhook-endpoints/${made.body.id}`, {
      method: 'PATCH',
      body: { status: 'disabled' },
    });
    expect(disable.status).toBe(403);
    const still = await call<{ status: string }>(`/v1/webhook-endpoints/${made.body.id}`, { key: b.secret });
    expect(still.body.status).toBe('enabled');
  });

  it("cannot roll or revoke a key of the other environment, or another account's", async () => {
    const test = await createKey('test');
    const live = await createKey('live', { accountId: test.accountId });
    const stranger = await createKey('test');
    const session = await signIn(test.secret);
    for (const target of [live, stranger]) {
      const rolled = await withSession(session, `/console/keys/${target.keyId}/roll`, {
        method: 'POST',
        body: { grace: '1h' },
      });
      expect(rolled.status).toBe(404);
      expect(rolled.body.error).toMatchObject({ code: 'api_key_not_found', param: 'keyId' });
      const revoked = await withSession(session, `/console/keys/${target.keyId}/revoke`, {
        method: 'POST',
        body: {},
      });
      expect(revoked.status).toBe(404);
    }
    expect((await call('/v1/usage', { key: live.secret })).status).toBe(200);
    expect((await call('/v1/usage', { key: stranger.secret })).status).toBe(200);
    const keys = await withSession(session, '/console/keys');
    const listed = keys.body.data as { id: string; lastUsedHour: string | null }[];
    expect(listed.map((k) => k.id)).toEqual([test.keyId]);
    // Used by the sign-in link's request: recorded to the hour.
    expect(listed[0]?.lastUsedHour).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00Z$/);
  });

  it("refuses a roll's grace outside 1h, 24h and 7d with the envelope, and rolls nothing", async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    for (const grace of ['2h', '', 24, null]) {
      const rolled = await withSession(session, `/console/keys/${key.keyId}/roll`, {
        method: 'POST',
        body: { grace },
      });
      expect(rolled.status, String(grace)).toBe(422);
      expect(rolled.body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'validation_error',
        param: 'grace',
      });
    }
    const missing = await withSession(session, `/console/keys/${key.keyId}/roll`, {
      method: 'POST',
      body: {},
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: 'validation_error', param: 'grace' });
    const keys = await withSession(session, '/console/keys');
    expect(
      (keys.body.data as { id: string; expiresAt: string | null }[]).map((k) => [k.id, k.expiresAt]),
    ).toEqual([[key.keyId, null]]);
  });

  it('is refused at the gateway with the 401 envelope when its edge token is forged, absent or the old marker', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    for (const authorization of [
      'Console-Session',
      `Console-Session ${hashToken(newToken())}`,
      `Console-Session ${session.token}`,
      '',
    ]) {
      // The session's own cookie does not help a made-up edge token through.
      const response = await fetch(`${baseUrl}/v1/usage`, {
        headers: { Cookie: session.cookie, ...(authorization ? { Authorization: authorization } : {}) },
      });
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(response.status, authorization).toBe(401);
      expect(body.error).toMatchObject({
        type: 'authentication_error',
        code: 'unauthorized',
        param: null,
        requestId: response.headers.get('x-request-id'),
      });
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      expect(response.headers.get('ratelimit-limit')).toBe('600');
      expect(response.headers.get('ratelimit-remaining')).toBe('600');
    }
    // A real edge token without its HttpOnly cookie passes the gateway and opens nothing.
    const noCookie = await fetch(`${baseUrl}/v1/usage`, {
      headers: { Authorization: consoleAuthorization(session.token) },
    });
    expect(noCookie.status).toBe(401);
  });

  it('ends when its key is revoked', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    await revokeKey(key);
    const response = await withSession(session, '/console/session');
    expect(response.status).toBe(401);
    expect(response.body.error?.code).toBe('unauthorized');
  });

  it('ends after 8 hours', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    await clock.advance(8 * 60 * 60_000 + 1_000);
    expect((await withSession(session, '/v1/usage')).status).toBe(401);
  });

  it('signs out: the cookie is cleared, the session refused from then on, and the sign-out recorded', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    const refused = await withSession(session, '/console/sign-out', { method: 'POST', body: {}, csrf: null });
    expect(refused.status).toBe(403);
    const out = await withSession(session, '/console/sign-out', { method: 'POST', body: {} });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe(
      '__Host-crds_console=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0',
    );
    expect((await withSession(session, '/v1/usage')).status).toBe(401);
    const { audit } = await keyAdmin.list(key.accountId);
    expect(audit.map((record) => record.action)).toEqual(['signed_in', 'signed_out']);
  });

  it('rolls its key with a grace period: the new secret once, both keys working, the change recorded', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    const rolled = await withSession(session, `/console/keys/${key.keyId}/roll`, {
      method: 'POST',
      body: { grace: '1h' },
    });
    expect(rolled.status).toBe(200);
    const secret = rolled.body.secret as string;
    expect(secret).toMatch(/^sk_test_/);
    expect((await call('/v1/usage', { key: secret })).status).toBe(200);
    expect((await call('/v1/usage', { key: key.secret })).status).toBe(200);
    const { audit } = await keyAdmin.list(key.accountId);
    expect(audit.map((record) => [record.action, record.by])).toEqual([
      ['signed_in', `console:${session.sessionId}`],
      ['rotated', `console:${session.sessionId}`],
    ]);
    await clock.advance(60 * 60_000 + 1_000);
    expect((await call('/v1/usage', { key: key.secret })).status).toBe(401);
    expect((await call('/v1/usage', { key: secret })).status).toBe(200);
  });

  it('is not the key: console routes refuse a key, and the session needs no key', async () => {
    const key = await createKey('test');
    const response = await fetch(`${baseUrl}/console/keys`, {
      headers: { Authorization: `Bearer ${key.secret}` },
    });
    expect(response.status).toBe(401);
  });
});
