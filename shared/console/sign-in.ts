/**
 * Signing in to the console without handing the browser a key (docs/console.md):
 *
 * 1. `createSignInLink`: a caller holding a key (its backend, `POST /v1/console/sessions`, or an
 *    operator, `npm run keys -- console-link`) gets a link valid for 5 minutes, once.
 * 2. `openSignInLink`: opening it deletes the link and opens a session for the key's account and
 *    environment (8 hours at most), with an audit record, in one transaction; the browser gets the
 *    session's token in an HttpOnly cookie. The pipeline then accepts the cookie as the key
 *    (shared/kernel/sessions.ts).
 * 3. `signOut`: ends the session at once, with an audit record.
 */
import type { ApiKeyRecord } from '../kernel/api-keys.ts';
import { newAuditRecord } from '../kernel/key-admin.ts';
import {
  type ConsoleSessionRecord,
  hashToken,
  isTokenShaped,
  LINK_LIFETIME_MS,
  newToken,
  SESSION_LIFETIME_MS,
  sessionIdForHash,
} from '../kernel/sessions.ts';
import type { ConsoleSessionStore } from './store-port.ts';

/** Where a link points: `<base>/console/sign-in?token=…`. */
export const SIGN_IN_PATH = '/console/sign-in';
/** The link's query argument holding its token. */
export const SIGN_IN_TOKEN_PARAM = 'token';

export async function createSignInLink(
  store: ConsoleSessionStore,
  input: {
    key: Pick<ApiKeyRecord, 'accountId' | 'environment' | 'keyId'>;
    keyHash: string;
    baseUrl: string;
    now: Date;
  },
): Promise<{ url: string; expiresAt: string }> {
  const token = newToken();
  const expiresAt = new Date(input.now.getTime() + LINK_LIFETIME_MS).toISOString();
  await store.createLink(hashToken(token), {
    accountId: input.key.accountId,
    environment: input.key.environment,
    keyId: input.key.keyId,
    keyHash: input.keyHash,
    createdAt: input.now.toISOString(),
    expiresAt,
  });
  return { url: `${input.baseUrl}${SIGN_IN_PATH}?${SIGN_IN_TOKEN_PARAM}=${token}`, expiresAt };
}

export type SignInOutcome =
  | { outcome: 'signed-in'; token: string; session: ConsoleSessionRecord }
  | { outcome: 'invalid' | 'expired' | 'used' };

/**
 * Opens the session a link stands for. An unknown or malformed token is `invalid`, a link past its
 * 5 minutes `expired`, one another request opened first `used`: none of them changes anything.
 * `keyUsable` tells whether the link's key still works (a revoked key's link opens nothing).
 */
export async function openSignInLink(
  store: ConsoleSessionStore,
  input: { token: string; now: Date; keyUsable: (keyHash: string) => Promise<boolean> },
): Promise<SignInOutcome> {
  if (!isTokenShaped(input.token)) return { outcome: 'invalid' };
  const linkHash = hashToken(input.token);
  const link = await store.findLink(linkHash);
  if (!link) return { outcome: 'used' };
  if (Date.parse(link.expiresAt) <= input.now.getTime()) return { outcome: 'expired' };
  if (!(await input.keyUsable(link.keyHash))) return { outcome: 'invalid' };
  const token = newToken();
  const sessionHash = hashToken(token);
  const session: ConsoleSessionRecord = {
    sessionId: sessionIdForHash(sessionHash),
    accountId: link.accountId,
    environment: link.environment,
    keyId: link.keyId,
    keyHash: link.keyHash,
    csrfToken: newToken(),
    createdAt: input.now.toISOString(),
    expiresAt: new Date(input.now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    revokedAt: null,
  };
  const audit = newAuditRecord(
    {
      accountId: link.accountId,
      action: 'signed_in',
      keyId: link.keyId,
      by: `console:${session.sessionId}`,
      detail: `${link.environment} console session until ${session.expiresAt}`,
    },
    input.now,
  );
  const opened = await store.openSession({ linkHash, sessionHash, session, audit });
  return opened === 'opened' ? { outcome: 'signed-in', token, session } : { outcome: 'used' };
}

/** Ends the session named by its token; false when it had ended already. */
export async function signOut(
  store: ConsoleSessionStore,
  input: { token: string; session: { sessionId: string }; accountId: string; keyId: string; now: Date },
): Promise<boolean> {
  const audit = newAuditRecord(
    {
      accountId: input.accountId,
      action: 'signed_out',
      keyId: input.keyId,
      by: `console:${input.session.sessionId}`,
      detail: 'signed out',
    },
    input.now,
  );
  return store.endSession(hashToken(input.token), input.now, audit);
}
