/**
 * The HTTP pipeline every handler shares: one call, `createHttpHandler(route, useCase)`, gives a
 * Lambda proxy handler with request ids, authentication, rate and concurrency limits, input
 * validation, the error envelope and Powertools logging, metrics and tracing.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { type ApiKeyRecord, bearerToken, hashKey, isKeyUsable, keyIdForHash } from '../api-keys.ts';
import { ApiError, errorEnvelope } from '../errors/api-error.ts';
import { logger, redactHeaders, routeMetrics, tracer } from '../observability.ts';
import type { PlatformPorts } from '../ports/platform.ts';
import { decideRate, type RateDecision, unkeyedRateHeaders } from '../rate-limit.ts';
import { apiErrorFromRegistry } from '../registry-errors.ts';
import { isStoreUnavailable, storeUnavailableAnswer } from '../store-unavailable.ts';
import { checkIdempotencyKey, type IdempotencyRunner, recoveryKeyFor } from './idempotency-key.ts';
import { checkBodySize, parseRequest, type RawRequest } from './request.ts';
import { callsRegistry, type RouteDefinition } from './route.ts';
import { registryDeadline, withDeadline } from './time-budget.ts';

export interface AuthContext {
  accountId: string;
  environment: ApiKeyRecord['environment'];
  keyId: string;
}

export interface HandlerInput<R extends RouteDefinition> {
  path: z.output<R['request']['path']>;
  query: z.output<R['request']['query']>;
  body: [NonNullable<R['request']['body']>] extends [z.core.$ZodType]
    ? z.output<NonNullable<R['request']['body']>>
    : undefined;
  headers: Readonly<Record<string, string>>;
  auth: AuthContext;
  requestId: string;
  /** Purchase routes: `X-Client-Reference`, checked (at most 30 characters) or null. */
  clientReference: string | null;
  /** Purchase routes with an `Idempotency-Key`: names the purchase across retries. */
  recoveryKey: string | undefined;
}

export interface HandlerResult {
  /** Defaults to the route's status. */
  status?: number;
  /** The resource or list; the pipeline adds `meta`. */
  body: Record<string, unknown>;
  /** True only when this call incurred a registry fee. */
  billable?: boolean;
  /** `meta.product` when it depends on the request (the route's otherwise). */
  product?: string;
  quantity?: number;
  headers?: Record<string, string>;
  /**
   * A file instead of JSON (a PDF download, a documentation page): sent base64-encoded, as API
   * Gateway expects of binary media, with `status` (default 200) and `headers` (which may replace
   * the attachment disposition and the caching).
   */
  file?: { contentType: string; bytes: Uint8Array; filename: string };
}

export type UseCase<R extends RouteDefinition> = (input: HandlerInput<R>) => Promise<HandlerResult>;

/** Per-request state the middlewares share. */
interface ApiState {
  requestId: string;
  startedAt: number;
  raw: RawRequest;
  auth?: AuthContext;
  rate?: RateDecision;
  lease?: { keyId: string; slot: number; stale: readonly number[]; uncount: boolean };
  input?: { path: unknown; query: unknown; body: unknown };
  /** Purchase routes: the checked `X-Client-Reference` and `Idempotency-Key`. */
  purchase?: { clientReference: string | null; idempotencyKey: string | undefined };
  /** The route's own work began (past authentication, limits and the idempotency record). */
  workBegan?: boolean;
}

type ApiContext = Context & { api: ApiState };
type ApiMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;

const requestIdOf = (event: APIGatewayProxyEvent): string =>
  `req_${event.requestContext?.requestId ?? crypto.randomUUID()}`;

/** Spec 8 puts them on every response; one without a decision had no usable key (or no count). */
function rateHeaders(rate: RateDecision | undefined): Record<string, string> {
  if (!rate) return unkeyedRateHeaders();
  return {
    'RateLimit-Limit': String(rate.limit),
    'RateLimit-Remaining': String(rate.remaining),
    'RateLimit-Reset': String(rate.resetSeconds),
  };
}

