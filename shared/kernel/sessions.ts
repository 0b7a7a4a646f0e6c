/**
 * Console sessions as a credential of the API (the browser console, shared/console/): a session
 * stands for the API key it was opened with, in an `HttpOnly` cookie, so that the browser never
 * holds the key. The pipeline (middleware/admit.ts) accepts it where it would accept the key, and
 * refuses a change (any method but GET and HEAD) without the session's CSRF token in
 * `X-CSRF-Token`. A session ends at its expiry, when signed out, or when its key stops working
 * (revoked, or past a rotation's grace): it is checked against the key on every request.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from './api-keys.ts';

/**
 * The cookie holding the session token (the token's SHA-256 is what is stored). `__Host-`: the
 * browser takes it only when `Secure`, with `Path=/` and no `Domain`, so no other host of the
 * domain and no plain-HTTP page can set or shadow it.
 */
export const SESSION_COOKIE = '__Host-crds_console';
/** The `Authorization` scheme of a console request: `Console-Session <edge token>`. */
export const CONSOLE_SESSION_SCHEME = 'Console-Session';
/** The header a change carries the session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** A session lasts at most 8 hours (a working day), then the customer signs in again. */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
/** A sign-in link works once, for 5 minutes. */
export const LINK_LIFETIME_MS = 5 * 60 * 1000;
/**
 * How long a link's record is kept after it was made (then DynamoDB's TTL removes it): for a week a
 * used or expired link is told from one never issued (410, not 404).
 */
export const LINK_RECORD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * What a console session may do (docs/console.md, "Members and roles"): `admin` everything;
 * `developer` the API and the console's key and request pages, never the members; `billing` the
 * usage report only. A route says which roles may call it (`consoleRoles` on its entry); a route
 * that says nothing is for admins only. API keys are not members and have no role.
 */
export const CONSOLE_ROLES = ['admin', 'developer', 'billing'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];
/** The roles of a route an integration's developer uses: the published API's reads and changes. */
export const DEVELOPER_ROLES: readonly ConsoleRole[] = ['admin', 'developer'];
/** The roles of a route every signed-in member may call: their own session, the usage report. */
export const EVERY_ROLE: readonly ConsoleRole[] = CONSOLE_ROLES;

/** Whether a session of `role` may call a route declaring `allowed` (nothing declared: admins only). */
export const roleMayCall = (allowed: readonly ConsoleRole[] | undefined, role: ConsoleRole): boolean =>
  (allowed ?? ['admin']).includes(role);

/**
 * A member of an account and environment (an email address with a role), as the request path
 * reads it for a member's session: the session holds the member's id and `generation`, and a
 * member removed, or whose role changed (which adds one to `generation`), ends every session it had.
 */
export interface ConsoleMemberRecord {
  /** `mem_` and 20 random hex digits: a member removed and invited again is another member. */
  memberId: string;
  accountId: string;
  environment: Environment;
  /** Lower case. */
  email: string;
  role: ConsoleRole;
  /** `invited` until the invitation's link first signs in. */
  status: 'invited' | 'active';
  generation: number;
  invitedAt: string;
  /** Who invited: `console:<session id>`, or `local:<user>` for an operator. */
  invitedBy: string;
  /** Its first sign-in (absent until then). */
  joinedAt?: string;
}

/** The member a member's session stands for, as the session was opened. */
export interface SessionMember {
  memberId: string;
  email: string;
  role: ConsoleRole;
  generation: number;
}

/** Whether the member as stored now is still the one the session was opened for, with the same role. */
export const memberStillHolds = (member: ConsoleMemberRecord | undefined, held: SessionMember): boolean =>
  member !== undefined && member.memberId === held.memberId && member.generation === held.generation;

export interface ConsoleSessionRecord {
  /** `cs_` and the first 20 hex digits of the token's SHA-256: names the session in audit records. */
  sessionId: string;
  accountId: string;
  environment: Environment;
  /**
   * The key the session stands for, and that key's hash (to read it on every request): a session
   * opened with a key's link, which acts as an admin of the key's account. A member's session (an
   * emailed link, or a passkey) has the member's id here and no key hash.
   */
  keyId: string;
  keyHash?: string;
  /** A member's session: the member, read again on every request. */
  member?: SessionMember;
  /** Sent back in `X-CSRF-Token` with every change. */
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
  /** Set by signing out. */
  revokedAt: string | null;
}

/** A random token (256 bits, base64url): sign-in links, session cookies and CSRF tokens. */
export const newToken = (): string => randomBytes(32).toString('base64url');

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const isTokenShaped = (token: string): boolean => TOKEN_PATTERN.test(token);

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
/**
 * What the console's page shows the gateway's key authorizer, as `Authorization: Console-Session
 * <edge token>` (shared/kernel/http/authorizer.ts): the SHA-256 of the session token, which is what
 * the session is stored by, so the authorizer looks it up as it looks up a key and no made-up value
 * passes. The page cannot read the `HttpOnly` cookie, so `GET /console` writes the edge token of
 * the cookie it was sent into the page. It opens no session by itself: every route still needs the
 * cookie.
 */
export const edgeTokenOf = (sessionToken: string): string => hashToken(sessionToken);
const EDGE_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/** The edge token of `Authorization: Console-Session <edge token>`, if the header is one. */
export function consoleEdgeToken(header: string | undefined): string | undefined {
  const match = /^Console-Session +(\S+)$/.exec(header ?? '');
  const token = match?.[1];
  return token !== undefined && EDGE_TOKEN_PATTERN.test(token) ? token : undefined;
}
export const sessionIdForHash = (hash: string): string => `cs_${hash.slice(0, 20)}`;

/** The value of cookie `name` in a `Cookie` header, if it is there once and token-shaped. */
export function cookieToken(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const values = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  const [value] = values;
  return values.length === 1 && value !== undefined && isTokenShaped(value) ? value : undefined;
}

export function isSessionUsable(session: ConsoleSessionRecord, now: Date): boolean {
  return session.revokedAt === null && Date.parse(session.expiresAt) > now.getTime();
}

/** Methods that change nothing, and so need no CSRF token. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** Whether a request's `X-CSRF-Token` is the session's, compared in constant time. */
export function csrfMatches(sent: string | undefined, expected: string): boolean {
  if (sent === undefined) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
