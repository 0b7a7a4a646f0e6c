/**
 * A small typed client for the Company Register Data Service: `openapi-fetch` over the types
 * `openapi-typescript` generates from docs/openapi.json (`schema.ts`). Every path, parameter,
 * body, success and error response is typed from the published contract. It sends the API key,
 * gives every purchase and order a fresh `Idempotency-Key` (`idempotencyKeyOf(response)` tells
 * it), retries what spec 7.2 says may be retried (honouring `Retry-After`) and, for a read or a
 * request with its key, a lost connection, pages through any list (`client.list`), and verifies
 * webhook deliveries (`verifyWebhook`). `npm run client:build` builds it into an installable package.
 */
import createClient, { type Client, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { type components, idempotentPosts, type operations, type paths } from './schema.ts';

export {
  type VerifiedEvent,
  type VerifyOptions,
  verifyWebhook,
  WebhookVerificationError,
} from '../../shared/webhooks/verify.ts';
export type { components, operations, paths };
/** The contract's named types: `Schemas['Company']`, `Schemas['CompanyExtract']`, `Schemas['OrderDelivery']`… */
export type Schemas = components['schemas'];

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
  /** Attempts after the first one (default 6; 0 turns retries off). */
  readonly retries?: number;
  /** Longest wait in seconds, whatever `Retry-After` says (default 60, as spec 8 says to back off). */
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
 * Whether sending `request` again can do nothing twice: a read, or a POST with an
 * `Idempotency-Key` (the API answers its retry with the first result, never a second purchase).
 */
export const replayable = (request: Request): boolean =>
  request.method === 'GET' || request.method === 'HEAD' || request.headers.has('Idempotency-Key');

/** What came back from one attempt: an answer, or no answer at all (the connection failed). */
export type Outcome = Response | { readonly networkError: unknown };

const isResponse = (outcome: Outcome): outcome is Response => outcome instanceof Response;

/**
 * Whether to send a request again, by spec 7.2's "Retry" column, given the statuses already
 * retried (`earlier`). A 429 was refused before anything ran, so any request is retried after
 * it. Everything else only when sending it again cannot do anything twice (`replayable`):
 *
 * - no answer (a dropped or refused connection, a reset): the request may or may not have run,
 *   which only an `Idempotency-Key` makes safe to find out by asking again;
 * - 503 (`registry_unavailable_error`), after its `Retry-After`, with backoff;
 * - 500 and 502 (`api_error`), once each.
 *
 * Never another 4xx: it needs a change to the request.
 */
export function retryable(request: Request, outcome: Outcome, earlier: readonly number[] = []): boolean {
  if (!isResponse(outcome)) return replayable(request);
  if (outcome.status === 429) return true;
  if (!replayable(request)) return false;
  if (outcome.status === 503) return true;
  return (outcome.status === 500 || outcome.status === 502) && !earlier.includes(outcome.status);
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('Retry-After')?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * How long to wait before attempt `attempt + 1`: `Retry-After` when the API sent one, or the
 * backoff if that is longer (1, 2, 4… seconds, doubling with each attempt, jittered to 50 to 100%
 * of it); capped at `maxDelaySeconds`.
 */
export function retryDelayMs(outcome: Outcome, attempt: number, maxDelaySeconds = 60): number {
  const backoff = 2 ** attempt * (0.5 + Math.random() / 2) * 1000;
  const told = isResponse(outcome) ? retryAfterMs(outcome) : undefined;
  return Math.min(Math.max(told ?? 0, backoff), maxDelaySeconds * 1000);
}

const keys = new WeakMap<Response, string>();

/**
 * The `Idempotency-Key` a purchase or order was sent with (the client's own, or yours): keep it
 * to retry that purchase later, for example after `fetch` failed for good.
 *
 *   const { response } = await client.POST('/v1/companies/{id}/extracts', …);
 *   idempotencyKeyOf(response);
 */
export const idempotencyKeyOf = (response: Response): string | undefined => keys.get(response);

/** Thrown when no attempt got an answer: the last network error, and the key to retry with. */
export class CompanyRegisterNetworkError extends Error {
  override readonly name = 'CompanyRegisterNetworkError';
  constructor(
    readonly attempts: number,
    /** The `Idempotency-Key` sent, when there was one: a retry with it never buys twice. */
    readonly idempotencyKey: string | undefined,
    cause: unknown,
  ) {
    super(
      `no answer after ${attempts} attempt(s)${idempotencyKey ? `; retry with Idempotency-Key ${idempotencyKey}` : ''}: ${(cause as Error)?.message ?? String(cause)}`,
      { cause },
    );
  }
}

/** `fetch` that retries as `retryable` says, resending the same request (and so the same key). */
export function retryingFetch(inner: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const retries = options.retries ?? 6;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    const request = new Request(input, init);
    const key = request.headers.get('Idempotency-Key') ?? undefined;
    const earlier: number[] = [];
    for (let attempt = 0; ; attempt++) {
      const outcome: Outcome = await inner(request.clone()).catch((networkError: unknown) => ({
        networkError,
      }));
      const last = attempt >= retries || !retryable(request, outcome, earlier);
      if (last) {
        if (!isResponse(outcome))
          throw new CompanyRegisterNetworkError(attempt + 1, key, outcome.networkError);
        if (key !== undefined) keys.set(outcome, key);
        return outcome;
      }
      if (isResponse(outcome)) {
        earlier.push(outcome.status);
        await outcome.body?.cancel();
      }
      await sleep(retryDelayMs(outcome, attempt, options.maxDelaySeconds));
    }
  };
}

const auth = (apiKey: string): Middleware => ({
  onRequest({ request }) {
    request.headers.set('Authorization', `Bearer ${apiKey}`);
    return request;
  },
});

const idempotentPaths: ReadonlySet<string> = new Set(idempotentPosts);

/**
 * A fresh `Idempotency-Key` on every POST whose operation takes one (the purchases and orders),
 * unless the caller sent their own. The other POSTs are not deduplicated by the API, so they
 * get no key and are not retried after an answer other than 429.
 */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (
      request.method === 'POST' &&
      idempotentPaths.has(schemaPath) &&
      !request.headers.has('Idempotency-Key')
    )
      request.headers.set('Idempotency-Key', newIdempotencyKey());
    return request;
  },
};

