/**
 * Verifying a passkey's answers with SimpleWebAuthn (shared/console/passkeys.ts has the rules and
 * the options): storing a member's new passkey, and signing in with one. Apart from the options,
 * list and removal, so that only the two routes that verify load the library (on their first
 * verification).
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { AuthContext } from '../kernel/http/handler-types.ts';
import { newAuditRecord } from '../kernel/key-admin.ts';
import {
  type ConsoleSessionRecord,
  hashToken,
  newToken,
  SESSION_LIFETIME_MS,
  sessionIdForHash,
} from '../kernel/sessions.ts';
import { consoleSessionOf } from './keys.ts';
import {
  issuedChallenge,
  type MemberReader,
  newPasskeyId,
  presentPasskey,
  type RelyingParty,
  sessionMember,
} from './passkeys.ts';
import type { PasskeyRecord, PasskeyStore } from './store-port.ts';

type WebAuthn = typeof import('./webauthn.ts');

/**
 * SimpleWebAuthn, loaded on the first verification: a Lambda bundle reads it from the file written
 * beside it (lib/bundling.ts defines `WEBAUTHN_CHUNK`), so the function's start neither compiles
 * nor runs it; elsewhere (the local stack, tests) the module is imported.
 */
export const webAuthn = async (): Promise<WebAuthn> =>
  process.env.WEBAUTHN_CHUNK
    ? (require(`${__dirname}/${process.env.WEBAUTHN_CHUNK}`) as WebAuthn)
    : import('./webauthn.ts');

const defaultName = (now: Date) => `Passkey of ${now.toISOString().slice(0, 10)}`;

/** Verifies the authenticator's answer to the member's registration challenge, and stores the passkey. */
export async function registerPasskey(
  ports: {
    store: PasskeyStore;
    members: MemberReader;
  },
  input: {
    auth: AuthContext;
    response: RegistrationResponseJSON;
    name: string | undefined;
    relyingParty: RelyingParty;
    now: Date;
  },
) {
  const { auth, now, relyingParty } = input;
  const sessionHolder = sessionMember(auth);
  const { challenge, hash, record } = await issuedChallenge(
    ports.store,
    input.response.response.clientDataJSON,
    'registration',
    now,
  );
  if (record.accountId !== auth.accountId || record.memberId !== sessionHolder.memberId)
    throw new ApiError('passkey_challenge_invalid', {
      param: 'response',
      message: 'The challenge was issued to another member. Start again.',
    });
  const member = await ports.members.findMember(auth.accountId, sessionHolder.memberId);
  if (!member || member.environment !== auth.environment) throw new ApiError('unauthorized');
  const { verifyRegistrationResponse } = await webAuthn();
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: relyingParty.origin,
    expectedRPID: relyingParty.rpId,
    requireUserVerification: false,
  }).catch((error: unknown) => {
    throw new ApiError('passkey_registration_failed', {
      param: 'response',
      message: `The authenticator's answer did not verify: ${error instanceof Error ? error.message : 'unreadable'}`,
    });
  });
  if (!verification.verified) throw new ApiError('passkey_registration_failed', { param: 'response' });
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const passkey: PasskeyRecord = {
    passkeyId: newPasskeyId(),
    accountId: auth.accountId,
    environment: auth.environment,
    memberId: member.memberId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: input.name?.trim() || defaultName(now),
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
    createdAt: now.toISOString(),
    lastUsedAt: null,
  };
  const audit = newAuditRecord(
    {
      accountId: auth.accountId,
      action: 'passkey_registered',
      keyId: member.memberId,
      by: `console:${consoleSessionOf(auth).sessionId}`,
      detail: `${member.email}: ${passkey.name} (${passkey.passkeyId})`,
    },
    now,
  );
  const outcome = await ports.store.register({
    challengeHash: hash,
    usedAt: now.toISOString(),
    passkey,
    member,
    audit,
  });
  if (outcome !== 'registered')
    throw new ApiError('passkey_challenge_invalid', {
      param: 'response',
      message: 'The challenge was answered already, or the member changed meanwhile. Start again.',
    });
  return presentPasskey(passkey);
}

/**
 * Signs in with a passkey: the answer's challenge must be unspent, its credential a passkey of a
 * current member, its signature verify; then the challenge is spent, the counter moved on and a
 * session of the member opened, with its audit record, in one transaction.
 */
export async function signInWithPasskey(
  ports: {
    store: PasskeyStore;
    members: MemberReader;
  },
  input: { response: AuthenticationResponseJSON; relyingParty: RelyingParty; now: Date },
): Promise<{ token: string; session: ConsoleSessionRecord }> {
  const { now, relyingParty } = input;
  const { challenge, hash } = await issuedChallenge(
    ports.store,
    input.response.response.clientDataJSON,
    'authentication',
    now,
  );
  const notRecognised = () => new ApiError('passkey_not_recognised');
  const passkey = await ports.store.findByCredentialId(input.response.id);
  if (!passkey) throw notRecognised();
  const member = await ports.members.findMember(passkey.accountId, passkey.memberId);
  if (!member || member.environment !== passkey.environment) throw notRecognised();
  const { verifyAuthenticationResponse } = await webAuthn();
  const verification = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: relyingParty.origin,
    expectedRPID: relyingParty.rpId,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: passkey.counter,
      // biome-ignore lint/suspicious/noExplicitAny: stored as the authenticator named them
      transports: passkey.transports as any,
    },
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const, authenticationInfo: undefined }));
  if (!verification.verified) throw notRecognised();
  const token = newToken();
  const sessionHash = hashToken(token);
  const session: ConsoleSessionRecord = {
    sessionId: sessionIdForHash(sessionHash),
    accountId: member.accountId,
    environment: member.environment,
    keyId: member.memberId,
    member: {
      memberId: member.memberId,
      email: member.email,
      role: member.role,
      generation: member.generation,
    },
    csrfToken: newToken(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    revokedAt: null,
  };
  const audit = newAuditRecord(
    {
      accountId: member.accountId,
      action: 'signed_in',
      keyId: member.memberId,
      by: `member:${member.email}`,
      detail: `${member.environment} console session as ${member.role} (passkey ${passkey.name}, ${passkey.passkeyId}, ${session.sessionId}) until ${session.expiresAt}`,
    },
    now,
  );
  const opened = await ports.store.openSession({
    challengeHash: hash,
    passkey,
    counter: verification.authenticationInfo.newCounter,
    sessionHash,
    session,
    member,
    audit,
  });
  if (opened !== 'opened')
    throw new ApiError('passkey_challenge_invalid', {
      param: 'response',
      message: 'The challenge was answered already, or the member changed meanwhile. Start again.',
    });
  return { token, session };
}
