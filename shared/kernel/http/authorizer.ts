/**
 * The gateway's check of every keyed route (a TOKEN authorizer on the `Authorization` header): API
 * Gateway itself refuses a request whose header does not match `BEARER_HEADER_PATTERN` (401, no
 * function runs); this decides the rest, with a lookup every time, for both credentials:
 *
 * - `Bearer sk_…`: a key that is unknown, revoked or expired is denied;
 * - `Console-Session <edge token>` (the console's page, shared/kernel/sessions.ts): the session
 *   stored by that token must exist, be open and stand for a usable key or a member that still
 *   holds (not removed, role unchanged), or it is denied. Roles are the route's check (admit.ts):
 *   the answer here is cached for the whole stage, every route.
 *
 * A denial is a 401 at the gateway, so no route function runs and nothing is written for it. An
 * allow covers every method of the stage, which lets API Gateway cache the answer per header value
 * (one key, or one session). The route's own admission (shared/kernel/http/middleware/admit.ts)
 * still checks the key, or the session cookie, on every request, so a credential revoked while an
 * allow is cached is refused by the function at once, and an edge token without its `HttpOnly`
 * session cookie opens nothing.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { bearerToken, hashKey, isKeyUsable, keyIdForHash } from '../api-keys.ts';
import type { ApiKeyRepository } from '../ports/api-keys.ts';
import { consoleEdgeToken, isSessionUsable } from '../sessions.ts';
import { credentialOf } from './credential.ts';

/**
 * The header API Gateway checks before any function runs: the same rules as `bearerToken` (the
 * scheme in any case, one or more spaces, a `sk_test_`/`sk_live_` key of 1 to 128 letters and
 * digits) and `consoleEdgeToken` (`Console-Session`, spaces, 64 lowercase hex digits), written
 * without flags since the gateway's validation expression takes none. No fixed value passes it.
 */
export const BEARER_HEADER_PATTERN =
  '^([Bb][Ee][Aa][Rr][Ee][Rr] +sk_(test|live)_[A-Za-z0-9]{1,128}|Console-Session +[0-9a-f]{64})$';

/**
 * Seconds API Gateway keeps an authorizer's answer for one key (see
 * docs/decisions/0054-edge-check-token-authorizer.md).
 */
export const AUTHORIZER_CACHE_SECONDS = 300;

/** `arn:aws:execute-api:<region>:<account>:<api>/<stage>/<verb>/<path>` → every method of that stage. */
export function stageWideResource(methodArn: string): string {
  // `arn:…:<api id>` / `<stage>` / `<verb>` / `<path…>`
  const [api, stage, verb] = methodArn.split('/');
  if (!api?.startsWith('arn:') || !stage || !verb) throw new Error(`not a method ARN: ${methodArn}`);
  return `${api}/${stage}/*/*`;
}

const policy = (
  effect: 'Allow' | 'Deny',
  principalId: string,
  resource: string,
): APIGatewayAuthorizerResult => ({
  principalId,
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }],
  },
});

const deny = (resource: string) => policy('Deny', 'anonymous', resource);

export async function authorizeToken(
  event: Pick<APIGatewayTokenAuthorizerEvent, 'authorizationToken' | 'methodArn'>,
  apiKeys: ApiKeyRepository,
  now: Date,
): Promise<APIGatewayAuthorizerResult> {
  const resource = stageWideResource(event.methodArn);
  const edgeToken = consoleEdgeToken(event.authorizationToken);
  if (edgeToken) {
    const session = await apiKeys.findSession(edgeToken);
    if (!session || !isSessionUsable(session, now)) return deny(resource);
    if (!(await credentialOf(apiKeys, undefined, session, now))) return deny(resource);
    return policy('Allow', session.sessionId, resource);
  }
  const secret = bearerToken(event.authorizationToken);
  if (!secret) return deny(resource);
  const hash = hashKey(secret);
  const record = await apiKeys.findByHash(hash);
  if (!record || !isKeyUsable(record, now)) return deny(resource);
  return policy('Allow', keyIdForHash(hash), resource);
}
