/**
 * A small typed client for the Company Register Data Service: `openapi-fetch` over the types
 * `openapi-typescript` generates from docs/openapi.json (`schema.ts`). Every path, parameter,
 * body, success and error response is typed from the published contract; it sends the API key,
 * and retries what the API says may be retried, honouring `Retry-After`. See README.md.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.ts';

export type { components, operations, paths };
export type CompanyRegisterClient = Client<paths>;

/** The error envelope of spec 7.1, as any error response of the API has it. */
export type ApiErrorBody = {
  error: {
    type: string;
    code: string;
    message: string;
    param: string | null;
    registryCode: string | null;
    requestId: string;
    details?: components['schemas']['ErrorDetails'];
    docUrl: string;
  };
};

export interface RetryOptions {
  /** Attempts after the first one (default 3; 0 turns retries off). */
  readonly retries?: number;
  /** Longest wait in seconds, whatever `Retry-After` says (default 60). */
  readonly maxDelaySeconds?: number;
  /** Waits; tests pass a fake. */
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface ClientOptions extends RetryOptions {
  /** Where the API is, without `/v1` (for example `https://api.example.com/prod`). */
  readonly baseUrl: string;
  /** `sk_test_…` (sandbox, never billed) or `sk_live_…`. */
  readonly apiKey: string;
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch;
}

/** A fresh `Idempotency-Key` for a purchase: send the same one with every retry of that purchase. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

/**
 * Statuses worth retrying (spec 7.2): 429 after `Retry-After`, 503 with backoff, 502 once. A
 * POST is retried only when it carries an `Idempotency-Key`, so that a retry can never buy twice.
 */
export function retryable(request: Request, status: number, attempt: number): boolean {
  if (request.method === 'POST' && !request.headers.has('Idempotency-Key')) return false;
  if (status === 429 || status === 503) return true;
  return status === 502 && attempt === 0;
}

/** Seconds to wait: `Retry-After` when the API sent one, else 1, 2, 4… (with jitter), capped. */
export function retryDelayMs(response: Response, attempt: number, maxDelaySeconds = 60): number {
  const header = Number(response.headers.get('Retry-After'));
  const seconds =
    Number.isFinite(header) && header >= 0 && response.headers.has('Retry-After')
      ? header
      : 2 ** attempt * (0.5 + Math.random() / 2);
  return Math.min(seconds, maxDelaySeconds) * 1000;
}

/**
 * A purchase with this `Idempotency-Key` is still in progress (409 `idempotency_key_in_use`): the
 * same request, sent again after `Retry-After`, gets its result. Any other 409 (a key reused with
 * a different request, `idempotency_conflict`) is never retried.
 */
export async function isKeyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: { code?: unknown } } | null;
  return body?.error?.code === 'idempotency_key_in_use';
}

/** `fetch` that retries as `retryable` says, resending the same request (and so the same key). */
export function retryingFetch(inner: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const retries = options.retries ?? 3;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await inner(request.clone());
      if (
        attempt >= retries ||
        !(retryable(request, response.status, attempt) || (await isKeyInUse(response)))
      ) {
        return response;
      }
      await response.body?.cancel();
      await sleep(retryDelayMs(response, attempt, options.maxDelaySeconds));
    }
  };
}

const auth = (apiKey: string): Middleware => ({
  onRequest({ request }) {
    request.headers.set('Authorization', `Bearer ${apiKey}`);
    return request;
  },
});

/** A client for one API key. */
export function createCompanyRegisterClient(options: ClientOptions): CompanyRegisterClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, options),
  });
  client.use(auth(options.apiKey));
  return client;
}
