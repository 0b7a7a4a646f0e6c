/**
 * Passkeys' verification flow (shared/console/passkeys.ts) with a software authenticator and an
 * in-memory store: a member registers, then signs in; each challenge works once and for 5 minutes,
 * for its own purpose and member; another origin or relying party is refused; a removed member's
 * passkey signs in no one; a key's session has no member to hold one.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { relyingParty as compositionRelyingParty } from '../../shared/console/composition.ts';
import { registerPasskey, signInWithPasskey } from '../../shared/console/passkey-verification.ts';
import {
  authenticationOptions,
  CHALLENGE_LIFETIME_MS,
  listPasskeys,
  MAX_PASSKEYS,
  registrationOptions,
  relyingPartyOf,
  removePasskey,
} from '../../shared/console/passkeys.ts';
import type { PasskeyChallengeRecord, PasskeyRecord, PasskeyStore } from '../../shared/console/store-port.ts';
import type { AuthContext } from '../../shared/kernel/http/handler-types.ts';
import type { KeyAuditRecord } from '../../shared/kernel/key-admin.ts';
import type { ConsoleMemberRecord, ConsoleSessionRecord } from '../../shared/kernel/sessions.ts';
import { SoftwareAuthenticator, type WebAuthnOptions } from '../support/webauthn.ts';

/** The store's rules, in memory: each write all or nothing, on the conditions the DynamoDB one has. */
class MemoryPasskeys implements PasskeyStore {
  challenges = new Map<string, PasskeyChallengeRecord>();
  passkeys = new Map<string, PasskeyRecord>();
  sessions = new Map<string, ConsoleSessionRecord>();
  audit: KeyAuditRecord[] = [];
  constructor(readonly members: Map<string, ConsoleMemberRecord>) {}

  async createChallenge(hash: string, challenge: PasskeyChallengeRecord) {
    this.challenges.set(hash, challenge);
  }
  async findChallenge(hash: string) {
    const found = this.challenges.get(hash);
    return found && { ...found };
  }
  async list(accountId: string, memberId: string) {
    return [...this.passkeys.values()].filter((p) => p.accountId === accountId && p.memberId === memberId);
  }
  async findByCredentialId(credentialId: string) {
    const found = this.passkeys.get(credentialId);
    return found && { ...found };
  }
  private memberHolds(member: Pick<ConsoleMemberRecord, 'memberId' | 'generation'>) {
    return this.members.get(member.memberId)?.generation === member.generation;
  }
  private spendable(hash: string) {
    const challenge = this.challenges.get(hash);
    return challenge !== undefined && challenge.usedAt === undefined;
  }
  async register(input: Parameters<PasskeyStore['register']>[0]) {
    if (
      !this.spendable(input.challengeHash) ||
      !this.memberHolds(input.member) ||
      this.passkeys.has(input.passkey.credentialId)
    )
      return 'refused' as const;
    (this.challenges.get(input.challengeHash) as PasskeyChallengeRecord).usedAt = input.usedAt;
    this.passkeys.set(input.passkey.credentialId, { ...input.passkey });
    this.audit.push(input.audit);
    return 'registered' as const;
  }
  async openSession(input: Parameters<PasskeyStore['openSession']>[0]) {
    const stored = this.passkeys.get(input.passkey.credentialId);
    if (
      !this.spendable(input.challengeHash) ||
      !this.memberHolds(input.member) ||
      stored?.counter !== input.passkey.counter
    )
      return 'refused' as const;
    (this.challenges.get(input.challengeHash) as PasskeyChallengeRecord).usedAt = input.session.createdAt;
    stored.counter = input.counter;
    stored.lastUsedAt = input.session.createdAt;
    this.sessions.set(input.sessionHash, input.session);
    this.audit.push(input.audit);
    return 'opened' as const;
  }
  async remove(input: { passkey: PasskeyRecord; audit: KeyAuditRecord }) {
    if (!this.passkeys.delete(input.passkey.credentialId)) return false;
    this.audit.push(input.audit);
    return true;
  }
}