type JsonOf<Operation> = Operation extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;
/** The item of a page: a list envelope's `data[]`, or the `items.data[]` of a weekly summary. */
type ItemOf<Body> = Body extends { data: (infer Item)[]; nextCursor: string | null }
  ? Item
  : Body extends { items: { data: (infer Item)[]; nextCursor: string | null } }
    ? Item
    : never;
type GetOf<Path extends keyof paths> = paths[Path] extends { get: infer Operation } ? Operation : never;

/** The paths whose GET answers a page with a cursor: what `client.list` iterates. */
export type ListPath = {
  [Path in keyof paths]: [ItemOf<JsonOf<GetOf<Path>>>] extends [never] ? never : Path;
}[keyof paths];
/** What `client.list(path)` yields. */
export type ListItem<Path extends ListPath> = ItemOf<JsonOf<GetOf<Path>>>;
/** `client.GET`'s options for that path (path and query parameters); `cursor` is the client's to set. */
export type ListInit<Path extends ListPath> = MaybeOptionalInit<paths[Path], 'get'>;

/** Thrown by `client.list` when a page is refused: the error envelope, status and request id. */
export class CompanyRegisterError extends Error {
  override readonly name = 'CompanyRegisterError';
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`${status} ${body.error.code}: ${body.error.message} (request ${body.error.requestId})`);
  }
}

export type CompanyRegisterClient = Client<paths> & {
  /**
   * Every item of a paginated list, page after page, as an async iterable: it follows
   * `nextCursor` until `hasMore` is false. Throws a `CompanyRegisterError` if a page is refused.
   *
   *   for await (const extract of client.list('/v1/extracts')) console.log(extract.id);
   */
  list<Path extends ListPath>(path: Path, init?: ListInit<Path>): AsyncIterable<ListItem<Path>>;
};

interface Page {
  data: unknown[];
  hasMore: boolean;
  nextCursor: string | null;
}

function listOf(client: Client<paths>) {
  return async function* list(path: string, init: { params?: { query?: object } } = {}) {
    let cursor: string | undefined;
    do {
      const query = { ...init.params?.query, ...(cursor ? { cursor } : {}) };
      // The path is one of ListPath's, checked where `list` is called.
      const get = client.GET as (path: string, init: object) => ReturnType<Client<paths>['GET']>;
      const { data, error, response } = await get(path, { ...init, params: { ...init.params, query } });
      if (error !== undefined || data === undefined)
        throw new CompanyRegisterError(response.status, error as ApiErrorBody);
      const page = ('items' in data ? data.items : data) as Page;
      yield* page.data;
      cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
    } while (cursor);
  };
}

/** A client for one API key. */
export function createCompanyRegisterClient(options: ClientOptions): CompanyRegisterClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, options),
  });
  client.use(auth(options.apiKey), idempotencyKeys);
  return Object.assign(client, { list: listOf(client) as CompanyRegisterClient['list'] });
}
