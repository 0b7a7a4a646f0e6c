/**
 * Passkeys of console members (docs/console.md, "Passkeys"): a signed-in member registers a WebAuthn
 * credential, and signs in with it afterwards instead of an emailed link. SimpleWebAuthn makes the
 * options and verifies the authenticator's answers; this module keeps the service's rules:
 *
 * - Each challenge is random, stored by its hash for 5 minutes and spent by the one answer that
 *   uses it, in the transaction that stores the passkey or opens the session: a replayed, unknown
 *   or expired challenge is `400 passkey_challenge_invalid`, and two answers racing for one
 *   challenge open one session at most.
 * - A registration's challenge is the member's own (the session's); the passkey is stored only
 *   while the member is as read (`generation`), so a member removed or changed meanwhile gets none.
 * - A passkey signs in only its member as the member is now: a removed member's passkey (and an
 *   unknown one) is `401 passkey_not_recognised`, whatever the signature. Removing a member
 *   deletes its passkeys too (the member store).
 * - Sign-ins are audited like a link's (`signed_in`, naming the passkey).
 */
import { randomBytes } from 'node:crypto';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { AuthContext } from '../kernel/http/handler-types.ts';
import { newAuditRecord } from '../kernel/key-admin.ts';
import type { ConsoleMemberRecord } from '../kernel/sessions.ts';
import { hashToken, newToken } from '../kernel/sessions.ts';
import { consoleSessionOf } from './keys.ts';
import type { PasskeyChallengeRecord, PasskeyChallenges, PasskeyRecord, PasskeyStore } from './store-port.ts';

/** What verifying reads of the member a passkey belongs to (the platform's key repository). */
export type MemberReader = {
  findMember(accountId: string, memberId: string): Promise<ConsoleMemberRecord | undefined>;
};

/** A challenge is answered within 5 minutes, once; the browser's own prompt gives up after 2. */
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
const PROMPT_TIMEOUT_MS = 2 * 60 * 1000;
/** The most passkeys one member keeps (a phone, a laptop, a security key, and spares). */
export const MAX_PASSKEYS = 10;
export const RP_NAME = 'Company Register Data Service';

const PASSKEY_ID_PATTERN = /^pk_[0-9a-f]{20}$/;
export const isPasskeyId = (id: string): boolean => PASSKEY_ID_PATTERN.test(id);
export const newPasskeyId = (): string => `pk_${randomBytes(10).toString('hex')}`;

/** Where passkeys are valid: the relying party id (a domain) and the console page's origin. */
export interface RelyingParty {
  rpId: string;
  origin: string;
}

/**
 * The stage's relying party: its settings (the console's composition reads them, `relyingParty`),
 * else the host and origin of the API's base URL.
 */
export function relyingPartyOf(apiBaseUrl: string, rpId?: string, origin?: string): RelyingParty {
  const base = new URL(apiBaseUrl);
  return { rpId: rpId || base.hostname, origin: origin || base.origin };
}

/** What the member reads of a passkey: never its public key or credential id. */
export const presentPasskey = (passkey: PasskeyRecord) => ({
  object: 'passkey' as const,
  id: passkey.passkeyId,
  name: passkey.name,
  deviceType: passkey.deviceType,
  backedUp: passkey.backedUp,
  createdAt: passkey.createdAt,
  lastUsedAt: passkey.lastUsedAt,
});

/** The member a session stands for, or 403 for a key's session (which has no member). */
export function sessionMember(auth: AuthContext) {
  const member = consoleSessionOf(auth).member;
  if (!member) throw new ApiError('passkey_member_only');
  return member;
}

/** The challenge the browser's answer names (in its `clientDataJSON`), if it names one. */
function answeredChallenge(clientDataJSON: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof parsed.challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(parsed.challenge)
      ? parsed.challenge
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stored challenge an answer names, still unspent and within its lifetime, for `purpose`: else
 * `passkey_challenge_invalid` saying which (the record of a spent one stays until its TTL).
 */
export async function issuedChallenge(
  store: PasskeyStore,
  clientDataJSON: string,
  purpose: PasskeyChallengeRecord['purpose'],
  now: Date,
): Promise<{ challenge: string; hash: string; record: PasskeyChallengeRecord }> {
  const challenge = answeredChallenge(clientDataJSON);
  const hash = challenge === undefined ? undefined : hashToken(challenge);
  const record = hash === undefined ? undefined : await store.findChallenge(hash);
  const refuse = (message: string) =>
    new ApiError('passkey_challenge_invalid', { param: 'response', message });
  if (!challenge || !hash || !record || record.purpose !== purpose)
    throw refuse('The answer names a challenge the service did not issue for this step. Start again.');
  if (record.usedAt) throw refuse('The challenge was answered already: each works once. Start again.');
  if (Date.parse(record.expiresAt) <= now.getTime())
    throw refuse('The challenge is older than 5 minutes. Start again.');
  return { challenge, hash, record };
}

async function newChallenge(
  store: PasskeyChallenges,
  now: Date,
  fields: Pick<PasskeyChallengeRecord, 'purpose' | 'accountId' | 'memberId'>,
): Promise<string> {
  const challenge = newToken();
  await store.createChallenge(hashToken(challenge), {
    ...fields,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS).toISOString(),
  });
  return challenge;
}

