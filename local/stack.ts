import { randomBytes } from 'node:crypto';
import type { AppPorts } from '../shared/app/ports.ts';
import { AdjustableClock } from '../shared/kernel/clock.ts';
import type { ServiceConfig } from '../shared/kernel/config.ts';
import { ORDER_ENV } from '../shared/kernel/infra/order-env.ts';
import { allTables, type TableDefinition } from '../shared/kernel/infra/tables.ts';
import { ensureTables, freePort, type LocalDynamo, startDynamoLocal } from './dynamodb.ts';
import { StorageFaults } from './faults.ts';
import { type SeedKey, seedKeys } from './keys.ts';
import type { LocalMonitoring } from './monitoring.ts';
import { DEFAULT_MAIL_FROM } from './orders/outbox-mailer.ts';
import type { LocalOrders } from './orders/stand-ins.ts';
import type { LocalReferenceRefresh } from './reference-refresh.ts';
import { createLocalServer, loadRoutes } from './server.ts';
import type { LocalWebhooks } from './webhooks.ts';

export interface LocalStackOptions {
  /** HTTP port; 0 picks a free one. */
  port?: number;
  /** Registry simulator port; 0 picks a free one. */
  registryPort?: number;
  /** DynamoDB Local port; 0 picks a free one. */
  dynamoPort?: number;
  /** Keep DynamoDB data in this folder between runs; in memory when absent. */
  dataDir?: string;
  /**
   * A DynamoDB Local already running (its tables are made if missing): the stack neither starts
   * nor stops it, so a stack process can be stopped and started again on the same data.
   */
  dynamoEndpoint?: string;
  /** A registry (simulator) already running, with its credential, instead of a new simulator. */
  registry?: { url: string; credential: string };
  keys?: readonly SeedKey[];
  logLevel?: string;
  /** Check each response against its route's schema (default true; the benchmark turns it off, as in AWS). */
  validateResponses?: boolean;
  /**
   * Where the asynchronous tier keeps its files: `blobs/` (S3), `outbox/` (SES), `events.jsonl`
   * (EventBridge). A fresh temporary folder, removed on stop, when absent.
   */
  localDir?: string;
  /**
   * Webhook deliveries: to loopback receivers only when `allowLoopback` (tests, demos), trusting
   * `ca` (PEM) for their certificates; the retry function every `retryIntervalMs` (default 1 s);
   * signing secrets sealed with `sealKey` (64 hex digits; a fresh one when absent, so secrets
   * stored by an earlier run open only if the same key is given).
   */
  webhooks?: { allowLoopback?: boolean; ca?: string; retryIntervalMs?: number; sealKey?: string };
  /**
   * The daily reference refresh: run on this interval as well as by `POST /__local/refresh-reference`
   * (off when absent: the reference routes serve the bundled copy until a refresh).
   */
  referenceRefreshIntervalMs?: number;
  /**
   * Reserved concurrency of each registry route's function, as on a live stage: a request beyond
   * it is throttled as API Gateway answers a Lambda throttle (503 with Retry-After). Unset, none.
   */
  registryConcurrency?: number;
  /** How often the monitoring jobs look at the local clock to see whether a run is due (off when absent). */
  monitoringIntervalMs?: number;
}

export interface LocalStack {
  baseUrl: string;
  dynamoEndpoint: string;
  /** The registry simulator live keys reach; its `/__simulator/*` endpoints inject faults. */
  registryUrl: string;
  tableNames: Record<TableDefinition['id'], string>;
  /** The local clock: real time plus an offset tests and demos can move. */
  clock: AdjustableClock;
  /** Stand-ins of the asynchronous tier: queue, workflow, event bus, outbox, blob store. */
  orders: LocalOrders;
  /** The webhook tier: dispatcher queue, dispatcher, retry function (local/webhooks.ts). */
  webhooks: LocalWebhooks;
  /** The reference refresh (local/reference-refresh.ts): `run()` refreshes now. */
  referenceRefresh: LocalReferenceRefresh;
  /** Company monitoring's jobs (local/monitoring.ts): `run('daily')` checks now. */
  monitoring: LocalMonitoring;
  /** Every port the handlers are given (local/composition.ts and the stand-ins). */
  ports: AppPorts;
  stop(): Promise<void>;
}

