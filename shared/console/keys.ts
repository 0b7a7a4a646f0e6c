/**
 * The console's key page: the account's keys in the session's environment, rolled and revoked
 * through the same use cases as `npm run keys` (shared/kernel/key-admin.ts), each change with its
 * audit record, made `by` the console session.
 */
import type { ApiKeyRecord } from '../kernel/api-keys.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { AuthContext } from '../kernel/http/handler-types.ts';
import { type KeyAdministration, parseGrace, revokeKey, rotateKey } from '../kernel/key-admin.ts';

/** Console routes answer a console session only: a key cannot administer keys through them. */
export function consoleSessionOf(auth: AuthContext): NonNullable<AuthContext['session']> {
  if (!auth.session) throw new ApiError('unauthorized', { message: 'Sign in to the console with a link.' });
  return auth.session;
}

export function presentKey(key: ApiKeyRecord, now: Date) {
  const expired = key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime();
  return {
    object: 'apiKey' as const,
    id: key.keyId,
    environment: key.environment,
    status:
      key.status === 'revoked' ? ('revoked' as const) : expired ? ('expired' as const) : ('active' as const),
    lastFour: key.lastFour,
    createdAt: key.createdAt,
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
    lastUsedHour: key.lastUsedHour ?? null,
  };
}

export async function listKeys(keys: KeyAdministration, auth: AuthContext, now: Date) {
  consoleSessionOf(auth);
  const { keys: listed } = await keys.list(auth.accountId);
  return listed
    .filter((key) => key.environment === auth.environment)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((key) => presentKey(key, now));
}

/** A key of another account or of the other environment is, for this session, no key at all. */
async function assertOwnKey(keys: KeyAdministration, auth: AuthContext, keyId: string): Promise<void> {
  const key = await keys.find(auth.accountId, keyId);
  if (!key || key.environment !== auth.environment)
    throw new ApiError('api_key_not_found', { param: 'keyId' });
}

export async function rollKey(
  keys: KeyAdministration,
  input: { auth: AuthContext; keyId: string; grace: string; now: Date },
) {
  const session = consoleSessionOf(input.auth);
  const graceMs = parseGrace(input.grace) as number;
  await assertOwnKey(keys, input.auth, input.keyId);
  const result = await rotateKey(keys, {
    accountId: input.auth.accountId,
    keyId: input.keyId,
    graceMs,
    by: `console:${session.sessionId}`,
    now: input.now,
  });
  if (result.outcome === 'no-such-key') throw new ApiError('api_key_not_found', { param: 'keyId' });
  if (result.outcome === 'not-active') throw new ApiError('api_key_not_active', { param: 'keyId' });
  return {
    object: 'rolledKey' as const,
    key: presentKey(result.record, input.now),
    secret: result.secret,
    replacedKeyExpiresAt: result.oldExpiresAt.toISOString(),
  };
}

export async function revokeAccountKey(
  keys: KeyAdministration,
  input: { auth: AuthContext; keyId: string; now: Date },
) {
  const session = consoleSessionOf(input.auth);
  await assertOwnKey(keys, input.auth, input.keyId);
  const result = await revokeKey(keys, {
    accountId: input.auth.accountId,
    keyId: input.keyId,
    by: `console:${session.sessionId}`,
    now: input.now,
  });
  if (result === 'no-such-key') throw new ApiError('api_key_not_found', { param: 'keyId' });
  if (result === 'not-active') throw new ApiError('api_key_not_active', { param: 'keyId' });
  return { object: 'revokedKey' as const, id: input.keyId };
}