/** The options `navigator.credentials.create()` needs to make a passkey for the session's member. */
export async function registrationOptions(
  store: PasskeyChallenges,
  input: { auth: AuthContext; relyingParty: RelyingParty; now: Date },
) {
  const member = sessionMember(input.auth);
  const existing = await store.list(input.auth.accountId, member.memberId);
  if (existing.length >= MAX_PASSKEYS) throw new ApiError('passkey_limit_reached');
  const challenge = await newChallenge(store, input.now, {
    purpose: 'registration',
    accountId: input.auth.accountId,
    memberId: member.memberId,
  });
  // The options SimpleWebAuthn's generateRegistrationOptions() writes, built here so that the
  // options routes do not bundle its verification code (docs/decisions/0107-passkeys.md).
  const options = {
    challenge,
    rp: { name: RP_NAME, id: input.relyingParty.rpId },
    user: {
      id: Buffer.from(member.memberId).toString('base64url'),
      name: member.email,
      displayName: `${member.email} (${input.auth.accountId}, ${input.auth.environment})`,
    },
    // Ed25519, ES256 and RS256, SimpleWebAuthn's defaults.
    pubKeyCredParams: [-8, -7, -257].map((alg) => ({ alg, type: 'public-key' as const })),
    timeout: PROMPT_TIMEOUT_MS,
    attestation: 'none' as const,
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialId,
      type: 'public-key' as const,
      transports: passkey.transports,
    })),
    // Discoverable, so that signing in needs no address first; the device's lock where it has one.
    authenticatorSelection: {
      residentKey: 'required' as const,
      requireResidentKey: true,
      userVerification: 'preferred' as const,
    },
    extensions: { credProps: true },
  };
  return { object: 'passkeyRegistrationOptions' as const, options };
}

export async function listPasskeys(store: PasskeyStore, auth: AuthContext) {
  const member = sessionMember(auth);
  const passkeys = await store.list(auth.accountId, member.memberId);
  return passkeys.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(presentPasskey);
}

export async function removePasskey(
  store: PasskeyStore,
  input: { auth: AuthContext; passkeyId: string; now: Date },
) {
  const member = sessionMember(input.auth);
  const passkey = (await store.list(input.auth.accountId, member.memberId)).find(
    (candidate) => candidate.passkeyId === input.passkeyId,
  );
  if (!passkey) throw new ApiError('passkey_not_found', { param: 'passkeyId' });
  const audit = newAuditRecord(
    {
      accountId: input.auth.accountId,
      action: 'passkey_removed',
      keyId: member.memberId,
      by: `console:${consoleSessionOf(input.auth).sessionId}`,
      detail: `${member.email}: ${passkey.name} (${passkey.passkeyId})`,
    },
    input.now,
  );
  if (!(await store.remove({ passkey, audit })))
    throw new ApiError('passkey_not_found', { param: 'passkeyId' });
  return { object: 'removedPasskey' as const, id: passkey.passkeyId };
}

/**
 * The options `navigator.credentials.get()` needs to sign in: a challenge and no list of
 * credentials (passkeys are discoverable: the device offers the ones it holds for this site).
 */
export async function authenticationOptions(
  store: PasskeyChallenges,
  input: { relyingParty: RelyingParty; now: Date },
) {
  const challenge = await newChallenge(store, input.now, { purpose: 'authentication' });
  const options = {
    challenge,
    rpId: input.relyingParty.rpId,
    timeout: PROMPT_TIMEOUT_MS,
    userVerification: 'preferred' as const,
    allowCredentials: [],
  };
  return { object: 'passkeySignInOptions' as const, options };
}
