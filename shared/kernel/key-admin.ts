/**
 * What the key administration (`npm run keys`, bin/keys.ts) checks and records: key ids, the grace
 * period a rotation gives the old key, and the audit record of every change (who, when, what),
 * which `npm run keys -- list` shows. docs/keys.md documents them for operators.
 */
import { randomBytes } from 'node:crypto';
import { type ApiKeyRecord, generateKeySecret, newKeyRecord } from './api-keys.ts';

/** A key id is `key_` and the first 20 hex digits of the secret's SHA-256 (`keyIdForHash`). */
const KEY_ID_PATTERN = /^key_[0-9a-f]{20}$/;
export const isValidKeyId = (keyId: string): boolean => KEY_ID_PATTERN.test(keyId);

/**
 * The longest grace a rotation may give the old key: 30 days covers a customer's monthly release
 * cycle; a longer overlap leaves a key that is being replaced (perhaps because it leaked) working
 * for too long. To stop a key at once, revoke it.
 */
export const MAX_ROTATION_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

const GRACE_UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90m`, `24h`, `7d` → milliseconds; undefined when malformed, zero, or longer than the maximum. */
export function parseGrace(text: string): number | undefined {
  const match = /^(\d{1,5})([mhd])$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * (GRACE_UNITS[match[2] as string] as number);
  return ms > 0 && ms <= MAX_ROTATION_GRACE_MS ? ms : undefined;
}

/** When the old key stops working after a rotation: the grace's end, or its own expiry if sooner. */
export function rotatedExpiry(old: Pick<ApiKeyRecord, 'expiresAt'>, now: Date, graceMs: number): Date {
  const graceEnd = new Date(now.getTime() + graceMs);
  const own = old.expiresAt === null ? undefined : new Date(old.expiresAt);
  return own && own < graceEnd ? own : graceEnd;
}

/**
 * Key changes, and console sign-ins and sign-outs and member changes (shared/console/), which are
 * recorded the same way (`keyId` then names the member).
 */
export const keyAuditActions = [
  'created',
  'rotated',
  'revoked',
  'labelled',
  'signed_in',
  'signed_out',
  'member_invited',
  'member_role_changed',
  'member_removed',
  'passkey_registered',
  'passkey_removed',
] as const;
export type KeyAuditAction = (typeof keyAuditActions)[number];

/** One change to an account's keys, kept for as long as the keys table. */
export interface KeyAuditRecord {
  /** `audit_<time>_<random>`: sorts by time among an account's records. */
  auditId: string;
  accountId: string;
  action: KeyAuditAction;
  /** The key the change is about (for a rotation, the old key). */
  keyId: string;
  at: string;
  /** Who made it: the caller's AWS identity (ARN), or `local:<user>` on the local stack. */
  by: string;
  /** What else: the new key and the old key's expiry (rotated), the environment (created). */
  detail: string;
}

export function newAuditRecord(fields: Omit<KeyAuditRecord, 'auditId' | 'at'>, at: Date): KeyAuditRecord {
  return {
    auditId: `audit_${at.toISOString()}_${randomBytes(4).toString('hex')}`,
    at: at.toISOString(),
    ...fields,
  };
}

export type KeyChangeResult = 'done' | 'no-such-key' | 'not-active';

/**
 * How many usable (active, unexpired) keys an account may have in one environment for the console
 * to create another (docs/console.md): enough for a key per service and stage, few enough that a
 * script looping on the create button stops soon. Rolling a key is not limited (it replaces one).
 */
export const MAX_USABLE_KEYS = 20;

/**
 * What became of a request to create a key: made; made already by an earlier request with the same
 * client token (`keyId`, its secret not to be shown again); refused at `MAX_USABLE_KEYS`; or
 * outrun by other creations of the same account so often that it gave up (retry).
 */
export type KeyCreation =
  | { outcome: 'created' }
  | { outcome: 'duplicate'; keyId: string }
  | { outcome: 'limit' }
  | { outcome: 'contended' };

/** A key to create for a request: the key, its audit record, the request's hash and the limit to keep. */
export interface KeyCreationRequest {
  hash: string;
  record: ApiKeyRecord;
  audit: KeyAuditRecord;
  requestHash: string;
  limit: number;
  now: Date;
}

/** What key administration (creating, labelling, rotating, revoking, listing) needs of the keys table (shared/adapters/dynamodb/key-admin.ts). */
export interface KeyAdministration {
  find(accountId: string, keyId: string): Promise<ApiKeyRecord | undefined>;
  revoke(accountId: string, keyId: string, at: Date, audit: KeyAuditRecord): Promise<KeyChangeResult>;
  rotate(input: {
    old: ApiKeyRecord;
    oldExpiresAt: Date;
    newHash: string;
    newRecord: ApiKeyRecord;
    audit: KeyAuditRecord;
  }): Promise<KeyChangeResult>;
  list(accountId: string): Promise<{ keys: ApiKeyRecord[]; audit: KeyAuditRecord[] }>;
  /**
   * Creates the key with its audit record unless the request (`requestHash`, the hash of its
   * client token) made one already or the environment has `limit` usable keys; concurrent
   * creations of one account and environment are serialized, so neither check can be raced.
   */
  createForRequest(input: KeyCreationRequest): Promise<KeyCreation>;
  /** Sets the key's label, or removes it (`null`), with the audit record. */
  relabel(
    accountId: string,
    keyId: string,
    label: string | null,
    audit: KeyAuditRecord,
  ): Promise<KeyChangeResult>;
}

export type RotationOutcome =
  | { outcome: 'rotated'; secret: string; record: ApiKeyRecord; oldExpiresAt: Date }
  | { outcome: 'no-such-key' }
  | { outcome: 'not-active'; status: ApiKeyRecord['status'] | 'expired' | 'changed' };

/**
 * Rotates an active key: a new key for the same account and environment (its secret returned,
 * to be shown once), the old one expiring after `graceMs` (or at its own expiry, if sooner), with
 * the audit record, in one transaction. `npm run keys -- rotate` and the console both call it.
 */
export async function rotateKey(
  keys: KeyAdministration,
  input: { accountId: string; keyId: string; graceMs: number; by: string; now: Date },
): Promise<RotationOutcome> {
  const { accountId, keyId, graceMs, by, now } = input;
  const old = await keys.find(accountId, keyId);
  if (!old) return { outcome: 'no-such-key' };
  if (old.status !== 'active') return { outcome: 'not-active', status: old.status };
  const oldExpiresAt = rotatedExpiry(old, now, graceMs);
  if (oldExpiresAt <= now) return { outcome: 'not-active', status: 'expired' };
  const secret = generateKeySecret(old.environment);
  // The replacement serves the same integration: it keeps the label.
  const { hash, record } = newKeyRecord(secret, accountId, now, null, old.label);
  const audit = newAuditRecord(
    {
      accountId,
      action: 'rotated',
      keyId,
      by,
      detail: `replaced by ${record.keyId}; expires ${oldExpiresAt.toISOString()}`,
    },
    now,
  );
  const result = await keys.rotate({ old, oldExpiresAt, newHash: hash, newRecord: record, audit });
  if (result === 'no-such-key') return { outcome: 'no-such-key' };
  if (result === 'not-active') return { outcome: 'not-active', status: 'changed' };
  return { outcome: 'rotated', secret, record, oldExpiresAt };
}

/** Revokes a key with its audit record: refused from the next request. */
export async function revokeKey(
  keys: KeyAdministration,
  input: { accountId: string; keyId: string; by: string; now: Date },
): Promise<KeyChangeResult> {
  const { accountId, keyId, by, now } = input;
  const audit = newAuditRecord(
    { accountId, action: 'revoked', keyId, by, detail: 'refused from the next request' },
    now,
  );
  return keys.revoke(accountId, keyId, now, audit);
}
