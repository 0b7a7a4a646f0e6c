/** The console's calls: the API's own routes and the console's, same origin, with the session cookie. */

/** `/console` → `/`; `/prod/console` → `/prod/`: the deployment's base, under any stage prefix. */
export const base = new URL('.', location.href).pathname;

export interface Session {
  accountId: string;
  environment: 'test' | 'live';
  keyId: string;
  sessionId: string;
  csrfToken: string;
  expiresAt: string;
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
    headers: {
      Accept: 'application/json',
      Authorization: `Console-Session ${edgeToken}`,
      ...(method === 'GET' ? {} : { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await response.json().catch(() => ({}));
  if (response.status === 401) onSignedOut();
  if (!response.ok) {
    const error = json.error ?? {};
    throw new ApiFailure(
      response.status,
      error.code ?? 'unknown',
      error.message ?? response.statusText,
      error.param ?? null,
    );
  }
  return { status: response.status, body: json };
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
