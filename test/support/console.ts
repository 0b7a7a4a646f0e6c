/**
 * The console's sign-in for HTTP and browser tests: a link from a key, opened like a browser would,
 * the session cookie and CSRF token it gives, and the keys table's audit records.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { OutboxEntry } from '../../local/outbox-mailer.ts';
import { DynamoKeyAdministration } from '../../shared/adapters/dynamodb/key-admin.ts';
import { edgeTokenOf, SESSION_COOKIE } from '../../shared/kernel/sessions.ts';
import { baseUrl, call } from './api.ts';
import { outbox } from './orders.ts';
import './ports.ts';
import { localStack } from './stack.ts';

export const keyAdmin = new DynamoKeyAdministration(localStack.tableNames.keys);

/**
 * Signs `page` in to the console as a person does: opens a fresh link for the key, then presses
 * its Sign in button (the link's GET only shows that page), and waits for the console.
 */
export async function openConsole(page: Page, secret: string): Promise<void> {
  const opened = await page.goto(await signInLink(secret));
  expect(opened?.status()).toBe(200);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/console');
}

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

/** Signs in with a link as its page's button does (a POST to the link's URL), without following the redirect. */
export const openLink = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers });

/** Opens a link as a browser (or a link scanner) does: a GET, which only shows its page. */
export const viewLink = (url: string) => fetch(url, { redirect: 'manual' });

/** The session token from a `Set-Cookie` header. */
export function sessionTokenOf(response: Response): string {
  const cookie = response.headers.get('set-cookie') ?? '';
  const match = new RegExp(`^${SESSION_COOKIE}=([^;]+);`).exec(cookie);
  if (!match) throw new Error(`no session cookie in ${JSON.stringify(cookie)}`);
  return match[1] as string;
}

/** The `Authorization` the console's page sends for a session (shared/console/client/api.ts). */
export const consoleAuthorization = (sessionToken: string) => `Console-Session ${edgeTokenOf(sessionToken)}`;

export interface ConsoleSession {
  token: string;
  cookie: string;
  csrfToken: string;
  accountId: string;
  environment: string;
  sessionId: string;
}

/** Signs in with a new link: the session's cookie and CSRF token. */
export const signIn = async (secret: string): Promise<ConsoleSession> =>
  signInWithLink(await signInLink(secret));

/** A request with the session's cookie (and its CSRF token unless `csrf` says otherwise). */
export async function withSession(
  session: Pick<ConsoleSession, 'token' | 'cookie' | 'csrfToken'>,
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
      Authorization: consoleAuthorization(session.token),
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(method !== 'GET' && csrf !== null ? { 'X-CSRF-Token': csrf } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  type Body = Record<string, unknown> & { error?: { code: string; param: string | null; type: string } };
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
}

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The page as it is passes axe-core's WCAG 2.2 A/AA rules; its screenshot goes to
 * `.local/console-<name>.png` (the first viewport only with `fullPage: false`, for a page too long
 * to capture whole, such as the API reference).
 */
export async function expectAccessible(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  // Only violations are read: axe still runs every rule on every node, but builds the selectors
  // of passing and inapplicable nodes for one node each, which took most of a long page's time.
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(WCAG)
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    name,
  ).toEqual([]);
  mkdirSync('.local', { recursive: true });
  await page.screenshot({ path: `.local/console-${name}.png`, fullPage });
}

/** The newest message of the local outbox to `to` (test/support/orders.ts reads the outbox). */
export async function lastMailTo(to: string): Promise<OutboxEntry> {
  const messages = (await outbox()).filter((message) => message.to === to);
  const message = messages.at(-1);
  if (!message) throw new Error(`no mail to ${to}`);
  return message;
}

/** The sign-in link in a message's text. */
export function linkIn(message: Pick<OutboxEntry, 'text'>): string {
  const match = /(http\S+\/console\/sign-in\?token=[A-Za-z0-9_-]{43})/.exec(message.text);
  if (!match) throw new Error(`no sign-in link in ${JSON.stringify(message.text)}`);
  return match[1] as string;
}

/** Opens a sign-in link as its page's button does, and reads the session it opened. */
export async function signInWithLink(url: string): Promise<ConsoleSession & { role: string }> {
  const opened = await openLink(url);
  if (opened.status !== 303) throw new Error(`sign-in failed: ${opened.status}`);
  const token = sessionTokenOf(opened);
  const cookie = `${SESSION_COOKIE}=${token}`;
  const session = (await (
    await fetch(`${baseUrl}/console/session`, {
      headers: { Cookie: cookie, Authorization: consoleAuthorization(token) },
    })
  ).json()) as { csrfToken: string; accountId: string; environment: string; sessionId: string; role: string };
  return { token, cookie, ...session };
}

/** An admin's session invites `email` as `role`; the invitation's emailed link signs the member in. */
export async function inviteAndSignIn(
  admin: ConsoleSession,
  email: string,
  role: 'admin' | 'developer' | 'billing',
): Promise<ConsoleSession & { role: string; memberId: string }> {
  const invited = await withSession(admin, '/console/members', { method: 'POST', body: { email, role } });
  if (invited.status !== 201)
    throw new Error(`invitation failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const session = await signInWithLink(linkIn(await lastMailTo(email)));
  return { ...session, memberId: invited.body.id as string };
}