function respond(state: ApiState, status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    statusCode: status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Request-Id': state.requestId,
      'Cache-Control': 'no-store',
      ...rateHeaders(state.rate),
      ...headers,
    },
    body: JSON.stringify(body),
  } satisfies APIGatewayProxyResult;
}

function respondWithFile(
  state: ApiState,
  file: NonNullable<HandlerResult['file']>,
  headers: Record<string, string> = {},
  status = 200,
) {
  return {
    statusCode: status,
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'X-Request-Id': state.requestId,
      'Cache-Control': 'private, no-store',
      ...rateHeaders(state.rate),
      ...headers,
    },
    body: Buffer.from(file.bytes).toString('base64'),
    isBase64Encoded: true,
  } satisfies APIGatewayProxyResult;
}

/** Request id, the error envelope, one access log line and the request metrics. */
const envelope = (route: RouteDefinition, metrics: Metrics, ports: PlatformPorts): ApiMiddleware => {
  const finish = (state: ApiState, status: number) => {
    const latencyMs = Date.now() - state.startedAt;
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    if (status >= 500) metrics.addMetric('ServerErrors', MetricUnit.Count, 1);
    else if (status >= 400) metrics.addMetric('ClientErrors', MetricUnit.Count, 1);
    metrics.addMetric('Latency', MetricUnit.Milliseconds, latencyMs);
    logger.info('request completed', {
      method: state.raw.method,
      path: state.raw.path,
      status,
      latencyMs,
      headers: redactHeaders(state.raw.headers),
    });
  };
  return {
    before: (request) => {
      const requestId = requestIdOf(request.event);
      request.context.api = { requestId, startedAt: Date.now(), raw: parseRawRequest(request.event) };
      logger.appendKeys({ requestId, route: route.name });
      // Before authentication, as API Gateway and the local server refuse an oversized request.
      checkBodySize(request.context.api.raw.body);
    },
    after: (request) => {
      finish(request.context.api, request.response?.statusCode ?? 0);
    },
    onError: (request) => {
      const state = request.context.api ?? {
        requestId: requestIdOf(request.event),
        startedAt: Date.now(),
        raw: {
          method: request.event.httpMethod,
          path: request.event.path,
          headers: {},
          query: {},
          body: null,
        },
      };
      const error = toApiError(request.error, route, state.workBegan === true);
      const { docsUrl } = ports.config;
      request.response = respond(state, error.status, errorEnvelope(error, state.requestId, docsUrl), {
        ...error.headers,
      });
      finish(state, error.status);
    },
  };
};

function parseRawRequest(event: APIGatewayProxyEvent): RawRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const query: Record<string, string | string[]> = {};
  const multi = event.multiValueQueryStringParameters ?? {};
  for (const [name, values] of Object.entries(multi)) {
    if (!values) continue;
    query[name] = values.length === 1 && !name.endsWith('[]') ? (values[0] as string) : values;
  }
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (value !== undefined && !(name in query)) query[name] = name.endsWith('[]') ? [value] : value;
  }
  const body =
    event.body === null || event.body === undefined
      ? null
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body;
  return {
    method: event.httpMethod,
    path: event.path,
    headers,
    query,
    body,
    pathParameters: event.pathParameters ?? {},
  };
}

function toApiError(thrown: unknown, route: RouteDefinition, workBegan: boolean): ApiError {
  const error = apiErrorFromRegistry(thrown);
  if (error instanceof ApiError) return error;
  if (isStoreUnavailable(error)) {
    logger.error('database unreachable', error as Error);
    return storeUnavailableAnswer(route, workBegan);
  }
  if (isOutOfTime(error)) {
    // The registry deadline leaves room to finish, so this is rare: a store that hung, say.
    logger.error('request ran out of time', error as Error);
    return callsRegistry(route)
      ? new ApiError('registry_unavailable', { message: OUT_OF_TIME_AFTER_REGISTRY })
      : new ApiError('service_unavailable');
  }
  logger.error('unhandled error', error as Error);
  return new ApiError('internal_error');
}