const ORIGIN = 'https://console.example.com';
const relyingParty = relyingPartyOf(`${ORIGIN}/prod`);
const member: ConsoleMemberRecord = {
  memberId: 'mem_0123456789abcdef0123',
  accountId: 'acct_1',
  environment: 'test',
  email: 'dev@example.com',
  role: 'developer',
  status: 'active',
  generation: 0,
  invitedAt: '2026-11-01T00:00:00.000Z',
  invitedBy: 'local:test',
  joinedAt: '2026-11-01T00:00:00.000Z',
};
const auth = (who: ConsoleMemberRecord = member): AuthContext => ({
  accountId: who.accountId,
  environment: who.environment,
  keyId: who.memberId,
  session: {
    sessionId: 'cs_00000000000000000001',
    csrfToken: 'x',
    expiresAt: '2026-12-01T00:00:00.000Z',
    role: who.role,
    member: { memberId: who.memberId, email: who.email },
  },
});

let now: Date;
let members: Map<string, ConsoleMemberRecord>;
let store: MemoryPasskeys;
let authenticator: SoftwareAuthenticator;
const ports = () => ({
  store,
  members: { findMember: async (_accountId: string, memberId: string) => members.get(memberId) },
});

async function register(who = member, device = authenticator) {
  const { options } = await registrationOptions(store, { auth: auth(who), relyingParty, now });
  return registerPasskey(ports(), {
    auth: auth(who),
    response: device.register(options as unknown as WebAuthnOptions) as never,
    name: 'Laptop',
    relyingParty,
    now,
  });
}

async function signInAnswer(overrides: { origin?: string; rpId?: string } = {}) {
  const { options } = await authenticationOptions(store, { relyingParty, now });
  return authenticator.authenticate(options as unknown as WebAuthnOptions, overrides) as never;
}

beforeEach(() => {
  now = new Date('2026-11-28T12:00:00.000Z');
  members = new Map([[member.memberId, { ...member }]]);
  store = new MemoryPasskeys(members);
  authenticator = new SoftwareAuthenticator(ORIGIN);
});

