import { createHash, randomBytes } from 'node:crypto';

export const environments = ['test', 'live'] as const;
export type Environment = (typeof environments)[number];

export type ApiKeyStatus = 'active' | 'revoked';

/** What the service keeps about a key. The secret itself is never stored, only its SHA-256. */
export interface ApiKeyRecord {
  keyId: string;
  accountId: string;
  environment: Environment;
  status: ApiKeyStatus;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** Last four characters of the secret, to tell keys apart in listings. */
  lastFour: string;
  /** The hour the key was last used in (`usedHour`), recorded at most once an hour; absent until then. */
  lastUsedHour?: string;
  /** What the account calls it (`KEY_LABEL_PATTERN`); absent until someone names it. */
  label?: string;
}

/**
 * A key's label: 1 to 40 characters, letters and digits of any script, spaces and `. , ' ( ) / & : # + @ _ -`,
 * starting with a letter or digit and not ending in a space. Nothing in it can act in a terminal
 * (`npm run keys -- list`), a spreadsheet or a page.
 */
export const KEY_LABEL_PATTERN =
  /^(?=.{1,40}$)[\p{L}\p{N}](?:[\p{L}\p{N} .,'()/&:#+@_-]*[\p{L}\p{N}.,'()/&:#+@_-])?$/u;
export const KEY_LABEL_RULE =
  "label must be 1 to 40 letters, digits, spaces or . , ' ( ) / & : # + @ _ -, starting with a letter or digit";

/** The name a key goes by: its label, else its environment and last four (`Test key …Ab3d`). */
export const keyNameOf = (key: Pick<ApiKeyRecord, 'label' | 'environment' | 'lastFour'>): string =>
  key.label ?? `${key.environment === 'live' ? 'Live' : 'Test'} key …${key.lastFour}`;

/** `2026-11-28T01:43:49.123Z` → `2026-11-28T01:00:00Z`: a key's last use is kept to the hour. */
export const usedHour = (now: Date): string => `${now.toISOString().slice(0, 13)}:00:00Z`;

/** Keys look like `sk_test_…` or `sk_live_…`; the prefix always matches the key's environment. */
const KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9]{1,128}$/;
const ACCOUNT_PATTERN = /^acct_[A-Za-z0-9_]{1,64}$/;

export const isValidAccountId = (accountId: string): boolean => ACCOUNT_PATTERN.test(accountId);

export function environmentOfKey(secret: string): Environment | undefined {
  const match = KEY_PATTERN.exec(secret);
  return match ? (match[1] as Environment) : undefined;
}

/** SHA-256 is enough: keys carry 190 bits of randomness, so there is nothing to brute-force. */
export const hashKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const keyIdForHash = (hash: string): string => `key_${hash.slice(0, 20)}`;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function generateKeySecret(environment: Environment): string {
  const bytes = randomBytes(32);
  const body = Array.from(bytes, (b) => BASE62[b % 62]).join('');
  return `sk_${environment}_${body}`;
}

/**
 * The bearer token of an Authorization header, or undefined when the header is malformed. The
 * scheme is case-insensitive (RFC 9110 §11.1), and one or more spaces separate it from the token
 * (`1*SP`, RFC 9110 §11.6.2); the token must be there and be one word.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^bearer +([^\s]+)$/i.exec(header.trim());
  const token = match?.[1];
  return token && environmentOfKey(token) ? token : undefined;
}

export function isKeyUsable(record: ApiKeyRecord, now: Date): boolean {
  if (record.status !== 'active') return false;
  return record.expiresAt === null || Date.parse(record.expiresAt) > now.getTime();
}

export function newKeyRecord(
  secret: string,
  accountId: string,
  now: Date,
  expiresAt: Date | null = null,
  label?: string,
): { hash: string; record: ApiKeyRecord } {
  const environment = environmentOfKey(secret);
  if (!environment) throw new Error('An API key must look like sk_test_… or sk_live_… (letters and digits).');
  if (!isValidAccountId(accountId))
    throw new Error('An account id must look like acct_… (letters, digits, _).');
  const hash = hashKey(secret);
  return {
    hash,
    record: {
      keyId: keyIdForHash(hash),
      accountId,
      environment,
      status: 'active',
      createdAt: now.toISOString(),
      expiresAt: expiresAt ? expiresAt.toISOString() : null,
      revokedAt: null,
      lastFour: secret.slice(-4),
      ...(label === undefined ? {} : { label }),
    },
  };
}

/** Whose a record is: an account, in one environment. */
export interface Owner {
  accountId: string;
  environment: Environment;
}

export const isSameOwner = (subject: Owner, owner: Owner) =>
  subject.accountId === owner.accountId && subject.environment === owner.environment;
