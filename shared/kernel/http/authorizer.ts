/**
 * The gateway's key check (a TOKEN authorizer): API Gateway itself refuses a request whose
 * `Authorization` header does not match `BEARER_HEADER_PATTERN` (401, no function runs); this
 * decides the rest. A key that is unknown, revoked or expired is denied (401 at the gateway, so
 * no route function runs and nothing is written for it); a usable one is allowed on every method
 * of the stage, which lets API Gateway cache the answer per key. The route's own admission
 * (shared/kernel/http/middleware/admit.ts) still checks the key on every request, so a key
 * revoked while an allow is cached is refused by the function at once.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { bearerToken, hashKey, isKeyUsable, keyIdForHash } from '../api-keys.ts';
import type { ApiKeyRepository } from '../ports/api-keys.ts';

/**
 * The header API Gateway checks before any function runs: the same rule as `bearerToken` (the
 * scheme in any case, one or more spaces, a `sk_test_`/`sk_live_` key of 1 to 128 letters and
 * digits), written without flags since the gateway's validation expression takes none.
 */
export const BEARER_HEADER_PATTERN =
  '^([Bb][Ee][Aa][Rr][Ee][Rr] +sk_(test|live)_[A-Za-z0-9]{1,128}|Console-Session)$';

/**
 * The `Authorization` value the account console's page sends with its session cookie. The cookie
 * is `HttpOnly`, so the page cannot show it to the gateway; a TOKEN authorizer sees one header
 * only. The marker lets the request through the gateway's check (it is allowed as one identity,
 * cached like a key), and the route's admission then reads the session from the cookie and
 * refuses it with 401 when there is none, before anything is written (middleware/admit.ts).
 */
export const CONSOLE_SESSION_AUTHORIZATION = 'Console-Session';

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

export async function authorizeToken(
  event: Pick<APIGatewayTokenAuthorizerEvent, 'authorizationToken' | 'methodArn'>,
  apiKeys: ApiKeyRepository,
  now: Date,
): Promise<APIGatewayAuthorizerResult> {
  const resource = stageWideResource(event.methodArn);
  if (event.authorizationToken === CONSOLE_SESSION_AUTHORIZATION)
    return policy('Allow', 'console-session', resource);
  const secret = bearerToken(event.authorizationToken);
  if (!secret) return policy('Deny', 'anonymous', resource);
  const hash = hashKey(secret);
  const record = await apiKeys.findByHash(hash);
  if (!record || !isKeyUsable(record, now)) return policy('Deny', 'anonymous', resource);
  return policy('Allow', keyIdForHash(hash), resource);
}
