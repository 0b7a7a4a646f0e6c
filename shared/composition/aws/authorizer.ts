/** The gateway authorizer's one port on Lambda: the keys table (see root.ts). */
import { DynamoApiKeyRepository } from '../../adapters/dynamodb/api-keys.ts';
import { required } from '../../kernel/config.ts';
import type { ApiKeyRepository } from '../../kernel/ports/api-keys.ts';
import type { Factory } from './root.ts';

export const authorizerKeys: Factory<ApiKeyRepository> = (root) =>
  new DynamoApiKeyRepository(required(root.config.keysTable, 'the keys table'));
