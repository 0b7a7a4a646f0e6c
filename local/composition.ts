/**
 * The composition root of the local stack: the same adapters Lambda uses where a real engine
 * runs here (DynamoDB Local; the HTTP registry against the simulator), the sandbox in process,
 * the stack's adjustable clock, and storage faults around the extract store's commits. The asynchronous
 * tier's stand-ins are added by the stack (event bus, outbox) and the capabilities' local modules.
 */
// The catalog registers its example prices: the local stack sets no PRICE_SCHEDULE.
import '../shared/usage/prices.ts';
import { secretReader } from '../shared/adapters/aws/secrets-extension.ts';
import { DynamoApiKeyRepository } from '../shared/adapters/dynamodb/api-keys.ts';
import { DynamoEventLog } from '../shared/adapters/dynamodb/events.ts';
import { createIdempotencyRunner } from '../shared/adapters/dynamodb/idempotency.ts';
import { JsonDynamoPersistenceLayer } from '../shared/adapters/dynamodb/idempotency-persistence.ts';
import { DynamoLimiterStore } from '../shared/adapters/dynamodb/limiter.ts';
import { DynamoRequestLog } from '../shared/adapters/dynamodb/request-log.ts';
import { capabilityList } from '../shared/app/capabilities.ts';
import type { AppPorts } from '../shared/app/ports.ts';
import { createRegistries } from '../shared/composition/registry/registries.ts';
import type { CapabilityOwnPorts, PortRoot } from '../shared/kernel/capability-ports.ts';
import type { Clock } from '../shared/kernel/clock.ts';
import type { ServiceConfig } from '../shared/kernel/config.ts';
import { CursorCodec } from '../shared/kernel/cursor.ts';
import type { StorageFaults } from './faults.ts';

/** The ports the asynchronous tier's stand-ins provide (the stack and shared/orders/local/). */
export type AsyncPorts = Pick<AppPorts, 'queue' | 'blobs' | 'starter' | 'events' | 'mailer'>;

/**
 * Every port but the asynchronous tier's, and but webhooks' sealer and sender, which its local
 * module builds from its own settings (shared/webhooks/local/stack.ts).
 */
export type LocalCorePorts = Omit<
  AppPorts,
  keyof AsyncPorts | 'webhookQueue' | 'monitoringQueue' | 'sealer' | 'webhookSender'
>;

/**
 * The ports capabilities declare themselves: each capability with ports has a `composition.ts`
 * beside its capability module, whose `localPorts` factories the local stack builds as Lambda does.
 */
export async function composeCapabilities(root: PortRoot): Promise<Record<string, unknown>> {
  const built: Record<string, unknown> = {};
  for (const capability of capabilityList) {
    if (Object.keys(capability.portGrants ?? {}).length === 0) continue;
    const { localPorts } = (await import(`../shared/${capability.name}/composition.ts`)) as {
      localPorts: Readonly<Record<string, (root: PortRoot) => unknown>>;
    };
    for (const [name, factory] of Object.entries(localPorts)) built[name] = factory(root);
  }
  return built;
}

export async function composeLocal(
  config: ServiceConfig,
  clock: Clock,
  faults: StorageFaults,
): Promise<LocalCorePorts> {
  const own = (await composeCapabilities({ config, clock })) as Pick<
    LocalCorePorts,
    Extract<keyof CapabilityOwnPorts, keyof LocalCorePorts>
  >;
  return {
    // Each capability's ports (checked when the stack starts: every route's ports must exist).
    ...own,
    config,
    clock,
    apiKeys: new DynamoApiKeyRepository(config.keysTable),
    limiter: new DynamoLimiterStore(config.limitsTable),
    requestLog: new DynamoRequestLog(config.limitsTable),
    cursors: new CursorCodec(secretReader(config.cursorSecret, 'cursorSecret'), clock),
    // Storage faults around the extract store's commits (the stack's fault switch).
    extractPurchases: faults.wrap(own.extractPurchases),
    eventLog: new DynamoEventLog(config.mainTable),
    registryFor: createRegistries({ config, clock }),
    idempotency: createIdempotencyRunner(new JsonDynamoPersistenceLayer(config.idempotencyTable)),
  };
}