describe('passkey registration', () => {
  it('relying party: the settings, else the host and origin of the API', () => {
    expect(relyingParty).toEqual({ rpId: 'console.example.com', origin: ORIGIN });
    expect(
      compositionRelyingParty('https://abc.execute-api.eu-west-2.amazonaws.com/prod', {
        PASSKEY_RP_ID: 'example.org',
        PASSKEY_ORIGIN: 'https://console.example.org',
      }),
    ).toEqual({ rpId: 'example.org', origin: 'https://console.example.org' });
    expect(compositionRelyingParty('http://localhost:4010', {})).toEqual({
      rpId: 'localhost',
      origin: 'http://localhost:4010',
    });
  });

  it('stores the passkey of the session’s member, with its audit record', async () => {
    const { options } = await registrationOptions(store, { auth: auth(), relyingParty, now });
    expect(options).toMatchObject({
      rp: { id: 'console.example.com' },
      user: { name: 'dev@example.com' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const passkey = await registerPasskey(ports(), {
      auth: auth(),
      response: authenticator.register(options as unknown as WebAuthnOptions) as never,
      name: ' Laptop ',
      relyingParty,
      now,
    });
    expect(passkey).toEqual({
      object: 'passkey',
      id: expect.stringMatching(/^pk_[0-9a-f]{20}$/),
      name: 'Laptop',
      deviceType: 'singleDevice',
      backedUp: false,
      createdAt: now.toISOString(),
      lastUsedAt: null,
    });
    const stored = store.passkeys.get(authenticator.id) as PasskeyRecord;
    expect(stored).toMatchObject({
      memberId: member.memberId,
      accountId: 'acct_1',
      environment: 'test',
      counter: 1,
    });
    expect(store.audit.map((a) => [a.action, a.keyId, a.by])).toEqual([
      ['passkey_registered', member.memberId, 'console:cs_00000000000000000001'],
    ]);
    expect(await listPasskeys(store, auth())).toEqual([passkey]);
    // The next registration excludes it, so the same device is not registered twice.
    const again = await registrationOptions(store, { auth: auth(), relyingParty, now });
    expect(again.options.excludeCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal'] },
    ]);
  });

  it('refuses an answer for another origin, or a replayed, expired or unknown challenge', async () => {
    const { options } = await registrationOptions(store, { auth: auth(), relyingParty, now });
    const wrongOrigin = authenticator.register(options as unknown as WebAuthnOptions, {
      origin: 'https://evil.example.net',
    });
    await expect(
      registerPasskey(ports(), {
        auth: auth(),
        response: wrongOrigin as never,
        name: undefined,
        relyingParty,
        now,
      }),
    ).rejects.toMatchObject({ code: 'passkey_registration_failed', status: 400, param: 'response' });
    expect(store.passkeys.size).toBe(0);

    const good = authenticator.register(options as unknown as WebAuthnOptions);
    await registerPasskey(ports(), {
      auth: auth(),
      response: good as never,
      name: undefined,
      relyingParty,
      now,
    });
    await expect(
      registerPasskey(ports(), { auth: auth(), response: good as never, name: undefined, relyingParty, now }),
    ).rejects.toMatchObject({
      code: 'passkey_challenge_invalid',
      status: 400,
      message: 'The challenge was answered already: each works once. Start again.',
    });

    const late = await registrationOptions(store, { auth: auth(), relyingParty, now });
    const other = new SoftwareAuthenticator(ORIGIN);
    now = new Date(now.getTime() + CHALLENGE_LIFETIME_MS);
    await expect(
      registerPasskey(ports(), {
        auth: auth(),
        response: other.register(late.options as unknown as WebAuthnOptions) as never,
        name: undefined,
        relyingParty,
        now,
      }),
    ).rejects.toMatchObject({
      code: 'passkey_challenge_invalid',
      message: 'The challenge is older than 5 minutes. Start again.',
    });

    await expect(
      registerPasskey(ports(), {
        auth: auth(),
        response: other.register({ challenge: 'A'.repeat(43), rp: { id: relyingParty.rpId } }) as never,
        name: undefined,
        relyingParty,
        now,
      }),
    ).rejects.toMatchObject({ code: 'passkey_challenge_invalid' });
    expect(store.passkeys.size).toBe(1);
  });

  it("a challenge is its member's: another member's answer to it, or a sign-in challenge, is refused", async () => {
    const other: ConsoleMemberRecord = {
      ...member,
      memberId: 'mem_99999999999999999999',
      email: 'b@example.com',
    };
    members.set(other.memberId, other);
    const { options } = await registrationOptions(store, { auth: auth(), relyingParty, now });
    await expect(
      registerPasskey(ports(), {
        auth: auth(other),
        response: authenticator.register(options as unknown as WebAuthnOptions) as never,
        name: undefined,
        relyingParty,
        now,
      }),
    ).rejects.toMatchObject({
      code: 'passkey_challenge_invalid',
      message: 'The challenge was issued to another member. Start again.',
    });
    const signIn = await authenticationOptions(store, { relyingParty, now });
    await expect(
      registerPasskey(ports(), {
        auth: auth(),
        response: authenticator.register({
          ...(signIn.options as unknown as WebAuthnOptions),
          rp: { id: relyingParty.rpId },
        }) as never,
        name: undefined,
        relyingParty,
        now,
      }),
    ).rejects.toMatchObject({ code: 'passkey_challenge_invalid' });
  });

  it("a key's session has no member: 403 passkey_member_only", async () => {
    const keySession: AuthContext = {
      accountId: 'acct_1',
      environment: 'test',
      keyId: 'key_00000000000000000001',
      session: { sessionId: 'cs_1', csrfToken: 'x', expiresAt: '2026-12-01T00:00:00.000Z', role: 'admin' },
    };
    await expect(registrationOptions(store, { auth: keySession, relyingParty, now })).rejects.toMatchObject({
      code: 'passkey_member_only',
      status: 403,
    });
    await expect(listPasskeys(store, keySession)).rejects.toMatchObject({ code: 'passkey_member_only' });
  });

  it(`keeps at most ${MAX_PASSKEYS} passkeys a member`, async () => {
    for (let i = 0; i < MAX_PASSKEYS; i += 1) await register(member, new SoftwareAuthenticator(ORIGIN));
    await expect(registrationOptions(store, { auth: auth(), relyingParty, now })).rejects.toMatchObject({
      code: 'passkey_limit_reached',
      status: 400,
    });
  });
});

describe('passkey sign-in', () => {
  it('opens a session of the member, moves the counter on, and audits it as a sign-in', async () => {
    const passkey = await register();
    now = new Date(now.getTime() + 60_000);
    const { token, session } = await signInWithPasskey(ports(), {
      response: await signInAnswer(),
      relyingParty,
      now,
    });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session).toMatchObject({
      accountId: 'acct_1',
      environment: 'test',
      keyId: member.memberId,
      member: { memberId: member.memberId, email: member.email, role: 'developer', generation: 0 },
      revokedAt: null,
      createdAt: now.toISOString(),
    });
    expect(store.passkeys.get(authenticator.id)).toMatchObject({ counter: 2, lastUsedAt: now.toISOString() });
    const signedIn = store.audit.at(-1) as KeyAuditRecord;
    expect(signedIn).toMatchObject({
      action: 'signed_in',
      keyId: member.memberId,
      by: 'member:dev@example.com',
    });
    expect(signedIn.detail).toContain(`passkey Laptop, ${passkey.id}, ${session.sessionId}`);
  });

  it('a replayed answer is refused (its challenge is spent), and opens no second session', async () => {
    await register();
    const answer = await signInAnswer();
    await signInWithPasskey(ports(), { response: answer, relyingParty, now });
    await expect(signInWithPasskey(ports(), { response: answer, relyingParty, now })).rejects.toMatchObject({
      code: 'passkey_challenge_invalid',
      status: 400,
    });
    expect(store.sessions.size).toBe(1);
  });

  it('two answers racing for one challenge open one session', async () => {
    await register();
    const { options } = await authenticationOptions(store, { relyingParty, now });
    const answers = [0, 1].map(
      () => authenticator.authenticate(options as unknown as WebAuthnOptions) as never,
    );
    const results = await Promise.allSettled(
      answers.map((response) => signInWithPasskey(ports(), { response, relyingParty, now })),
    );
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(store.sessions.size).toBe(1);
  });

  it('an expired challenge is refused', async () => {
    await register();
    const answer = await signInAnswer();
    now = new Date(now.getTime() + CHALLENGE_LIFETIME_MS + 1);
    await expect(signInWithPasskey(ports(), { response: answer, relyingParty, now })).rejects.toMatchObject({
      code: 'passkey_challenge_invalid',
    });
  });

  it('another origin or relying party, an unknown passkey, or a removed member: 401 passkey_not_recognised', async () => {
    await register();
    for (const overrides of [{ origin: 'https://evil.example.net' }, { rpId: 'evil.example.net' }])
      await expect(
        signInWithPasskey(ports(), { response: await signInAnswer(overrides), relyingParty, now }),
      ).rejects.toMatchObject({ code: 'passkey_not_recognised', status: 401 });
    const stranger = new SoftwareAuthenticator(ORIGIN);
    const { options } = await authenticationOptions(store, { relyingParty, now });
    await expect(
      signInWithPasskey(ports(), {
        response: stranger.authenticate({ ...(options as unknown as WebAuthnOptions) }) as never,
        relyingParty,
        now,
      }),
    ).rejects.toMatchObject({ code: 'passkey_not_recognised' });
    members.delete(member.memberId);
    await expect(
      signInWithPasskey(ports(), { response: await signInAnswer(), relyingParty, now }),
    ).rejects.toMatchObject({ code: 'passkey_not_recognised' });
    expect(store.sessions.size).toBe(0);
  });

  it('a member whose role changed since it was read opens nothing (the generation moved on)', async () => {
    await register();
    const answer = await signInAnswer();
    const slowStore = Object.create(store) as MemoryPasskeys;
    slowStore.openSession = async (input) => {
      members.set(member.memberId, { ...member, role: 'billing', generation: 1 });
      return store.openSession(input);
    };
    await expect(
      signInWithPasskey({ ...ports(), store: slowStore }, { response: answer, relyingParty, now }),
    ).rejects.toMatchObject({ code: 'passkey_challenge_invalid' });
    expect(store.sessions.size).toBe(0);
  });

  it('a removed passkey signs in no more', async () => {
    const passkey = await register();
    await removePasskey(store, { auth: auth(), passkeyId: passkey.id, now });
    expect(store.audit.at(-1)).toMatchObject({ action: 'passkey_removed', keyId: member.memberId });
    await expect(
      signInWithPasskey(ports(), { response: await signInAnswer(), relyingParty, now }),
    ).rejects.toMatchObject({ code: 'passkey_not_recognised' });
    await expect(removePasskey(store, { auth: auth(), passkeyId: passkey.id, now })).rejects.toMatchObject({
      code: 'passkey_not_found',
      status: 404,
    });
  });
});
