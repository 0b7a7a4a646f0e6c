/**
 * Find a request by its `X-Request-Id` (docs/console.md): what the service kept of it when it
 * answered (shared/kernel/http/middleware/envelope.ts), for 30 days. A request of another account
 * or of the session's other environment is, for this session, no request at all: the same 404 as
 * an id never seen.
 */
import { ApiError } from '../kernel/errors/api-error.ts';
import type { AuthContext } from '../kernel/http/handler-types.ts';
import type { RequestLog } from '../kernel/ports/request-log.ts';
import { consoleSessionOf } from './keys.ts';

/** `req_` and the gateway's request id (a UUID), as on every response's `X-Request-Id`. */
export const REQUEST_ID_PATTERN = /^req_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function findRequest(requestLog: RequestLog, auth: AuthContext, requestId: string) {
  consoleSessionOf(auth);
  const found = await requestLog.find(requestId);
  if (!found || found.accountId !== auth.accountId || found.environment !== auth.environment)
    throw new ApiError('request_not_found', { param: 'requestId' });
  return {
    object: 'requestRecord' as const,
    id: found.requestId,
    method: found.method,
    path: found.path,
    route: found.route,
    status: found.status,
    errorCode: found.errorCode,
    receivedAt: found.receivedAt,
    latencyMs: found.latencyMs,
    keyId: found.keyId,
    viaConsole: found.sessionId !== null,
  };
}
