/** What the pipeline's middlewares share: the per-request state and the response builders. */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type RateDecision, unkeyedRateHeaders } from '../../rate-limit.ts';
import type { AuthContext, HandlerResult } from '../handler-types.ts';
import type { RawRequest } from '../request.ts';
import { SECURITY_HEADERS } from '../security-headers.ts';

/** Per-request state the middlewares share. */
export interface ApiState {
  requestId: string;
  startedAt: number;
  raw: RawRequest;
  auth?: AuthContext;
  rate?: RateDecision;
  lease?: { keyId: string; slot: number; stale: readonly number[]; uncount: boolean };
  /** A registry route's lease of the account's in-flight requests on that route (`registryAccountInFlight`). */
  routeLease?: { holder: string; stale: readonly number[] };
  input?: { path: unknown; query: unknown; body: unknown };
  /** Purchase routes: the checked `X-Client-Reference` and `Idempotency-Key`. */
  purchase?: { clientReference: string | null; idempotencyKey: string | undefined };
  /** The route's own work began (past authentication, limits and the idempotency record). */
  workBegan?: boolean;
}

export type ApiContext = Context & { api: ApiState };
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>;

export const requestIdOf = (event: APIGatewayProxyEvent): string =>
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

export function respond(
  state: ApiState,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return {
    statusCode: status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Request-Id': state.requestId,
      'Cache-Control': 'no-store',
      ...SECURITY_HEADERS,
      ...rateHeaders(state.rate),
      ...headers,
    },
    body: JSON.stringify(body),
  } satisfies APIGatewayProxyResult;
}

export function respondWithFile(
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
      ...SECURITY_HEADERS,
      ...rateHeaders(state.rate),
      ...headers,
    },
    body: Buffer.from(file.bytes).toString('base64'),
    isBase64Encoded: true,
  } satisfies APIGatewayProxyResult;
}
