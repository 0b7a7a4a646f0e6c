/**
 * Console members and roles (shared/console/members.ts, docs/console.md "Members and roles"): an
 * admin invites by email, the invitation's emailed link signs the member in, and the service (not
 * the page) refuses every route the member's role may not use with 403 console_role_forbidden,
 * called directly. Removing a member or changing its role ends its sessions at the next request,
 * although the gateway's authorizer cached its allow.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoConsoleMembers } from '../../shared/console/adapters/dynamodb-members.ts';
import { changeMemberRole, removeMember } from '../../shared/console/members.ts';
import { CONTENT_SECURITY_POLICY } from '../../shared/console/pages.ts';
import type { ConsoleMemberStore } from '../../shared/console/store-port.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import type { AuthContext } from '../../shared/kernel/http/handler-types.ts';
import { baseUrl, clock, createKey } from '../support/api.ts';
import {
  type ConsoleSession,
  inviteAndSignIn,
  keyAdmin,
  lastMailTo,
  linkIn,
  openLink,
  signIn,
  signInWithLink,
  viewLink,
  withSession,
} from '../support/console.ts';
import { outbox } from '../support/orders.ts';
import { localStack } from '../support/stack.ts';

const address = (who: string) => `${who}+${randomBytes(4).toString('hex')}@example.com`;

async function adminSession(): Promise<ConsoleSession> {
  const key = await createKey('test');
  return signIn(key.secret);
}

const forbidden = {
  status: 403,
  code: 'console_role_forbidden',
  type: 'permission_error',
};

/** What a billing member must never reach: keys, webhooks and their secrets, members, everything else. */
const billingRefused: { method: string; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/console/keys' },
  { method: 'POST', path: '/console/keys/key_00000000000000000000/roll', body: { grace: '1h' } },
  { method: 'POST', path: '/console/keys/key_00000000000000000000/revoke' },
  { method: 'GET', path: '/v1/webhook-endpoints' },
  { method: 'POST', path: '/v1/webhook-endpoints', body: { url: 'https://hooks.example.com/x' } },
  { method: 'GET', path: '/v1/webhook-endpoints/we_0000000000000000000000000' },
  { method: 'POST', path: '/v1/webhook-endpoints/we_0000000000000000000000000/rotate-secret' },
  { method: 'GET', path: '/v1/events' },
  { method: 'GET', path: '/console/members' },
  { method: 'POST', path: '/console/members', body: { email: 'x@example.com', role: 'admin' } },
  { method: 'PATCH', path: '/console/members/mem_00000000000000000000', body: { role: 'admin' } },
  { method: 'DELETE', path: '/console/members/mem_00000000000000000000' },
  { method: 'GET', path: '/v1/extracts' },
  { method: 'GET', path: '/v1/orders' },
  { method: 'GET', path: '/v1/monitors' },
  { method: 'GET', path: '/console/requests/req_00000000-0000-4000-8000-000000000000' },
  { method: 'POST', path: '/v1/console/sessions', body: {} },
];