/** Middy's early timeout, thrown just before Lambda would stop the function. */
const isOutOfTime = (error: unknown) =>
  error instanceof Error &&
  error.name === 'TimeoutError' &&
  (error.cause as { package?: unknown } | undefined)?.package === '@middy/core';

const OUT_OF_TIME_AFTER_REGISTRY =
  'The request ran out of time while the registry or our store was slow. If it was a purchase, retry it with the same Idempotency-Key: it is finished without being bought twice.';

/**
 * Authentication and the per-key limits (600 requests per sliding minute, 20 in flight).
 *
 * The key lookup and the limit update run side by side: the limit state is keyed by the key id,
 * which is derived from the key's hash, so it is known before the lookup answers. A request that
 * fails authentication or is over a limit is uncounted and touches nothing else; an admitted one
 * holds a concurrency lease until its response is ready.
 */
const admit = (ports: PlatformPorts): ApiMiddleware => {
  const release = async (state: ApiState) => {
    const lease = state.lease;
    if (!lease) return;
    state.lease = undefined;
    await ports.limiter.release(lease.keyId, state.requestId, {
      removeSlots: lease.stale,
      ...(lease.uncount ? { uncountSlot: lease.slot } : {}),
    });
  };
  return {
    before: async (request) => {
      const state = request.context.api;
      const secret = bearerToken(state.raw.headers.authorization);
      if (!secret) throw new ApiError('unauthorized');
      const { apiKeys, limiter, clock } = ports;
      const now = clock.now();
      const hash = hashKey(secret);
      const keyId = keyIdForHash(hash);
      const [record, acquired] = await Promise.all([
        apiKeys.findByHash(hash),
        limiter.acquire(keyId, state.requestId, now),
      ]);
      if (acquired.ok) state.lease = { keyId, slot: acquired.slot, stale: acquired.stale, uncount: false };

      if (!record || !isKeyUsable(record, now)) {
        if (state.lease) state.lease.uncount = true;
        await release(state);
        throw new ApiError('unauthorized');
      }
      state.auth = { accountId: record.accountId, environment: record.environment, keyId };
      logger.appendKeys({ accountId: record.accountId, environment: record.environment, keyId });

      if (!acquired.ok) {
        state.rate = decideRate(acquired.counts ?? {}, now.getTime());
        throw new ApiError('rate_limited', {
          message: 'Too many concurrent requests for this API key (limit 20). Retry after 1 second.',
          headers: { 'Retry-After': '1' },
        });
      }
      const rate = decideRate(acquired.counts, now.getTime());
      state.rate = rate;
      if (!rate.allowed) {
        if (state.lease) state.lease.uncount = true;
        await release(state);
        throw new ApiError('rate_limited', {
          message: `More than ${rate.limit} requests in the last minute for this API key. Retry after ${rate.retryAfterSeconds} seconds.`,
          headers: { 'Retry-After': String(rate.retryAfterSeconds) },
        });
      }
    },
    after: async (request) => release(request.context.api),
    onError: async (request) => {
      if (request.context.api) await release(request.context.api);
    },
  };
};

const MAX_CLIENT_REFERENCE = 30;

function checkClientReference(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (value.length > MAX_CLIENT_REFERENCE) {
    throw new ApiError('validation_error', {
      param: 'X-Client-Reference',
      message: `X-Client-Reference must be at most ${MAX_CLIENT_REFERENCE} characters (got ${value.length}).`,
    });
  }
  return value;
}

/** Path, query and body checked against the route's zod schemas; a purchase's headers too. */
const validate = (route: RouteDefinition): ApiMiddleware => ({
  before: (request) => {
    const state = request.context.api;
    state.input = parseRequest(route, state.raw);
    if (route.idempotent) {
      state.purchase = {
        clientReference: checkClientReference(state.raw.headers['x-client-reference']),
        idempotencyKey: checkIdempotencyKey(state.raw.headers['idempotency-key']),
      };
    }
  },
});

