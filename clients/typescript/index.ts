/**
 * A small typed client for the Company Register Data Service: `openapi-fetch` over the types
 * `openapi-typescript` generates from docs/openapi.json (`schema.ts`). Every path, parameter,
 * body, success and error response is typed from the published contract. It sends the API key,
 * gives every purchase and order a fresh `Idempotency-Key`, retries what the API says may be
 * retried (honouring `Retry-After`), pages through any list (`client.list`), and verifies webhook
 * deliveries (`verifyWebhook`). `npm run client:build` builds it into an installable package.
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

const replayable = (request: Request): boolean =>
  request.method === 'GET' || request.method === 'HEAD' || request.headers.has('Idempotency-Key');

/**
 * Whether to send a request again (spec 7.2). A 429 was refused before anything ran, so any
 * request is retried after it. Anything else only when sending it again cannot do anything
 * twice (a read, or a POST with an `Idempotency-Key`, which the API answers with the first
 * result): a 503, a 502 once, and any answer that says when to come back (`Retry-After`, such
 * as a purchase with the same key still in progress).
 */
export function retryable(request: Request, response: Response, attempt: number): boolean {
  if (response.status === 429) return true;
  if (!replayable(request)) return false;
  if (response.status === 503 || response.headers.has('Retry-After')) return true;
  return response.status === 502 && attempt === 0;
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('Retry-After')?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** How long to wait: `Retry-After` when the API sent one, else 1, 2, 4… seconds (with jitter), capped. */
export function retryDelayMs(response: Response, attempt: number, maxDelaySeconds = 60): number {
  const wait = retryAfterMs(response) ?? 2 ** attempt * (0.5 + Math.random() / 2) * 1000;
  return Math.min(wait, maxDelaySeconds * 1000);
}

/** `fetch` that retries as `retryable` says, resending the same request (and so the same key). */
export function retryingFetch(inner: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const retries = options.retries ?? 3;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await inner(request.clone());
      if (attempt >= retries || !retryable(request, response, attempt)) return response;
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
