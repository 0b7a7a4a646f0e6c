/**
 * API Gateway answers some requests itself (unknown route, throttling, WAF block, integration
 * failure). These gateway responses give those answers the service's error envelope, with the
 * type, status and message of the code taken from the shared error catalogue.
 */
import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import {
  type CatalogueEntry,
  catalogueEntry,
  type ErrorCode,
  type ErrorType,
} from '../shared/kernel/errors/catalogue.ts';
import {
  AUTHORIZER_UNAVAILABLE,
  type CapacityAnswer,
  FUNCTION_UNAVAILABLE,
} from '../shared/kernel/http/gateway-answers.ts';
import { SECURITY_HEADERS } from '../shared/kernel/http/security-headers.ts';
import { unkeyedRateHeaders } from '../shared/kernel/rate-limit.ts';

export interface GatewayResponseMapping {
  readonly type: ResponseType;
  readonly code: ErrorCode;
  /** HTTP status sent; must be one the catalogue allows for the code. */
  readonly status: number;
  /** `catalogue`: the code's catalogue message; `gateway`: API Gateway's own message for the error. */
  readonly message: 'catalogue' | 'gateway';
  /**
   * The envelope's `type` when it is not the catalogue's for the code: spec 7.2 pairs 503 with
   * `registry_unavailable_error` only, so every 503 the gateway gives states that type.
   */
  readonly errorType?: ErrorType;
  /** Extra static headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The gateway response of a capacity answer (shared/kernel/http/gateway-answers.ts). */
const capacityMapping = (type: ResponseType, answer: CapacityAnswer): GatewayResponseMapping => ({
  type,
  code: answer.code,
  status: answer.status,
  message: 'catalogue',
  errorType: answer.type,
  headers: { 'Retry-After': String(answer.retryAfterSeconds) },
});

/**
 * Statuses a gateway response may answer when capacity ran out (throttles, Lambda throttles,
 * authorizer failures): 429 or 503, each with `Retry-After` (spec 7.2 and 8).
 */
export const CAPACITY_RESPONSE_TYPES: readonly ResponseType[] = [
  ResponseType.THROTTLED,
  ResponseType.QUOTA_EXCEEDED,
  ResponseType.WAF_FILTERED,
  ResponseType.AUTHORIZER_FAILURE,
  ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
  ResponseType.INTEGRATION_FAILURE,
  ResponseType.INTEGRATION_TIMEOUT,
];

/**
 * An unknown path or method is reported as API Gateway reports an unknown path or method as
 * MISSING_AUTHENTICATION_TOKEN (403 by default): here it is the 404 `route_not_found` it really is.
 * A keyed route's request without a well-formed bearer key is refused by the key authorizer's
 * validation expression as UNAUTHORIZED, and an unusable key by its Deny as ACCESS_DENIED: both
 * the 401 `unauthorized`.
 */
export const gatewayResponseMappings: readonly GatewayResponseMapping[] = [
  {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    code: 'route_not_found',
    status: 404,
    message: 'catalogue',
  },
  { type: ResponseType.RESOURCE_NOT_FOUND, code: 'route_not_found', status: 404, message: 'catalogue' },
  { type: ResponseType.UNAUTHORIZED, code: 'unauthorized', status: 401, message: 'catalogue' },
  { type: ResponseType.ACCESS_DENIED, code: 'unauthorized', status: 401, message: 'catalogue' },
  {
    type: ResponseType.THROTTLED,
    code: 'rate_limited',
    status: 429,
    message: 'catalogue',
    headers: { 'Retry-After': '1' },
  },
  {
    type: ResponseType.QUOTA_EXCEEDED,
    code: 'rate_limited',
    status: 429,
    message: 'catalogue',
    headers: { 'Retry-After': '60' },
  },
  // Web ACL blocks: mostly the per-IP rate rule (60 s window); the catalogue has no dedicated code.
  {
    type: ResponseType.WAF_FILTERED,
    code: 'rate_limited',
    status: 429,
    message: 'catalogue',
    headers: { 'Retry-After': '60' },
  },
  // The key authorizer could not be invoked or answered nonsense (throttled, crashed, timed out):
  // our side is short of capacity for a moment, so the retryable 503, never a 500.
  capacityMapping(ResponseType.AUTHORIZER_FAILURE, AUTHORIZER_UNAVAILABLE),
  capacityMapping(ResponseType.AUTHORIZER_CONFIGURATION_ERROR, AUTHORIZER_UNAVAILABLE),
  // The route's function could not be invoked: above all a Lambda throttle (its reserved registry
  // share, or the account's concurrency, used up), which a proxy integration reports as an
  // integration failure. Retryable capacity, so 503 with Retry-After, never a 500.
  capacityMapping(ResponseType.INTEGRATION_FAILURE, FUNCTION_UNAVAILABLE),
  // The function did not answer within the integration timeout (it answers its own 503 when its
  // time budget runs out, so this is the rare case where it could not): the same retryable 503.
  capacityMapping(ResponseType.INTEGRATION_TIMEOUT, FUNCTION_UNAVAILABLE),
  // A request API Gateway finds too large, such as a body over its 10 MB: the same code the
  // functions give a body over 1 MiB and the local server oversized headers.
  { type: ResponseType.REQUEST_TOO_LARGE, code: 'request_too_large', status: 400, message: 'catalogue' },
  // Anything else API Gateway refuses (unsupported media type, …): keep its message.
  { type: ResponseType.DEFAULT_4XX, code: 'validation_error', status: 400, message: 'gateway' },
  // Any other failure of the gateway's own: 500 `api_error`, which spec 7.2 retries once, so it
  // says when.
  {
    type: ResponseType.DEFAULT_5XX,
    code: 'internal_error',
    status: 500,
    message: 'catalogue',
    headers: { 'Retry-After': '1' },
  },
];

/** `docUrl` of a code, as `errorEnvelope` in shared/kernel/errors/api-error.ts builds it. */
export const docUrlFor = (docsUrl: string, code: ErrorCode): string =>
  `${docsUrl.replace(/\/+$/, '')}/errors#${code}`;

/**
 * The `application/json` template of a gateway response. Gateway response templates support only
 * `$context` substitution (no VTL), so the JSON is written out; `$context.error.messageString` is
 * API Gateway's message already quoted as a JSON string.
 */
export function envelopeTemplate(mapping: GatewayResponseMapping, docsUrl: string): string {
  const entry: CatalogueEntry = catalogueEntry(mapping.code);
  const allowed: readonly number[] = [entry.status, ...(entry.alternateStatuses ?? [])];
  if (!allowed.includes(mapping.status)) {
    throw new Error(`status ${mapping.status} is not allowed for ${mapping.code}`);
  }
  const message =
    mapping.message === 'gateway' ? '$context.error.messageString' : JSON.stringify(entry.message);
  if (mapping.message === 'catalogue' && entry.message.includes('$')) {
    throw new Error(`the message of ${mapping.code} must not contain $ (gateway templates substitute it)`);
  }
  return (
    '{"error":{' +
    `"type":${JSON.stringify(mapping.errorType ?? entry.type)},` +
    `"code":${JSON.stringify(mapping.code)},` +
    `"message":${message},` +
    '"param":null,' +
    '"registryCode":null,' +
    '"requestId":"$context.requestId",' +
    `"docUrl":${JSON.stringify(docUrlFor(docsUrl, mapping.code))}` +
    '}}'
  );
}

/**
 * Header mappings of every gateway response. Mapping values are static (`'…'`) or request
 * expressions; `context.requestId` is API Gateway's request id, the same one as the body's
 * `requestId` (spec 7.1: they are equal). A mapping cannot concatenate, so an answer the gateway
 * gives itself has API Gateway's id without the `req_` the functions put before it. Every one carries the `RateLimit-*` headers
 * (spec 8: on every response): API Gateway answers before any key is counted, so they report a
 * key's limits with the whole window left, as the functions do for a request with no usable key.
 */
export function gatewayResponseHeaders(mapping: GatewayResponseMapping): Record<string, string> {
  const headers: Record<string, string> = { 'X-Request-Id': 'context.requestId' };
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers[name] = `'${value}'`;
  for (const [name, value] of Object.entries(unkeyedRateHeaders())) headers[name] = `'${value}'`;
  for (const [name, value] of Object.entries(mapping.headers ?? {})) headers[name] = `'${value}'`;
  return headers;
}
