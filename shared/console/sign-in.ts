/**
 * Signing in to the console without handing the browser a key (docs/console.md):
 *
 * 1. `createSignInLink`: a caller holding a key (its backend, `POST /v1/console/sessions`, or an
 *    operator, `npm run keys -- console-link`) gets a link valid for 5 minutes, once.
 * 2. `checkSignInLink`: opening it (GET) shows a page that says what the link can do, changing
 *    nothing, so a link scanner's GET does not spend it; `openSignInLink`: the page's button (POST)
 *    marks the link used and opens a session for the key's account and environment (8 hours at
 *    most), with an audit record, in one transaction; the browser gets the session's token in an
 *    HttpOnly cookie. The pipeline then accepts the cookie as the key
 *    (shared/kernel/sessions.ts).
 * 3. `signOut`: ends the session at once, with an audit record.
 */
import { type ApiKeyRecord, isKeyUsable } from '../kernel/api-keys.ts';
import { newAuditRecord } from '../kernel/key-admin.ts';
import type { ApiKeyRepository } from '../kernel/ports/api-keys.ts';
import {
  type ConsoleSessionRecord,
  hashToken,
  isTokenShaped,
  LINK_LIFETIME_MS,
  newToken,
  SESSION_LIFETIME_MS,
  sessionIdForHash,
} from '../kernel/sessions.ts';
import type { SignInProblem } from './pages.ts';
import type { ConsoleSessionStore, SignInLinkRecord } from './store-port.ts';

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

/** What a link's page reads of the credential it stands for: the key, or the member. */
export type LinkCredentials = Pick<ApiKeyRepository, 'findByHash' | 'findMember'>;

/** The member a member's link stands for, if it is still a member (not removed since). */
async function linkMember(credentials: LinkCredentials, link: SignInLinkRecord) {
  if (link.memberId === undefined) return undefined;
  const member = await credentials.findMember(link.accountId, link.memberId);
  return member?.environment === link.environment ? member : undefined;
}

async function linkUsable(credentials: LinkCredentials, link: SignInLinkRecord, now: Date) {
  if (link.memberId !== undefined) return (await linkMember(credentials, link)) !== undefined;
  if (link.keyHash === undefined) return false;
  const key = await credentials.findByHash(link.keyHash);
  return key !== undefined && isKeyUsable(key, now);
}

/**
 * What a link can still do, read without changing anything (opening the link in a browser, which a
 * mail or chat scanner may do too): `invalid` for a token that is malformed, never issued (or
 * forgotten after a week), or whose key no longer works or whose member was removed (404);
 * `expired` past its lifetime and `used` once it opened a session (410).
 */
export async function checkSignInLink(
  store: ConsoleSessionStore,
  input: { token: string | undefined; now: Date; credentials: LinkCredentials },
): Promise<{ outcome: 'ready'; link: SignInLinkRecord } | { outcome: SignInProblem }> {
  if (input.token === undefined || !isTokenShaped(input.token)) return { outcome: 'invalid' };
  const link = await store.findLink(hashToken(input.token));
  if (!link) return { outcome: 'invalid' };
  if (link.usedAt) return { outcome: 'used' };
  if (Date.parse(link.expiresAt) <= input.now.getTime()) return { outcome: 'expired' };
  if (!(await linkUsable(input.credentials, link, input.now))) return { outcome: 'invalid' };
  return { outcome: 'ready', link };
}

export type SignInOutcome =
  | { outcome: 'signed-in'; token: string; session: ConsoleSessionRecord }
  | { outcome: SignInProblem };

const LINK_KINDS = { invitation: 'invitation', email: 'emailed link' } as const;

/**
 * Opens the session a link stands for: the explicit sign-in (a POST from the link's page), never
 * the GET that shows the page. A link that cannot (`checkSignInLink`), or that another request
 * opened first (`used`), changes nothing. A member's link opens a session of the member as it is
 * now (its role), and an invitation's first sign-in makes the member active.
 */
export async function openSignInLink(
  store: ConsoleSessionStore,
  input: { token: string | undefined; now: Date; credentials: LinkCredentials },
): Promise<SignInOutcome> {
  const checked = await checkSignInLink(store, input);
  if (checked.outcome !== 'ready') return checked;
  const { link } = checked;
  const member = await linkMember(input.credentials, link);
  if (link.memberId !== undefined && !member) return { outcome: 'invalid' };
  const linkHash = hashToken(input.token as string);
  const token = newToken();
  const sessionHash = hashToken(token);
  const session: ConsoleSessionRecord = {
    sessionId: sessionIdForHash(sessionHash),
    accountId: link.accountId,
    environment: link.environment,
    keyId: member ? member.memberId : (link.keyId as string),
    ...(member
      ? {
          member: {
            memberId: member.memberId,
            email: member.email,
            role: member.role,
            generation: member.generation,
          },
        }
      : { keyHash: link.keyHash as string }),
    csrfToken: newToken(),
    createdAt: input.now.toISOString(),
    expiresAt: new Date(input.now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    revokedAt: null,
  };
  const audit = newAuditRecord(
    {
      accountId: link.accountId,
      action: 'signed_in',
      keyId: session.keyId,
      by: member ? `member:${member.email}` : `console:${session.sessionId}`,
      detail: member
        ? `${link.environment} console session as ${member.role} (${LINK_KINDS[link.purpose ?? 'email']}, ${session.sessionId}) until ${session.expiresAt}`
        : `${link.environment} console session until ${session.expiresAt}`,
    },
    input.now,
  );
  const opened = await store.openSession({
    linkHash,
    sessionHash,
    session,
    audit,
    ...(member ? { member } : {}),
  });
  return opened === 'opened' ? { outcome: 'signed-in', token, session } : { outcome: 'used' };
}

/**
 * Whether a sign-in POST comes from the link's own page (login CSRF: another site must not sign a
 * browser in to someone else's session). Browsers send `Sec-Fetch-Site`, which a page cannot set:
 * it must be `same-origin`. Without it (an older browser) the `Origin` must name this host; the
 * pages' `Referrer-Policy: no-referrer` makes a browser send `Origin: null` with the form, which is
 * refused then, as another site's sandboxed frame sends it too. A request with neither is no
 * browser's form (a script holding the link could open it anyway).
 */
export function isSameOriginPost(headers: Readonly<Record<string, string>>): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === headers.host;
  } catch {
    return false;
  }
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