export const localTableName = (table: TableDefinition) => `crds-${table.id}`;

/**
 * The process-wide settings a local stack runs with besides its DynamoDB endpoint: Powertools' and
 * the region (a process that drives the stack's stores, such as a test worker, takes them too).
 */
export const localProcessEnv = (logLevel: string | undefined) => ({
  POWERTOOLS_TRACE_ENABLED: 'false',
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: logLevel ?? process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
  POWERTOOLS_SERVICE_NAME: 'company-register',
  AWS_REGION: process.env.AWS_REGION ?? 'ap-southeast-2',
});

/**
 * The whole service on one machine: DynamoDB Local, the tables, and an HTTP server that hands
 * each request to the same handler module Lambda runs, as an API Gateway proxy event.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dynamo: LocalDynamo = options.dynamoEndpoint
    ? {
        endpoint: options.dynamoEndpoint,
        port: Number(new URL(options.dynamoEndpoint).port),
        stop: async () => {},
      }
    : await startDynamoLocal({
        port: options.dynamoPort ?? 0,
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      });
  let simulator: { url: string; stop(): Promise<void> } | undefined;
  let orders: LocalOrders | undefined;
  let webhooks: LocalWebhooks | undefined;
  let refresh: LocalReferenceRefresh | undefined;
  let monitoring: LocalMonitoring | undefined;
  try {
    await ensureTables(dynamo.endpoint, allTables, localTableName);
    // Powertools reads its settings when a logger or metrics object is built, and the DynamoDB
    // clients their endpoint on first call: process-wide settings, as Lambda's environment is.
    // Everything the service itself is configured with is passed below as a value.
    Object.assign(process.env, { ...localProcessEnv(options.logLevel), DYNAMODB_ENDPOINT: dynamo.endpoint });
    const clock = new AdjustableClock();
    const registryCredential = options.registry?.credential ?? randomBytes(16).toString('hex');
    simulator = options.registry
      ? { url: options.registry.url, stop: async () => {} }
      : await startSimulator(clock, registryCredential, options.registryPort ?? 0);
    const tableNames = Object.fromEntries(
      allTables.map((t) => [t.id, localTableName(t)]),
    ) as LocalStack['tableNames'];
    const port = await freePort(options.port ?? 0);
    const config: ServiceConfig = {
      keysTable: tableNames.keys,
      limitsTable: tableNames.limits,
      mainTable: tableNames.main,
      idempotencyTable: tableNames.idempotency,
      docsUrl: process.env.DOCS_URL ?? `http://localhost:${port}/docs`,
      cursorSecret: { value: process.env.CURSOR_SECRET ?? randomBytes(32).toString('hex') },
      registryUrl: simulator.url,
      registryCredential: { value: registryCredential },
      validateResponses: options.validateResponses ?? true,
      apiBaseUrl: `http://localhost:${port}`,
      mailFrom: process.env[ORDER_ENV.mailFrom] ?? DEFAULT_MAIL_FROM,
      // The asynchronous tier's AWS resources are stood in for (local/orders).
      ordersBucket: undefined,
      fulfilmentQueueUrl: undefined,
      stateMachineArn: undefined,
      eventBusName: undefined,
      // Signing secrets sealed with a key of this run (KMS when deployed).
      webhookSealKey: options.webhooks?.sealKey ?? randomBytes(32).toString('hex'),
      webhookAllowLoopback: options.webhooks?.allowLoopback === true,
      webhookCa: options.webhooks?.ca,
    };

    const { composeLocal } = await import('./composition.ts');
    const faults = new StorageFaults();
    const core = await composeLocal(config, clock, faults);
    if (options.keys?.length) await seedKeys(options.keys, clock.now(), core.apiKeys);
    const { startLocalOrders } = await import('./orders/stand-ins.ts');
    orders = await startLocalOrders({
      ...(options.localDir ? { localDir: options.localDir } : {}),
      mailFrom: config.mailFrom as string,
      ports: core,
    });

    const { startLocalWebhooks } = await import('./webhooks.ts');
    webhooks = startLocalWebhooks({
      ports: core,
      bus: orders.events,
      ...(options.webhooks?.retryIntervalMs !== undefined
        ? { retryIntervalMs: options.webhooks.retryIntervalMs }
        : {}),
    });

    const { startLocalReferenceRefresh } = await import('./reference-refresh.ts');
    const { DynamoReferenceStore } = await import('../shared/reference/adapters/dynamodb.ts');
    const referenceRefresh = startLocalReferenceRefresh(
      {
        registry: core.registryFor('live'),
        store: new DynamoReferenceStore(config.mainTable),
        now: () => clock.now(),
      },
      options.referenceRefreshIntervalMs,
    );
    refresh = referenceRefresh;

    const { startLocalMonitoring } = await import('./monitoring.ts');
    monitoring = startLocalMonitoring(
      { ...core, events: orders.ports.events },
      options.monitoringIntervalMs ?? 0,
    );

    const { routeList } = await import('../shared/app/routes.ts');
    const ports: AppPorts = {
      ...core,
      ...orders.ports,
      webhookQueue: webhooks.port,
      monitoringQueue: monitoring.port,
    };
    const routes = await loadRoutes(routeList, ports);
    const server = createLocalServer({
      routes,
      clock,
      faults,
      orders,
      webhooks,
      referenceRefresh,
      ...(options.registryConcurrency === undefined
        ? {}
        : { registryConcurrency: options.registryConcurrency }),
      monitoring,
      docsUrl: config.docsUrl,
      apiKeys: core.apiKeys,
    });
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => done());
    });
    server.keepAliveTimeout = 5_000;
    return {
      baseUrl: `http://localhost:${port}`,
      dynamoEndpoint: dynamo.endpoint,
      registryUrl: simulator.url,
      tableNames,
      clock,
      orders,
      webhooks,
      referenceRefresh,
      monitoring,
      ports,
      stop: async () => {
        referenceRefresh.stop();
        await monitoring?.stop();
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        await webhooks?.stop();
        // Before the registry and the tables: running executions still use them.
        await orders?.stop();
        await simulator?.stop();
        await dynamo.stop();
      },
    };
  } catch (error) {
    refresh?.stop();
    await monitoring?.stop();
    await webhooks?.stop();
    await orders?.stop();
    await simulator?.stop();
    await dynamo.stop();
    throw error;
  }
}

/** The registry simulator live keys reach, serving the generated dataset on the stack's clock. */
async function startSimulator(
  clock: AdjustableClock,
  credential: string,
  port: number,
): Promise<{ url: string; stop(): Promise<void> }> {
  const { DatasetRegistry } = await import('../shared/composition/registry/dataset-registry.ts');
  const { simulatorDataset, simulatorRecordsSource } = await import('./generated-data.ts');
  const { renderDocumentImages } = await import('../shared/adapters/sandbox/page-images.ts');
  const { startRegistrySimulator } = await import('./registry-simulator.ts');
  const { simulatorWeeklySummaries } = await import('./generated-weekly-summaries.ts');
  const { simulatorReference } = await import('./simulator-reference.ts');
  const { RegisterChanges } = await import('../shared/weekly-summaries/adapters/sandbox-changes.ts');
  const registerChanges = new RegisterChanges(simulatorDataset(), () => clock.now());
  return startRegistrySimulator({
    registry: new DatasetRegistry(simulatorDataset(), () => clock.now(), {
      pageImages: renderDocumentImages,
      weeklySummaries: registerChanges.withWeeklySummaries(simulatorWeeklySummaries),
      records: simulatorRecordsSource(),
      reference: simulatorReference,
    }),
    port,
    credential,
    changes: registerChanges,
  });
}
