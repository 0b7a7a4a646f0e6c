import type { Metrics } from '@aws-lambda-powertools/metrics';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { finishDependencyCalls } from '../../dependency-calls.ts';
import { ApiError, errorEnvelope } from '../../errors/api-error.ts';
import { ROUTE_METRICS } from '../../infra/route-metrics.ts';
import { logger, redactHeaders } from '../../observability.ts';
import type { PlatformPorts } from '../../ports/platform.ts';
import { apiErrorFromRegistry } from '../../registry-errors.ts';
import { isStoreUnavailable, storeUnavailableAnswer } from '../../store-unavailable.ts';
import { checkBodySize, type RawRequest } from '../request.ts';
import { callsRegistry, type RouteDefinition } from '../route.ts';
import { type ApiMiddleware, type ApiState, requestIdOf, respond } from './state.ts';

/** Request id, the error envelope, one access log line (with the dependency calls' summary) and the request metrics. */
export const envelope = (route: RouteDefinition, metrics: Metrics, ports: PlatformPorts): ApiMiddleware => {
  const finish = async (state: ApiState, status: number, errorCode: string | null) => {
    const latencyMs = Date.now() - state.startedAt;
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    if (status >= 500) metrics.addMetric('ServerErrors', MetricUnit.Count, 1);
    if (errorCode === 'internal_error') metrics.addMetric(ROUTE_METRICS.internalErrors, MetricUnit.Count, 1);
    else if (status >= 400) metrics.addMetric('ClientErrors', MetricUnit.Count, 1);
    metrics.addMetric('Latency', MetricUnit.Milliseconds, latencyMs);
    // The account's own record of the request, found by its X-Request-Id (the console's request
    // lookup). Only an admitted request has an account to show it to: an unknown key writes nothing.
    // A failure to keep it fails no request. Written before the access line, so that the line's
    // dependency calls are every call the request made (docs/operations.md, "Writes per request").
    const auth = state.auth;
    if (auth)
      await ports.requestLog
        .record({
          requestId: state.requestId,
          accountId: auth.accountId,
          environment: auth.environment,
          keyId: auth.keyId,
          sessionId: auth.session?.sessionId ?? null,
          method: state.raw.method,
          path: state.raw.path,
          route: route.name,
          status,
          errorCode,
          receivedAt: new Date(state.startedAt).toISOString(),
          latencyMs,
        })
        .catch((error: unknown) => {
          logger.warn('could not keep the request record', { error });
        });
    logger.info('request completed', {
      method: state.raw.method,
      path: state.raw.path,
      status,
      latencyMs,
      headers: redactHeaders(state.raw.headers),
      dependencies: finishDependencyCalls(),
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
    after: async (request) => {
      await finish(request.context.api, request.response?.statusCode ?? 0, null);
    },
    onError: async (request) => {
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
      await finish(state, error.status, error.code);
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
