/**
 * The console's HTML: one page whose script (shared/console/client/) draws every view, and the
 * sign-in link's answers. Every response carries the console's own strict headers: scripts,
 * styles and requests from the deployment only (no inline script or style), never framed, HTTPS
 * only, no referrer (a sign-in URL must not leak), no MIME sniffing.
 */
import { escapeHtml } from '../docs/pages.ts';
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from '../kernel/sessions.ts';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The session cookie: script cannot read it, HTTPS only, never sent by another site's request. */
export const sessionCookie = (token: string): string =>
  `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${SESSION_LIFETIME_MS / 1000}`;
export const clearedSessionCookie = `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0`;

/** The meta element `GET /console` writes a session's edge token into (shared/kernel/sessions.ts). */
export const EDGE_TOKEN_META = 'crds-edge-token';

/**
 * `/console`: relative URLs, so that it works under a deployed stage's prefix (`/prod/console`).
 * With the edge token of the session cookie the page was asked with, which its script sends to the
 * gateway's key authorizer with every call.
 */
export function consolePage(edgeToken?: string): string {
  const edge = edgeToken ? `<meta name="${EDGE_TOKEN_META}" content="${escapeHtml(edgeToken)}">` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${edge}
<title>Account console · Company Register Data Service</title>
<link rel="stylesheet" href="console/console.css">
<script src="console/console.js" defer></script></head>
<body><a class="skip" href="#main">Skip to main content</a><div id="app"><main id="main"><p>Loading the console…</p></main></div></body></html>`;
}

export type SignInProblem = 'invalid' | 'expired' | 'used' | 'cross-site';

const problems: Record<SignInProblem, { title: string; text: string }> = {
  invalid: {
    title: 'This sign-in link does not work',
    text: 'The link is not one the service issued, or the key it was made with no longer works.',
  },
  expired: {
    title: 'This sign-in link has expired',
    text: 'Sign-in links work for 5 minutes.',
  },
  used: {
    title: 'This sign-in link has been used',
    text: 'Each sign-in link opens one session, once. If that was not you, revoke the key that asked for it.',
  },
  'cross-site': {
    title: 'Sign in from the link’s own page',
    text: 'This sign-in did not come from the page the link opens, so it was refused. Open the link again and use its button.',
  },
};

/** The status of each problem: 404 for a link that never works, 410 for one that worked once, 403 for a sign-in from elsewhere. */
export const SIGN_IN_PROBLEM_STATUS: Readonly<Record<SignInProblem, number>> = {
  invalid: 404,
  expired: 410,
  used: 410,
  'cross-site': 403,
};

/**
 * The page a usable link opens (from `/console/sign-in`): it spends nothing; its button posts back
 * to the same URL, which signs in. A link scanner that only GETs leaves the link usable.
 */
export function signInPage(link: { environment: string; expiresAt: string }, token: string): string {
  const until = `${link.expiresAt.slice(11, 16)} UTC`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Account console</title><link rel="stylesheet" href="console.css"></head>
<body><main id="main" class="notice"><h1>Sign in to the account console</h1>
<p>This link opens a ${escapeHtml(link.environment)} console session of up to 8 hours. It works once, until ${escapeHtml(until)}.</p>
<form method="post" action="sign-in?token=${encodeURIComponent(token)}"><button type="submit">Sign in</button></form></main></body></html>`;
}

/** An HTML answer of the sign-in routes: never cached, never framed (CONSOLE_HEADERS). */
export const signInHtml = (status: number, text: string, headers: Readonly<Record<string, string>> = {}) => ({
  status,
  body: {},
  file: {
    contentType: 'text/html; charset=utf-8',
    bytes: new TextEncoder().encode(text),
    filename: 'sign-in.html',
  },
  headers: { ...CONSOLE_HEADERS, 'Cache-Control': 'no-store', 'Content-Disposition': 'inline', ...headers },
});

/** The answer to a link that opens nothing (from `/console/sign-in`, so the style sheet is a sibling). */
export function signInProblemPage(problem: SignInProblem): string {
  const { title, text } = problems[problem];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Account console</title><link rel="stylesheet" href="console.css"></head>
<body><main id="main" class="notice"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>
<p>A member of the account: <a href="sign-in/email">ask for a new link by email</a>. An integration: <code>POST /v1/console/sessions</code> with your API key, or <code>npm run keys -- console-link</code> for an operator.</p></main></body></html>`;
}

/** The page a link that cannot sign in answers with, at its problem's status. */
export const signInProblemHtml = (problem: SignInProblem) =>
  signInHtml(SIGN_IN_PROBLEM_STATUS[problem], signInProblemPage(problem));

/** With `script`, the console's script, which draws the passkey button into `#passkey-sign-in`. */
const emailPageHead = (title: string, script = false) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Account console</title><link rel="stylesheet" href="../console.css">${script ? '\n<script src="../console.js" defer></script>' : ''}</head>`;

/**
 * A member's sign-in page (`/console/sign-in/email`): one email field; its form posts to the same
 * URL, which emails a link. `problem` says why the last address was refused (it was not one).
 */
export function emailSignInPage(problem?: string): string {
  const invalid = problem
    ? ` aria-invalid="true" aria-describedby="email-problem"`
    : ' aria-describedby="email-hint"';
  return `${emailPageHead('Sign in', true)}
<body><main id="main" class="notice"><h1>Sign in to the account console</h1>
<p>Members of an account sign in with a link sent to their email address.</p>
<form method="post" action="email"><label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required${invalid}>
${problem ? `<p id="email-problem" class="field-error">${escapeHtml(problem)}</p>` : '<p id="email-hint" class="hint">We send a link that works once, for 5 minutes.</p>'}
<button type="submit">Email me a sign-in link</button></form>
<div id="passkey-sign-in"></div></main></body></html>`;
}

/**
 * The answer to the sign-in form when too many links were asked for in the hour (for the address,
 * member or not, or from the same network): nothing was sent.
 */
export function emailLimitedPage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `${emailPageHead('Too many sign-in links')}
<body><main id="main" class="notice"><h1>Too many sign-in links</h1>
<p role="status">Too many sign-in links have been asked for this address, or from your network, in the last hour, so nothing was sent. Try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}, or use the last link you received if it is less than 5 minutes old.</p>
<p><a href="email">Back to the sign-in page</a></p></main></body></html>`;
}

/** The answer to the sign-in form, the same whether or not the address is a member. */
export function emailSentPage(): string {
  return `${emailPageHead('Check your email')}
<body><main id="main" class="notice"><h1>Check your email</h1>
<p role="status">If this address is a member of an account, a sign-in link is on its way to it. The link works once, for 5 minutes.</p>
<p><a href="email">Use another address</a></p></main></body></html>`;
}
