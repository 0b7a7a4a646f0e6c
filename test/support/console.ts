/**
 * The console's sign-in for HTTP and browser tests: a link from a key, opened like a browser would,
 * the session cookie and CSRF token it gives, and the keys table's audit records.
 */

import { DynamoKeyAdministration } from '../../shared/adapters/dynamodb/key-admin.ts';
import { SESSION_COOKIE } from '../../shared/kernel/sessions.ts';
import { baseUrl, call } from './api.ts';
import './ports.ts';
import { localStack } from './stack.ts';

export const keyAdmin = new DynamoKeyAdministration(localStack.tableNames.keys);

/** `POST /v1/console/sessions` with the key: the link's URL. */
export async function signInLink(secret: string): Promise<string> {
  const response = await call<{ url: string }>('/v1/console/sessions', {
    key: secret,
    method: 'POST',
    body: {},
  });
  if (response.status !== 201) throw new Error(`no link: ${response.status} ${response.text}`);
  return response.body.url;
}

/** Opens a link without following its redirect. */
export const openLink = (url: string) => fetch(url, { redirect: 'manual' });

/** The session token from a `Set-Cookie` header. */
export function sessionTokenOf(response: Response): string {
  const cookie = response.headers.get('set-cookie') ?? '';
  const match = new RegExp(`^${SESSION_COOKIE}=([^;]+);`).exec(cookie);
  if (!match) throw new Error(`no session cookie in ${JSON.stringify(cookie)}`);
  return match[1] as string;
}

export interface ConsoleSession {
  token: string;
  cookie: string;
  csrfToken: string;
  accountId: string;
  environment: string;
  sessionId: string;
}

/** Signs in with a new link: the session's cookie and CSRF token. */
export async function signIn(secret: string): Promise<ConsoleSession> {
  const opened = await openLink(await signInLink(secret));
  if (opened.status !== 303) throw new Error(`sign-in failed: ${opened.status}`);
  const token = sessionTokenOf(opened);
  const cookie = `${SESSION_COOKIE}=${token}`;
  const session = (await (
    await fetch(`${baseUrl}/console/session`, {
      headers: { Cookie: cookie, Authorization: 'Console-Session' },
    })
  ).json()) as {
    csrfToken: string;
    accountId: string;
    environment: string;
    sessionId: string;
  };
  return { token, cookie, ...session };
}

/** A request with the session's cookie (and its CSRF token unless `csrf` says otherwise). */
export async function withSession(
  session: Pick<ConsoleSession, 'cookie' | 'csrfToken'>,
  path: string,
  options: { method?: string; body?: unknown; csrf?: string | null } = {},
): Promise<{
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { error?: { code: string; param: string | null; type: string } };
}> {
  const method = options.method ?? 'GET';
  const csrf = options.csrf === undefined ? session.csrfToken : options.csrf;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      Cookie: session.cookie,
      // As the console's page sends it (shared/console/client/api.ts): the gateway's key check
      // lets a session through by this marker.
      Authorization: 'Console-Session',
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(method !== 'GET' && csrf !== null ? { 'X-CSRF-Token': csrf } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  type Body = Record<string, unknown> & { error?: { code: string; param: string | null; type: string } };
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
}