export interface HandlerOptions<R extends RouteDefinition> {
  /**
   * Idempotent routes whose response can outgrow an idempotency record: what to keep of a
   * result (references) and how a replay rebuilds the response from them.
   */
  replay?: {
    pack(result: HandlerResult): unknown;
    unpack(packed: unknown, input: HandlerInput<R>): Promise<HandlerResult>;
  };
}

const notIdempotent: IdempotencyRunner = (call) => call.run();

/**
 * The Lambda handler of `route`: the pipeline around `useCase`, with `ports` (the pipeline's
 * own, and an idempotent route's `idempotency`). Ports are read per request, never here, so a
 * composition root may build them on first use.
 */
export function createHttpHandler<R extends RouteDefinition>(
  route: R,
  ports: PlatformPorts & { idempotency?: IdempotencyRunner },
  useCase: UseCase<R>,
  options: HandlerOptions<R> = {},
) {
  if (route.idempotent && !('idempotency' in ports)) {
    throw new Error(`${route.name} is idempotent: its ports must include idempotency`);
  }
  const runIdempotently: IdempotencyRunner = (call) =>
    route.idempotent ? (ports.idempotency as IdempotencyRunner)(call) : notIdempotent(call);
  const metrics = routeMetrics(route.name);
  const core = async (_event: APIGatewayProxyEvent, context: ApiContext): Promise<APIGatewayProxyResult> => {
    const state = context.api;
    const input = state.input as unknown as Pick<HandlerInput<R>, 'path' | 'query' | 'body'>;
    const auth = state.auth as AuthContext;
    const headers = state.raw.headers;
    const { clientReference, idempotencyKey } = state.purchase ?? {
      clientReference: null,
      idempotencyKey: undefined,
    };
    // A public route has no key, so no account: nothing of it is idempotent.
    const scope = route.public
      ? route.name
      : `${auth.accountId}#${auth.environment}#${route.name}#${state.raw.path}`;
    const request = { path: input.path, body: input.body ?? null, clientReference };
    const handlerInput: HandlerInput<R> = {
      ...input,
      headers,
      auth,
      requestId: state.requestId,
      clientReference,
      recoveryKey: idempotencyKey === undefined ? undefined : recoveryKeyFor(scope, idempotencyKey, request),
    } as HandlerInput<R>;
    const { replay } = options;
    const result = await runIdempotently({
      scope,
      key: idempotencyKey,
      request,
      context,
      run: () => {
        state.workBegan = true;
        return withDeadline(registryDeadline(context.getRemainingTimeInMillis()), () =>
          useCase(handlerInput),
        );
      },
      replay: replay && {
        pack: (fresh: HandlerResult) => replay.pack(fresh),
        unpack: (packed: unknown) => replay.unpack(packed, handlerInput),
      },
    });
    if (result.file) return respondWithFile(state, result.file, result.headers, result.status);
    const body = {
      ...result.body,
      meta: {
        billable: result.billable ?? false,
        product: result.product ?? route.product,
        requestId: state.requestId,
        ...(result.quantity !== undefined ? { quantity: result.quantity } : {}),
      },
    };
    if (ports.config.validateResponses) {
      const check = z.safeParse(route.response, body);
      if (!check.success) {
        logger.error('response does not match its route schema', { issues: check.error.issues });
        throw new Error(`response of ${route.name} does not match its schema`);
      }
    }
    return respond(state, result.status ?? route.status, body, result.headers);
  };

  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>(core)
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics))
    .use(envelope(route, metrics, ports))
    // A public route (the API contract and its docs) takes no key and so has no per-key limits.
    .use(route.public ? [] : [admit(ports)])
    .use(validate(route));
  // Lambda passes a plain Context; the pipeline's first middleware attaches `api` to it.
  return handler as unknown as LambdaHttpHandler;
}

export type LambdaHttpHandler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<APIGatewayProxyResult>;
