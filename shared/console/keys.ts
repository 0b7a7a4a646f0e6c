/**
 * The console's key page: the account's keys in the session's environment, created, labelled,
 * rolled and revoked through the key administration `npm run keys` uses (shared/kernel/key-admin.ts),
 * each change with its audit record, made `by` the console session.
 */
import { type ApiKeyRecord, generateKeySecret, keyNameOf, newKeyRecord } from '../kernel/api-keys.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { AuthContext } from '../kernel/http/handler-types.ts';
import {
  type KeyAdministration,
  MAX_USABLE_KEYS,
  newAuditRecord,
  parseGrace,
  revokeKey,
  rotateKey,
} from '../kernel/key-admin.ts';
import { hashToken } from '../kernel/sessions.ts';

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
    /** Its label, or null: `name` is what to call it either way. */
    label: key.label ?? null,
    name: keyNameOf(key),
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
async function assertOwnKey(
  keys: KeyAdministration,
  auth: AuthContext,
  keyId: string,
): Promise<ApiKeyRecord> {
  const key = await keys.find(auth.accountId, keyId);
  if (!key || key.environment !== auth.environment)
    throw new ApiError('api_key_not_found', { param: 'keyId' });
  return key;
}

/**
 * A new key of the session's account and environment (a live session makes a live key, as rolling
 * one does), its secret answered this once (201) and stored only as its hash. The same client
 * token again (a double click, a retry) makes no second key: it answers the key it made, with no
 * secret (200). Refused at `MAX_USABLE_KEYS` usable keys.
 */
export async function createAccountKey(
  keys: KeyAdministration,
  input: { auth: AuthContext; label: string | undefined; clientToken: string; now: Date },
) {
  const { auth, label, now } = input;
  const session = consoleSessionOf(auth);
  const secret = generateKeySecret(auth.environment);
  const { hash, record } = newKeyRecord(secret, auth.accountId, now, null, label);
  const audit = newAuditRecord(
    {
      accountId: auth.accountId,
      action: 'created',
      keyId: record.keyId,
      by: `console:${session.sessionId}`,
      detail: `${auth.environment} key${label === undefined ? '' : `, labelled ${JSON.stringify(label)}`}`,
    },
    now,
  );
  const created = await keys.createForRequest({
    hash,
    record,
    audit,
    requestHash: hashToken(`${auth.accountId}:${auth.environment}:${input.clientToken}`),
    limit: MAX_USABLE_KEYS,
    now,
  });
  if (created.outcome === 'limit')
    throw new ApiError('api_key_limit_reached', { details: { limit: MAX_USABLE_KEYS } });
  if (created.outcome === 'contended') throw new ApiError('rate_limited');
  if (created.outcome === 'created')
    return { status: 201, body: { object: 'createdKey' as const, key: presentKey(record, now), secret } };
  const made = await keys.find(auth.accountId, created.keyId);
  if (!made) throw new ApiError('api_key_not_found', { param: 'clientToken' });
  return { status: 200, body: { object: 'createdKey' as const, key: presentKey(made, now), secret: null } };
}

/** Names the key (or removes its name: `null`), with the audit record. */
export async function labelKey(
  keys: KeyAdministration,
  input: { auth: AuthContext; keyId: string; label: string | null; now: Date },
) {
  const { auth, keyId, label, now } = input;
  const session = consoleSessionOf(auth);
  const key = await assertOwnKey(keys, auth, keyId);
  const audit = newAuditRecord(
    {
      accountId: auth.accountId,
      action: 'labelled',
      keyId,
      by: `console:${session.sessionId}`,
      detail: label === null ? 'label removed' : `labelled ${JSON.stringify(label)}`,
    },
    now,
  );
  if ((await keys.relabel(auth.accountId, keyId, label, audit)) !== 'done')
    throw new ApiError('api_key_not_found', { param: 'keyId' });
  const { label: _was, ...rest } = key;
  // Presented from what was written: the index read back may not show the change yet.
  return presentKey(label === null ? rest : { ...rest, label }, now);
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
