/** The HTTP pipeline's own ports on Lambda: authentication, limits and cursors (see root.ts). */
import { secretReader } from '../../adapters/aws/secrets-extension.ts';
import { DynamoApiKeyRepository } from '../../adapters/dynamodb/api-keys.ts';
import { DynamoLimiterStore } from '../../adapters/dynamodb/limiter.ts';
import { DynamoRequestLog } from '../../adapters/dynamodb/request-log.ts';
import type { CapabilityPorts, RoutePorts } from '../../app/ports.ts';
import { CursorCodec } from '../../kernel/cursor.ts';
import type { PlatformPorts } from '../../kernel/ports/platform.ts';
import { awsPorts, type CapabilityFactory, type Factory } from './root.ts';

const platform: { [K in keyof PlatformPorts]: Factory<PlatformPorts[K]> } = {
  config: (root) => root.config,
  clock: (root) => root.clock,
  apiKeys: (root) => new DynamoApiKeyRepository(root.config.keysTable),
  limiter: (root) => new DynamoLimiterStore(root.config.limitsTable),
  requestLog: (root) => new DynamoRequestLog(root.config.limitsTable),
  cursors: (root) =>
    new CursorCodec(secretReader(root.config.cursorSecret, 'CURSOR_SECRET or CURSOR_SECRET_ARN'), root.clock),
};

/**
 * A route's handler ports on Lambda: the pipeline's own, and a factory for each port the route's
 * entry declares, no more and no fewer (a missing or an extra one does not compile):
 *
 *   export const handler = createHandler(awsRoutePorts(companyRoutes.getCompany, { registryFor }));
 */
export const awsRoutePorts = <R extends { readonly ports: readonly (keyof CapabilityPorts)[] }>(
  _route: R,
  factories: NoInfer<{ readonly [K in R['ports'][number]]: CapabilityFactory<K> }>,
): RoutePorts<R> => awsPorts({ ...platform, ...factories }) as unknown as RoutePorts<R>;
