import { randomBytes } from 'node:crypto';
import { allTables, type TableDefinition } from '../shared/infra/tables.ts';
import { ORDER_ENV } from '../shared/infra/workflow.ts';
import { ensureTables, freePort, type LocalDynamo, startDynamoLocal } from './dynamodb.ts';
import { StorageFaults } from './faults.ts';
import { type SeedKey, seedKeys } from './keys.ts';
import type { LocalOrders } from './orders/stand-ins.ts';
import { createLocalServer, loadRoutes } from './server.ts';

export interface LocalStackOptions {
  /** HTTP port; 0 picks a free one. */
  port?: number;
  /** Registry simulator port; 0 picks a free one. */
  registryPort?: number;
  /** DynamoDB Local port; 0 picks a free one. */
  dynamoPort?: number;
  /** Keep DynamoDB data in this folder between runs; in memory when absent. */
  dataDir?: string;
  keys?: readonly SeedKey[];
  logLevel?: string;
  /** Check each response against its route's schema (default true; the benchmark turns it off, as in AWS). */
  validateResponses?: boolean;
  /**
   * Where the asynchronous tier keeps its files: `blobs/` (S3), `outbox/` (SES), `events.jsonl`
   * (EventBridge). A fresh temporary folder, removed on stop, when absent.
   */
  localDir?: string;
}

export interface LocalStack {
  baseUrl: string;
  dynamoEndpoint: string;
  /** The registry simulator live keys reach; its `/__simulator/*` endpoints inject faults. */
  registryUrl: string;
  tableNames: Record<TableDefinition['id'], string>;
  /** The local clock: real time plus an offset tests and demos can move. */
  clock: import('../shared/domain/clock.ts').AdjustableClock;
  /** Stand-ins of the asynchronous tier: queue, workflow, event bus, outbox, blob store. */
  orders: LocalOrders;
  stop(): Promise<void>;
}

export const localTableName = (table: TableDefinition) => `crds-${table.id}`;

const observabilityEnv = (logLevel: string | undefined) => ({
  POWERTOOLS_TRACE_ENABLED: 'false',
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: logLevel ?? process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
  POWERTOOLS_SERVICE_NAME: 'company-register',
});

/**
 * The whole service on one machine: DynamoDB Local, the tables, and an HTTP server that hands
 * each request to the same handler module Lambda runs, as an API Gateway proxy event.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dynamo: LocalDynamo = await startDynamoLocal({
    port: options.dynamoPort ?? 0,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  let simulator: { url: string; stop(): Promise<void> } | undefined;
  let orders: LocalOrders | undefined;
  try {
    await ensureTables(dynamo.endpoint, allTables, localTableName);
    const { AdjustableClock } = await import('../shared/domain/clock.ts');
    const clock = new AdjustableClock();
    const registryCredential = randomBytes(16).toString('hex');
    // Loggers read their settings when their module loads: set them before importing anything that logs.
    Object.assign(process.env, observabilityEnv(options.logLevel));
    const { DatasetRegistry } = await import('../shared/registry/dataset-registry.ts');
    const { simulatorDataset } = await import('./generated-data.ts');
    const { renderDocumentImages } = await import('../shared/registry/page-images.ts');
    const { startRegistrySimulator } = await import('./registry-simulator.ts');
    simulator = await startRegistrySimulator({
      registry: new DatasetRegistry(simulatorDataset(), () => clock.now(), {
        pageImages: renderDocumentImages,
      }),
      port: options.registryPort ?? 0,
      credential: registryCredential,
    });
    const tableNames = Object.fromEntries(
      allTables.map((t) => [t.id, localTableName(t)]),
    ) as LocalStack['tableNames'];
    const port = await freePort(options.port ?? 0);
    const env: Record<string, string> = {
      DOCS_URL: process.env.DOCS_URL ?? `http://localhost:${port}/docs`,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      CURSOR_SECRET: process.env.CURSOR_SECRET ?? randomBytes(32).toString('hex'),
      VALIDATE_RESPONSES: String(options.validateResponses ?? true),
      ...observabilityEnv(options.logLevel),
      AWS_REGION: process.env.AWS_REGION ?? 'ap-southeast-2',
      REGISTRY_URL: simulator.url,
      REGISTRY_CREDENTIAL: registryCredential,
      [ORDER_ENV.apiBaseUrl]: `http://localhost:${port}`,
      [ORDER_ENV.mailFrom]: process.env[ORDER_ENV.mailFrom] ?? 'orders@company-register.local',
      ...Object.fromEntries(allTables.map((t) => [t.envVar, tableNames[t.id]])),
    };
    Object.assign(process.env, env);

    const { useClock } = await import('../shared/runtime.ts');
    const { decorateExtractStore } = await import('../shared/stores.ts');
    useClock(clock);
    const faults = new StorageFaults();
    decorateExtractStore((store) => faults.wrap(store));
    if (options.keys?.length) await seedKeys(options.keys, clock.now());
    const { startLocalOrders } = await import('./orders/stand-ins.ts');
    orders = await startLocalOrders({
      ...(options.localDir ? { localDir: options.localDir } : {}),
      mailFrom: env[ORDER_ENV.mailFrom] as string,
    });

    const { routeList } = await import('../shared/http/routes.ts');
    const routes = await loadRoutes(routeList, orders.routePorts);
    const server = createLocalServer({ routes, clock, faults, orders, docsUrl: env.DOCS_URL as string });
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
      stop: async () => {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        // Before the registry and the tables: running executions still use them.
        await orders?.stop();
        await simulator?.stop();
        await dynamo.stop();
      },
    };
  } catch (error) {
    await orders?.stop();
    await simulator?.stop();
    await dynamo.stop();
    throw error;
  }
}
