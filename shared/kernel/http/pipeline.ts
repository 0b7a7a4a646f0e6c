/**
 * The HTTP pipeline every handler shares: one call, `createHttpHandler(route, useCase)`, gives a
 * Lambda proxy handler with request ids, authentication, rate and concurrency limits, input
 * validation, the error envelope, Powertools logging and metrics, and what the request's calls to
 * its dependencies came to (dependency-calls.ts) on its access line. Each middleware is a
 * module of its own under middleware/ (envelope, admit, validate; state.ts is what they share).
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { withDependencyCalls } from '../dependency-calls.ts';
import { ApiError } from '../errors/api-error.ts';
import { logger, routeMetrics } from '../observability.ts';
import type { IdempotencyRunner } from '../ports/idempotency.ts';
import type { PlatformPorts } from '../ports/platform.ts';
import type { SpendGuard } from '../ports/spend-guard.ts';
import type { AuthContext, HandlerInput, HandlerResult, UseCase } from './handler-types.ts';
import { recoveryKeyFor } from './idempotency-key.ts';
import { admit } from './middleware/admit.ts';
import { envelope } from './middleware/envelope.ts';
import { type ApiContext, respond, respondWithFile } from './middleware/state.ts';
import { validate } from './middleware/validate.ts';
import type { RouteDefinition } from './route.ts';
import { registryDeadline, withDeadline } from './time-budget.ts';

export type { AuthContext, HandlerInput, HandlerResult, UseCase } from './handler-types.ts';

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
 * A billable route's use case, held against the spend caps: refused before it runs when its
 * highest possible fee would pass a cap; released when it refuses the purchase (a client error:
 * nothing was bought); settled to its fee entries when it returns. Any other failure may have
 * bought, so its hold stays counted at the reserved fee (docs/usage.md, "Spend caps").
 */
async function heldAgainstCaps<R extends RouteDefinition>(
  guard: SpendGuard,
  route: R,
  input: HandlerInput<R>,
  useCase: UseCase<R>,
): Promise<HandlerResult> {
  const hold = await guard.hold({
    route,
    path: input.path as Record<string, unknown>,
    body: (input.body ?? {}) as Record<string, unknown>,
    auth: input.auth,
    requestId: input.requestId,
    key: input.recoveryKey,
  });
  let result: HandlerResult;
  try {
    result = await useCase(input);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) await hold.release();
    throw error;
  }
  await hold.settle();
  return result;
}

/**
 * The Lambda handler of `route`: the pipeline around `useCase`, with `ports` (the pipeline's
 * own, and an idempotent route's `idempotency`). Ports are read per request, never here, so a
 * composition root may build them on first use.
 */
export function createHttpHandler<R extends RouteDefinition>(
  route: R,
  ports: PlatformPorts & { idempotency?: IdempotencyRunner; spendGuard?: SpendGuard },
  useCase: UseCase<R>,
  options: HandlerOptions<R> = {},
) {
  if (route.idempotent && !('idempotency' in ports)) {
    throw new Error(`${route.name} is idempotent: its ports must include idempotency`);
  }
  if (route.billable && !('spendGuard' in ports)) {
    throw new Error(`${route.name} is billable: its ports must include spendGuard`);
  }
  const guarded: UseCase<R> = route.billable
    ? (input) => heldAgainstCaps(ports.spendGuard as SpendGuard, route, input, useCase)
    : useCase;
  const runIdempotently: IdempotencyRunner = (call) =>
    route.idempotent ? (ports.idempotency as IdempotencyRunner)(call) : notIdempotent(call);
  const metrics = routeMetrics(route.name);
  const core = async (event: APIGatewayProxyEvent, context: ApiContext): Promise<APIGatewayProxyResult> => {
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
      sourceIp: event.requestContext?.identity?.sourceIp ?? null,
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
          guarded(handlerInput),
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
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics))
    .use(envelope(route, metrics, ports))
    // A public route (the API contract and its docs) takes no key and so has no per-key limits.
    .use(route.public ? [] : [admit(ports, route)])
    .use(validate(route));
  // Lambda passes a plain Context; the pipeline's first middleware attaches `api` to it.
  const run = handler as unknown as LambdaHttpHandler;
  return ((event, context) => withDependencyCalls(() => run(event, context))) satisfies LambdaHttpHandler;
}

export type LambdaHttpHandler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<APIGatewayProxyResult>;