describe('members and roles', () => {
  it('an admin invites billing@…: the email carries a link that signs the member in as billing', async () => {
    const admin = await adminSession();
    const email = address('billing');
    const invited = await withSession(admin, '/console/members', {
      method: 'POST',
      body: { email: email.toUpperCase(), role: 'billing' },
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      object: 'consoleMember',
      email,
      role: 'billing',
      status: 'invited',
      invitedBy: `console:${admin.sessionId}`,
      joinedAt: null,
    });
    expect(invited.body.id).toMatch(/^mem_[0-9a-f]{20}$/);
    const mail = await lastMailTo(email);
    expect(mail.subject).toBe('Your invitation to the account console');
    expect(mail.text).toContain(`account ${admin.accountId} (test), as billing`);
    const url = linkIn(mail);
    // A scanner's GET spends nothing: the link still signs in afterwards.
    expect((await viewLink(url)).status).toBe(200);
    const member = await signInWithLink(url);
    expect(member).toMatchObject({ accountId: admin.accountId, environment: 'test', role: 'billing' });
    const session = await withSession(member, '/console/session');
    expect(session.body.member).toEqual({ memberId: invited.body.id, email });
    const listed = await withSession(admin, '/console/members');
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: invited.body.id, status: 'active', joinedAt: expect.any(String) }),
    ]);
    // The invitation link works once.
    expect((await viewLink(url)).status).toBe(410);
  });

  it('a billing member reads usage, and every key, webhook, member and other route is 403 when called', async () => {
    const admin = await adminSession();
    const billing = await inviteAndSignIn(admin, address('billing'), 'billing');
    const usage = await withSession(billing, '/v1/usage');
    expect(usage.status).toBe(200);
    expect(usage.body.object).toBe('list');
    for (const route of billingRefused) {
      const response = await withSession(billing, route.path, { method: route.method, body: route.body });
      expect({
        route,
        status: response.status,
        code: response.body.error?.code,
        type: response.body.error?.type,
      }).toEqual({
        route,
        ...forbidden,
      });
    }
    // Nothing was changed by the refused calls.
    expect((await withSession(admin, '/console/members')).body.data).toHaveLength(1);
  });

  it('a developer uses keys and webhooks but never the members', async () => {
    const admin = await adminSession();
    const developer = await inviteAndSignIn(admin, address('dev'), 'developer');
    expect((await withSession(developer, '/console/keys')).status).toBe(200);
    expect((await withSession(developer, '/v1/webhook-endpoints')).status).toBe(200);
    expect((await withSession(developer, '/v1/usage')).status).toBe(200);
    for (const [method, path, body] of [
      ['GET', '/console/members', undefined],
      ['POST', '/console/members', { email: 'x@example.com', role: 'admin' }],
      ['DELETE', `/console/members/${developer.memberId}`, undefined],
      ['PATCH', `/console/members/${developer.memberId}`, { role: 'admin' }],
    ] as const) {
      const response = await withSession(developer, path, { method, body });
      expect([path, method, response.status, response.body.error?.code]).toEqual([
        path,
        method,
        403,
        'console_role_forbidden',
      ]);
    }
  });

  it('an admin member manages members; an address is a member once', async () => {
    const admin = await adminSession();
    const email = address('second-admin');
    const second = await inviteAndSignIn(admin, email, 'admin');
    expect((await withSession(second, '/console/members')).status).toBe(200);
    const again = await withSession(second, '/console/members', {
      method: 'POST',
      body: { email, role: 'billing' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'member_already_exists', param: 'email' });
  });

  it('checks the invitation before storing anything', async () => {
    const admin = await adminSession();
    const bad = await withSession(admin, '/console/members', {
      method: 'POST',
      body: { email: 'not an address', role: 'billing' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', param: 'email' });
    const role = await withSession(admin, '/console/members', {
      method: 'POST',
      body: { email: 'a@example.com', role: 'owner' },
    });
    expect(role.status).toBe(422);
    expect(role.body.error).toMatchObject({ code: 'validation_error', param: 'role' });
    expect((await withSession(admin, '/console/members')).body.data).toEqual([]);
  });

  it('a member of another account or environment is not found', async () => {
    const admin = await adminSession();
    const other = await adminSession();
    const member = await inviteAndSignIn(other, address('other'), 'billing');
    const removed = await withSession(admin, `/console/members/${member.memberId}`, { method: 'DELETE' });
    expect(removed.status).toBe(404);
    expect(removed.body.error).toMatchObject({ code: 'member_not_found', param: 'memberId' });
    expect((await withSession(member, '/v1/usage')).status).toBe(200);
  });

  it('removing a member ends its session at the next request, though the authorizer cached its allow', async () => {
    const admin = await adminSession();
    const member = await inviteAndSignIn(admin, address('leaving'), 'developer');
    // This call puts the session's allow in the local gateway's 300 s authorizer cache.
    expect((await withSession(member, '/console/keys')).status).toBe(200);
    const removed = await withSession(admin, `/console/members/${member.memberId}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ object: 'removedMember', id: member.memberId });
    const after = await withSession(member, '/console/keys');
    expect(after.status).toBe(401);
    expect(after.body.error?.code).toBe('unauthorized');
    expect((await withSession(member, '/v1/usage')).status).toBe(401);
    const audit = (await keyAdmin.list(admin.accountId)).audit.map((record) => record.action);
    expect(audit).toEqual(['signed_in', 'member_invited', 'signed_in', 'member_removed']);
  });

  it("changing a member's role ends its sessions; the next sign-in has the new role", async () => {
    const admin = await adminSession();
    const email = address('promoted');
    const member = await inviteAndSignIn(admin, email, 'billing');
    expect((await withSession(member, '/v1/usage')).status).toBe(200);
    const changed = await withSession(admin, `/console/members/${member.memberId}`, {
      method: 'PATCH',
      body: { role: 'developer' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: member.memberId, role: 'developer' });
    expect((await withSession(member, '/v1/usage')).status).toBe(401);
  });

  it('the last admin can be neither demoted nor removed (409 member_is_last_admin), not even by itself', async () => {
    const admin = await adminSession();
    const first = await inviteAndSignIn(admin, address('first-admin'), 'admin');
    const lastAdmin = {
      status: 409,
      error: { type: 'conflict_error', code: 'member_is_last_admin', param: 'memberId' },
    };
    const refusedOf = async (response: { status: number; body: { error?: Record<string, unknown> } }) => ({
      status: response.status,
      error: {
        type: response.body.error?.type,
        code: response.body.error?.code,
        param: response.body.error?.param,
      },
    });
    const demote = (by: ConsoleSession, memberId: string) =>
      withSession(by, `/console/members/${memberId}`, { method: 'PATCH', body: { role: 'developer' } });
    const remove = (by: ConsoleSession, memberId: string) =>
      withSession(by, `/console/members/${memberId}`, { method: 'DELETE' });
    expect(await refusedOf(await demote(admin, first.memberId))).toEqual(lastAdmin);
    expect(await refusedOf(await remove(admin, first.memberId))).toEqual(lastAdmin);
    expect(await refusedOf(await demote(first, first.memberId))).toEqual(lastAdmin);
    // An invited admin who has not signed in is not an admin yet, and may be withdrawn.
    const invited = await withSession(admin, '/console/members', {
      method: 'POST',
      body: { email: address('pending-admin'), role: 'admin' },
    });
    expect(await refusedOf(await remove(first, first.memberId))).toEqual(lastAdmin);
    expect((await remove(first, invited.body.id as string)).status).toBe(200);
    // With a second admin signed in, the first may go; then the second is the last.
    const second = await inviteAndSignIn(first, address('second-admin'), 'admin');
    const demoted = await demote(second, first.memberId);
    expect([demoted.status, demoted.body.role]).toEqual([200, 'developer']);
    expect(await refusedOf(await remove(admin, second.memberId))).toEqual(lastAdmin);
    const members = (await withSession(second, '/console/members')).body.data as {
      id: string;
      role: string;
    }[];
    expect(members.map((m) => [m.id, m.role])).toEqual([
      [first.memberId, 'developer'],
      [second.memberId, 'admin'],
    ]);
    const audit = (await keyAdmin.list(admin.accountId)).audit.map((record) => record.action);
    expect(audit.filter((action) => action.startsWith('member_'))).toEqual([
      'member_invited',
      'member_invited',
      'member_removed',
      'member_invited',
      'member_role_changed',
    ]);
  });

  it('two admins demoting or removing each other at once: one wins, the account keeps an admin', async () => {
    const store = new DynamoConsoleMembers(localStack.tableNames.keys);
    const authOf = (member: ConsoleSession & { memberId: string }): AuthContext => ({
      accountId: member.accountId,
      environment: 'test',
      keyId: member.memberId,
      session: {
        sessionId: member.sessionId,
        csrfToken: member.csrfToken,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        role: 'admin',
        member: { memberId: member.memberId, email: 'x@example.com' },
      },
    });
    /** Holds each change's first write until both have read (so each saw two admins). */
    const racing = (): ConsoleMemberStore => {
      let waiting = 2;
      let release: () => void = () => {};
      const bothRead = new Promise<void>((resolve) => {
        release = resolve;
      });
      const barrier = async () => {
        waiting -= 1;
        if (waiting === 0) release();
        await bothRead;
      };
      return {
        list: (accountId, environment) => store.list(accountId, environment),
        find: (accountId, memberId) => store.find(accountId, memberId),
        invite: (input) => store.invite(input),
        changeRole: async (input) => {
          await barrier();
          return store.changeRole(input);
        },
        remove: async (input) => {
          await barrier();
          return store.remove(input);
        },
      };
    };
    for (const way of ['demote', 'remove'] as const) {
      const admin = await adminSession();
      const a = await inviteAndSignIn(admin, address(`a-${way}`), 'admin');
      const b = await inviteAndSignIn(admin, address(`b-${way}`), 'admin');
      const raced = racing();
      const now = new Date();
      const change = (by: typeof a, memberId: string) =>
        way === 'demote'
          ? changeMemberRole(raced, { auth: authOf(by), memberId, role: 'billing', now })
          : removeMember(raced, { auth: authOf(by), memberId, now });
      const outcomes = await Promise.allSettled([change(a, b.memberId), change(b, a.memberId)]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const reason = outcomes.find((o) => o.status === 'rejected')?.reason as ApiError | undefined;
      expect(reason).toBeInstanceOf(ApiError);
      expect(reason?.code).toBe('member_is_last_admin');
      const admins = (await store.list(admin.accountId, 'test')).filter(
        (m) => m.role === 'admin' && m.status === 'active',
      );
      expect(admins).toHaveLength(1);
    }
  });

  it('an API key is no member: roles do not apply to it', async () => {
    const key = await createKey('test');
    const { call } = await import('../support/api.ts');
    expect((await call('/v1/webhook-endpoints', { key: key.secret })).status).toBe(200);
  });
});

describe("a member's sign-in by email", () => {
  const form = (email: string, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/console/sign-in/email`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Sec-Fetch-Site': 'same-origin',
        ...headers,
      },
      body: new URLSearchParams({ email }).toString(),
    });

  it('shows a page with an email field', async () => {
    const page = await fetch(`${baseUrl}/console/sign-in/email`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const html = await page.text();
    expect(html).toContain('<input id="email" name="email" type="email" autocomplete="email" required');
    expect(html).toContain('<form method="post" action="email">');
  });

  it('emails a member a single-use link that signs in with the role, and answers a stranger the same', async () => {
    const admin = await adminSession();
    const email = address('returning');
    const member = await inviteAndSignIn(admin, email, 'developer');
    const before = (await outbox()).length;
    const asked = await form(`  ${email.toUpperCase()} `);
    const stranger = await form(address('stranger'));
    expect([asked.status, stranger.status]).toEqual([200, 200]);
    const [askedPage, strangerPage] = [await asked.text(), await stranger.text()];
    expect(askedPage).toBe(strangerPage);
    expect(askedPage).toContain('If this address is a member of an account, a sign-in link is on its way');
    // One message: the member's; none to the stranger.
    const sent = (await outbox()).slice(before);
    expect(sent.map((message) => [message.to, message.subject])).toEqual([
      [email, 'Your sign-in link for the account console'],
    ]);
    const url = linkIn(sent[0] as { text: string });
    const session = await signInWithLink(url);
    expect(session).toMatchObject({ accountId: admin.accountId, environment: 'test', role: 'developer' });
    expect((await withSession(session, '/console/keys')).status).toBe(200);
    // Once only.
    expect((await openLink(url)).status).toBe(410);
    const signIns = (await keyAdmin.list(admin.accountId)).audit.filter(
      (record) => record.action === 'signed_in',
    );
    expect(signIns.at(-1)).toMatchObject({ keyId: member.memberId, by: `member:${email}` });
    expect(signIns.at(-1)?.detail).toContain('as developer (emailed link');
  });

  it("a removed member's links sign nothing in", async () => {
    const admin = await adminSession();
    const email = address('gone');
    const member = await inviteAndSignIn(admin, email, 'billing');
    await form(email);
    const url = linkIn(await lastMailTo(email));
    await withSession(admin, `/console/members/${member.memberId}`, { method: 'DELETE' });
    expect((await viewLink(url)).status).toBe(404);
    expect((await openLink(url)).status).toBe(404);
  });

  it('refuses a form from another site, and a malformed address, sending nothing', async () => {
    const before = (await outbox()).length;
    const crossSite = await form('someone@example.com', { 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const malformed = await form('not an address');
    expect(malformed.status).toBe(422);
    expect(await malformed.text()).toContain('aria-invalid="true"');
    expect((await outbox()).length).toBe(before);
  });

  const mailsTo = async (email: string) => (await outbox()).filter((message) => message.to === email).length;
  /** The 429 page without its minutes, which depend on when in the hour it is asked. */
  const limitedPage = async (response: Response) => {
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const html = await response.text();
    expect(html).toContain('<h1>Too many sign-in links</h1>');
    return html.replace(/\d+ minutes?/, 'N minutes');
  };

  it('sends at most 5 links an hour per address, members and strangers alike, even asked at once', async () => {
    const admin = await adminSession();
    const email = address('eager');
    await inviteAndSignIn(admin, email, 'developer');
    // An hour of its own: the other tests' requests from this machine do not count in it.
    await clock.advance(3 * 3_600_000);
    try {
      const sentBefore = await mailsTo(email);
      const asked = await Promise.all(Array.from({ length: 8 }, () => form(email)));
      expect(asked.map((response) => response.status).sort()).toStrictEqual([
        200, 200, 200, 200, 200, 429, 429, 429,
      ]);
      expect((await mailsTo(email)) - sentBefore).toBe(5);
      const memberPage = await limitedPage(await form(email));
      const stranger = address('stranger');
      for (let n = 0; n < 5; n += 1) expect((await form(stranger)).status).toBe(200);
      // The same answer for an address that is no member: the limit tells no one who is one.
      expect(await limitedPage(await form(stranger))).toBe(memberPage);
      expect((await mailsTo(email)) - sentBefore).toBe(5);
      // The next hour, the member may ask again.
      await clock.advance(3_600_000);
      expect((await form(email)).status).toBe(200);
      expect((await mailsTo(email)) - sentBefore).toBe(6);
    } finally {
      await clock.reset();
    }
  });

  it('answers at most 20 requests an hour from one source address, whatever the addresses', async () => {
    const admin = await adminSession();
    const email = address('crowded');
    await inviteAndSignIn(admin, email, 'billing');
    await clock.advance(6 * 3_600_000);
    try {
      for (let n = 0; n < 20; n += 1) expect((await form(address(`spray${n}`))).status).toBe(200);
      const sentBefore = await mailsTo(email);
      await limitedPage(await form(email));
      expect(await mailsTo(email)).toBe(sentBefore);
    } finally {
      await clock.reset();
    }
  });
});
