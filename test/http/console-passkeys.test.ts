/**
 * Passkeys over HTTP against the local stack (DynamoDB Local), with a software authenticator: a
 * billing member registers one and signs in with it; the session it opens is the member's, and
 * audited; a replayed answer, and two answers racing for one challenge, open one session; a
 * removed member's passkey (deleted with it) signs in no one; a key's session has no passkeys;
 * the sign-in routes refuse another site; credentials never reach the logs' request lines.
 * The browser journey with Chromium's virtual authenticator: console-passkeys-journey.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoConsolePasskeys } from '../../shared/console/adapters/dynamodb-passkeys.ts';
import { baseUrl, createKey } from '../support/api.ts';
import {
  type ConsoleSession,
  consoleAuthorization,
  inviteAndSignIn,
  keyAdmin,
  sessionTokenOf,
  signIn,
  withSession,
} from '../support/console.ts';
import { localStack } from '../support/stack.ts';
import { SoftwareAuthenticator, type WebAuthnOptions } from '../support/webauthn.ts';

const address = (who: string) => `${who}+${randomBytes(4).toString('hex')}@example.com`;
const origin = new URL(baseUrl).origin;

/** A sign-in route, as the console's page calls it (same origin, no session). */
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', ...headers },
    body: JSON.stringify(body),
  });

async function signInOptions(): Promise<WebAuthnOptions> {
  const response = await post('/console/sign-in/passkey/options', {});
  expect(response.status).toBe(200);
  const body = (await response.json()) as { object: string; options: WebAuthnOptions };
  expect(body.object).toBe('passkeySignInOptions');
  return body.options;
}

async function registerFor(member: ConsoleSession, authenticator: SoftwareAuthenticator, name?: string) {
  const started = await withSession(member, '/console/passkeys/options', { method: 'POST', body: {} });
  expect(started.status).toBe(200);
  const options = started.body.options as unknown as WebAuthnOptions;
  return withSession(member, '/console/passkeys', {
    method: 'POST',
    body: { response: authenticator.register(options), ...(name ? { name } : {}) },
  });
}

describe('passkeys over HTTP', () => {
  let admin: ConsoleSession;
  let member: ConsoleSession & { memberId: string };
  const email = address('billing');
  const authenticator = new SoftwareAuthenticator(origin);

  it('a billing member registers a passkey and lists it', async () => {
    admin = await signIn((await createKey('test')).secret);
    member = await inviteAndSignIn(admin, email, 'billing');
    const started = await withSession(member, '/console/passkeys/options', { method: 'POST', body: {} });
    expect(started.status).toBe(200);
    expect(started.body.options).toMatchObject({
      rp: { id: 'localhost', name: 'Company Register Data Service' },
      user: { name: email },
      attestation: 'none',
    });
    const made = await registerFor(member, authenticator, 'Test laptop');
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      object: 'passkey',
      name: 'Test laptop',
      deviceType: 'singleDevice',
      lastUsedAt: null,
    });
    const listed = await withSession(member, '/console/passkeys');
    expect(listed.status).toBe(200);
    expect((listed.body.data as { id: string }[]).map((p) => p.id)).toEqual([made.body.id]);
  });

  it('signs in with it: a session of the member, audited, the passkey marked used', async () => {
    const answer = authenticator.authenticate(await signInOptions());
    const response = await post('/console/sign-in/passkey', { response: answer });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'passkeySignIn', environment: 'test' });
    const token = sessionTokenOf(response);
    const session = await fetch(`${baseUrl}/console/session`, {
      headers: { Cookie: `__Host-crds_console=${token}`, Authorization: consoleAuthorization(token) },
    });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({
      role: 'billing',
      member: { memberId: member.memberId, email },
    });
    const listed = await withSession(member, '/console/passkeys');
    expect((listed.body.data as { lastUsedAt: string | null }[])[0]?.lastUsedAt).not.toBeNull();
    const { audit } = await keyAdmin.list(admin.accountId);
    const signedIn = audit.filter((a) => a.action === 'signed_in' && a.keyId === member.memberId);
    expect(signedIn.some((a) => a.detail.includes('(passkey Test laptop,'))).toBe(true);
    expect(audit.some((a) => a.action === 'passkey_registered' && a.keyId === member.memberId)).toBe(true);

    // The same answer again: its challenge is spent.
    const replayed = await post('/console/sign-in/passkey', { response: answer });
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as { error: { code: string } }).error).toMatchObject({
      code: 'passkey_challenge_invalid',
      param: 'response',
      message: 'The challenge was answered already: each works once. Start again.',
    });
  });

  it('two answers racing for one challenge open one session', async () => {
    const options = await signInOptions();
    const answers = [0, 1, 2].map(() => authenticator.authenticate(options));
    const statuses = (
      await Promise.all(answers.map((answer) => post('/console/sign-in/passkey', { response: answer })))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 400)).toBe(true);
  });

  it('refuses a sign-in from another site', async () => {
    const answer = authenticator.authenticate(await signInOptions());
    const response = await post(
      '/console/sign-in/passkey',
      { response: answer },
      { 'Sec-Fetch-Site': 'cross-site' },
    );
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('csrf_token_invalid');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('a malformed answer is a validation error, before anything is read', async () => {
    const response = await post('/console/sign-in/passkey', { response: { id: 'not base64url!' } });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('validation_error');
  });

  it("a key's session has no passkeys", async () => {
    const refused = await withSession(admin, '/console/passkeys/options', { method: 'POST', body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'passkey_member_only', type: 'permission_error' });
  });

  it("a member removes its own passkey; another member's id is not found", async () => {
    const second = new SoftwareAuthenticator(origin);
    const made = await registerFor(member, second);
    expect(made.status).toBe(201);
    const other = await inviteAndSignIn(admin, address('dev'), 'developer');
    const notTheirs = await withSession(other, `/console/passkeys/${made.body.id}`, { method: 'DELETE' });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.error?.code).toBe('passkey_not_found');
    const removed = await withSession(member, `/console/passkeys/${made.body.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ object: 'removedPasskey', id: made.body.id });
    const answer = second.authenticate(await signInOptions());
    const refused = await post('/console/sign-in/passkey', { response: answer });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('passkey_not_recognised');
  });

  it("removing the member deletes its passkeys: the member's passkey signs in no more", async () => {
    const stored = new DynamoConsolePasskeys(localStack.tableNames.keys);
    expect(await stored.findByCredentialId(authenticator.id)).toMatchObject({ memberId: member.memberId });
    const removed = await withSession(admin, `/console/members/${member.memberId}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await stored.findByCredentialId(authenticator.id)).toBeUndefined();
    const answer = authenticator.authenticate(await signInOptions());
    const refused = await post('/console/sign-in/passkey', { response: answer });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string; type: string } }).error).toMatchObject({
      code: 'passkey_not_recognised',
      type: 'authentication_error',
    });
    const listed = await withSession(member, '/console/passkeys');
    expect(listed.status).toBe(401);
  });
});
