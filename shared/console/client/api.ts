/** The console's calls: the API's own routes and the console's, same origin, with the session cookie. */

/**
 * The deployment's base, under any stage prefix: the folder above the script's own
 * (`/prod/console/console.js` → `/prod/`), whichever page loaded it (`/console`, or the members'
 * sign-in page `/console/sign-in/email`).
 */
export const base = new URL(
  '..',
  (document.currentScript as HTMLScriptElement | null)?.src ??
    `${location.href.replace(/[^/]*$/, '')}console/`,
).pathname;

export interface Session {
  accountId: string;
  environment: 'test' | 'live';
  keyId: string;
  sessionId: string;
  csrfToken: string;
  expiresAt: string;
  /** What the service lets this session do (a key's link: admin). */
  role: 'admin' | 'developer' | 'billing';
  /** A member's session: who. */
  member: { memberId: string; email: string } | null;
}

/**
 * The session's edge token, which `GET /console` wrote into the page: the gateway's key authorizer
 * looks the session up by it (shared/kernel/http/authorizer.ts). The session cookie itself is
 * `HttpOnly`.
 */
const edgeToken = document.querySelector<HTMLMetaElement>('meta[name="crds-edge-token"]')?.content ?? '';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

let csrfToken = '';
export const useCsrfToken = (token: string) => {
  csrfToken = token;
};

/** Called when the session has ended (401): the shell shows the signed-out page. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler;
};

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read by the views that asked for it
export type Json = any;

/** What every call of the page carries: the session's edge token, and on a change its CSRF token. */
function headersFor(method: string, accept: string): Record<string, string> {
  return {
    Accept: accept,
    // The gateway's key check reads the session's edge token here (the cookie itself is
    // HttpOnly); shared/kernel/http/authorizer.ts.
    Authorization: `Console-Session ${edgeToken}`,
    ...(method === 'GET' ? {} : { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken }),
  };
}

/** A failed answer as an `ApiFailure` (its error envelope's code, message and param). */
async function failureOf(response: Response): Promise<ApiFailure> {
  if (response.status === 401) onSignedOut();
  const error = ((await response.json().catch(() => ({}))) as Json).error ?? {};
  return new ApiFailure(
    response.status,
    error.code ?? 'unknown',
    error.message ?? response.statusText,
    error.param ?? null,
  );
}

/** A call and its status (a change may answer 201, or 202 while it goes on). */
export async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const response = await fetch(base + path.replace(/^\//, ''), {
    method,
    credentials: 'same-origin',
    headers: { ...headersFor(method, 'application/json'), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw await failureOf(response);
  return { status: response.status, body: await response.json().catch(() => ({})) };
}

/**
 * A file the API answers with (an order's PDF), read with the session like any call: a plain
 * link would not carry the session's edge token, and the gateway would refuse it.
 */
export async function getFile(path: string, accept: string): Promise<Blob> {
  const response = await fetch(base + path.replace(/^\//, ''), {
    credentials: 'same-origin',
    headers: headersFor('GET', accept),
  });
  if (!response.ok) throw await failureOf(response);
  return response.blob();
}

export async function call(method: string, path: string, body?: unknown): Promise<Json> {
  return (await send(method, path, body)).body;
}

export const get = (path: string) => call('GET', path);

/** Every page of a list (at most `maxPages` of 100). */
export async function all(path: string, maxPages = 50): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page += 1) {
    const separator = path.includes('?') ? '&' : '?';
    const json: Json = await get(
      `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...json.data);
    if (!json.hasMore) break;
    cursor = json.nextCursor;
  }
  return items;
}
