/** The HTTP pipeline's own ports on Lambda: authentication, limits and cursors (see root.ts). */
import { secretReader } from '../../adapters/aws/secrets-extension.ts';
import { DynamoApiKeyRepository } from '../../adapters/dynamodb/api-keys.ts';
import { DynamoLimiterStore } from '../../adapters/dynamodb/limiter.ts';
import { CursorCodec } from '../../kernel/cursor.ts';
import type { PlatformPorts } from '../../kernel/ports/platform.ts';
import { awsPorts, type Built, type Factory } from './root.ts';

const platform: { [K in keyof PlatformPorts]: Factory<PlatformPorts[K]> } = {
  config: (root) => root.config,
  clock: (root) => root.clock,
  apiKeys: (root) => new DynamoApiKeyRepository(root.config.keysTable),
  limiter: (root) => new DynamoLimiterStore(root.config.limitsTable),
  cursors: (root) =>
    new CursorCodec(secretReader(root.config.cursorSecret, 'CURSOR_SECRET or CURSOR_SECRET_ARN'), root.clock),
};

/** An HTTP handler's ports: the pipeline's own and `factories`. */
export const awsHttpPorts = <F extends Record<string, Factory<unknown>>>(factories: F) =>
  awsPorts({ ...platform, ...factories }) as PlatformPorts & Built<F>;
