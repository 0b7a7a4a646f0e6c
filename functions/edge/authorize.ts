import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { authorizerKeys } from '../../shared/composition/aws/authorizer.ts';
import { awsPorts } from '../../shared/composition/aws/root.ts';
import type { Clock } from '../../shared/kernel/clock.ts';
import { authorizeToken } from '../../shared/kernel/http/authorizer.ts';
import type { ApiKeyRepository } from '../../shared/kernel/ports/api-keys.ts';

export interface AuthorizerPorts {
  apiKeys: ApiKeyRepository;
  clock: Clock;
}

/** API Gateway's TOKEN authorizer of every keyed route (shared/kernel/http/authorizer.ts). */
export const createHandler =
  (ports: AuthorizerPorts) =>
  (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> =>
    authorizeToken(event, ports.apiKeys, ports.clock.now());

export const handler = createHandler(awsPorts({ apiKeys: authorizerKeys, clock: (root) => root.clock }));
