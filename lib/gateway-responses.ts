/**
 * API Gateway answers some requests itself (unknown route, throttling, WAF block, integration
 * failure). These gateway responses give those answers the service's error envelope, with the
 * type, status and message of the code taken from the shared error catalogue.
 */
import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import { type CatalogueEntry, type ErrorCode, errorCatalogue } from '../shared/kernel/errors/catalogue.ts';
import { unkeyedRateHeaders } from '../shared/kernel/rate-limit.ts';

export interface GatewayResponseMapping {
  readonly type: ResponseType;
  readonly code: ErrorCode;
  /** HTTP status sent; must be one the catalogue allows for the code. */
  readonly status: number;
  /** `catalogue`: the code's catalogue message; `gateway`: API Gateway's own message for the error. */
  readonly message: 'catalogue' | 'gateway';
  /** Extra static headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Without an authorizer, API Gateway reports an unknown path or method as
 * MISSING_AUTHENTICATION_TOKEN (403 by default): here it is the 404 `route_not_found` it really is.
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
  // A request API Gateway finds too large, such as a body over its 10 MB: the same code the
  // functions give a body over 1 MiB and the local server oversized headers.
  { type: ResponseType.REQUEST_TOO_LARGE, code: 'request_too_large', status: 413, message: 'catalogue' },
  // Anything else API Gateway refuses (unsupported media type, …): keep its message.
  { type: ResponseType.DEFAULT_4XX, code: 'validation_error', status: 400, message: 'gateway' },
  { type: ResponseType.DEFAULT_5XX, code: 'internal_error', status: 500, message: 'catalogue' },
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
  const entry: CatalogueEntry = errorCatalogue[mapping.code];
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
    `"type":${JSON.stringify(entry.type)},` +
    `"code":${JSON.stringify(mapping.code)},` +
    `"message":${message},` +
    '"param":null,' +
    '"registryCode":null,' +
    '"requestId":"req_$context.requestId",' +
    `"docUrl":${JSON.stringify(docUrlFor(docsUrl, mapping.code))}` +
    '}}'
  );
}

/**
 * Header mappings of every gateway response. Mapping values are static (`'…'`) or request
 * expressions; `context.requestId` is API Gateway's request id, the same one that follows `req_` in
 * the body (a mapping cannot concatenate a prefix). Every one carries the `RateLimit-*` headers
 * (spec 8: on every response): API Gateway answers before any key is counted, so they report a
 * key's limits with the whole window left, as the functions do for a request with no usable key.
 */
export function gatewayResponseHeaders(mapping: GatewayResponseMapping): Record<string, string> {
  const headers: Record<string, string> = { 'X-Request-Id': 'context.requestId' };
  for (const [name, value] of Object.entries(unkeyedRateHeaders())) headers[name] = `'${value}'`;
  for (const [name, value] of Object.entries(mapping.headers ?? {})) headers[name] = `'${value}'`;
  return headers;
}
