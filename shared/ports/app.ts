/**
 * The ports of the whole service, by name. A handler declares the ones it uses
 * (`HttpPorts<'extracts' | 'registryFor'>`); a composition root gives them: the AWS adapters on
 * Lambda (shared/composition/aws.ts), DynamoDB Local and stand-ins on the local stack
 * (local/composition.ts), in-memory fakes in unit tests.
 */
import type { ServiceConfig } from '../config.ts';
import type { Environment } from '../domain/api-keys.ts';
import type { Clock } from '../domain/clock.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { EventLog } from '../events/types.ts';
import type { IdempotencyRunner } from '../http/idempotency-key.ts';
import type { CurrentCodeTables } from '../reference/current-code-tables.ts';
import type { CurrentFormSchedule } from '../reference/current-forms.ts';
import type {
  DeliveryStore,
  SecretSealer,
  WebhookEndpointStore,
  WebhookQueue,
  WebhookSender,
} from '../webhooks/types.ts';
import type { ApiKeyRepository } from './api-keys.ts';
import type { ExtractStore, UsageLedger } from './extracts.ts';
import type { LimiterStore } from './limiter.ts';
import type {
  BlobStore,
  EventPublisher,
  FulfilmentQueue,
  Mailer,
  OfflineSearchStore,
  OrderStore,
  WorkflowStarter,
} from './orders.ts';
import type { PeopleSearchStore } from './people.ts';
import type { Registry } from './registry.ts';

/** The registry a key's or a record's environment uses (test: the sandbox; live: the registry). */
export type RegistryFor = (environment: Environment) => Registry;

/** What the HTTP pipeline itself uses on every request. */
export interface PlatformPorts {
  config: ServiceConfig;
  clock: Clock;
  apiKeys: ApiKeyRepository;
  limiter: LimiterStore;
  cursors: CursorCodec;
}

/** What the use cases use, each port built only where a handler declares it. */
export interface CapabilityPorts {
  /** Held extracts: bought, read back free for 12 months. */
  extracts: ExtractStore;
  /** Billing events, for the usage report. */
  ledger: UsageLedger;
  peopleSearches: PeopleSearchStore;
  orders: OrderStore;
  offlineSearches: OfflineSearchStore;
  registryFor: RegistryFor;
  /** Purchase routes: `Idempotency-Key`, kept 24 hours. */
  idempotency: IdempotencyRunner;
  queue: FulfilmentQueue;
  blobs: BlobStore;
  starter: WorkflowStarter;
  events: EventPublisher;
  /** Every event emitted, recorded with the change causing it (shared/events/). */
  eventLog: EventLog;
  mailer: Mailer;
  /** Webhooks: endpoints, deliveries, the secrets' sealer, the dispatcher queue and the sender. */
  webhookEndpoints: WebhookEndpointStore;
  webhookDeliveries: DeliveryStore;
  sealer: SecretSealer;
  webhookQueue: WebhookQueue;
  webhookSender: WebhookSender;
  /** The form schedule and the code tables the reference routes serve (the stored copy, else the bundled one). */
  formSchedule: CurrentFormSchedule;
  codeTableSet: CurrentCodeTables;
}

export type AppPorts = PlatformPorts & CapabilityPorts;

/** The ports of an HTTP handler: the pipeline's, and the capabilities it names. */
export type HttpPorts<K extends keyof CapabilityPorts = never> = PlatformPorts & Pick<CapabilityPorts, K>;
