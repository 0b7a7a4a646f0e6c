import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppPorts } from '../shared/app/ports.ts';
import type { LocalCapability } from '../shared/kernel/capability-local.ts';
import { AdjustableClock } from '../shared/kernel/clock.ts';
import type { ServiceConfig } from '../shared/kernel/config.ts';
import { PLATFORM_ENV } from '../shared/kernel/infra/platform-env.ts';
import { allTables, type TableDefinition } from '../shared/kernel/infra/tables.ts';
import type { LocalCapabilitySettings, LocalModule, ProvidedPorts } from './capability-local.ts';
import { ensureTables, freePort, type LocalDynamo, startDynamoLocal } from './dynamodb.ts';
import { LocalEventBus } from './event-bus.ts';
import { StorageFaults } from './faults.ts';
import { type SeedKey, seedKeys } from './keys.ts';
import { DEFAULT_MAIL_FROM, OutboxMailer } from './outbox-mailer.ts';
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
   * Where the stand-ins keep their files: `outbox/` (SES), `events.jsonl` (EventBridge), and the
   * capabilities' own (`blobs/`, S3). A fresh temporary folder, removed on stop, when absent.
   */
  localDir?: string;
  /**
   * Run as `npm start` does: each capability's scheduled jobs on their schedules, its settings kept
   * in `localDir` or read from the environment (what each does: its local module).
   */
  development?: boolean;
  /** Settings of the capabilities' local modules, each under its capability's name (its local module's). */
  capabilities?: LocalCapabilitySettings;
  /**
   * Reserved concurrency of each registry route's function, as on a live stage: a request beyond
   * it is throttled as API Gateway answers a Lambda throttle (503 with Retry-After). Unset, none.
   */
  registryConcurrency?: number;
}

export interface LocalStack {
  baseUrl: string;
  dynamoEndpoint: string;
  /** The registry simulator live keys reach; its `/__simulator/*` endpoints inject faults. */
  registryUrl: string;
  tableNames: Record<TableDefinition['id'], string>;
  /** The local clock: real time plus an offset tests and demos can move. */
  clock: AdjustableClock;
  /** The folder of the stand-ins' files. */
  dir: string;
  /** The EventBridge stand-in every capability publishes to (`events.jsonl` in `dir`). */
  events: LocalEventBus;
  /** The SES stand-in (`outbox/` in `dir`). */
  outbox: OutboxMailer;
  /** Every port the handlers are given (local/composition.ts, the stand-ins and the capabilities' local modules). */
  ports: AppPorts;
  /** What a capability's local module gave for tests and demos: `stack.local(module)` with its default export. */
  local<Handle>(module: LocalModule<Handle>): Handle;
  /** The lines the capabilities' local modules have `npm start` print. */
  notes: readonly string[];
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
  const temporary = !options.localDir;
  const dir = options.localDir ? resolve(options.localDir) : await mkdtemp(join(tmpdir(), 'crds-local-'));
  await mkdir(dir, { recursive: true });
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
  // The capabilities' local modules started so far, stopped in reverse.
  const started: {
    module: LocalModule<unknown>;
    running: LocalCapability<Partial<ProvidedPorts>, unknown>;
  }[] = [];
  const stopModules = async () => {
    for (const { running } of started.splice(0).reverse()) await running.stop();
  };
  const stopBelow = async () => {
    await simulator?.stop();
    await dynamo.stop();
    if (temporary) await rm(dir, { recursive: true, force: true });
  };
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
    const baseUrl = `http://localhost:${port}`;
    const { loadCapabilityLocals } = await import('./capability-local.ts');
    const modules = await loadCapabilityLocals();
    const setup = { dir, development: options.development === true, settings: options.capabilities ?? {} };
    const config: ServiceConfig = {
      keysTable: tableNames.keys,
      limitsTable: tableNames.limits,
      mainTable: tableNames.main,
      idempotencyTable: tableNames.idempotency,
      docsUrl: process.env.DOCS_URL ?? `${baseUrl}/docs`,
      cursorSecret: { value: process.env.CURSOR_SECRET ?? randomBytes(32).toString('hex') },
      registryUrl: simulator.url,
      registryCredential: { value: registryCredential },
      validateResponses: options.validateResponses ?? true,
      apiBaseUrl: baseUrl,
      mailFrom: process.env[PLATFORM_ENV.mailFrom] ?? DEFAULT_MAIL_FROM,
      // The event bus is stood in for (the stack's); orders' resources by its local module.
      eventBusName: undefined,
    };

    const { composeLocal } = await import('./composition.ts');
    const faults = new StorageFaults();
    const core = await composeLocal(config, clock, faults);
    if (options.keys?.length) await seedKeys(options.keys, clock.now(), core.apiKeys);
    // The stand-ins several capabilities use: EventBridge and SES.
    const events = new LocalEventBus(join(dir, 'events.jsonl'));
    const outbox = new OutboxMailer(join(dir, 'outbox'), config.mailFrom as string);
    const { createRegistries } = await import('../shared/composition/registry/registries.ts');
    const { renderDocumentImages } = await import('../shared/adapters/sandbox/page-images.ts');
    const context = {
      ...setup,
      ports: { ...core, events, mailer: outbox },
      bus: events,
      outbox,
      imageRegistries: createRegistries({ ...core, pageImages: renderDocumentImages }),
      baseUrl,
    };
    let provided: Partial<ProvidedPorts> = {};
    for (const { module } of modules) {
      const running = await module.start({ ...context, ports: { ...context.ports, ...provided } });
      started.push({ module, running });
      provided = { ...provided, ...running.ports };
    }

    const { routeList } = await import('../shared/app/routes.ts');
    // Every port: a route declaring one no module gave fails to load (local/route-ports.ts).
    const ports = { ...context.ports, ...provided } as AppPorts;
    const routes = await loadRoutes(routeList, ports);
    const { standInControl } = await import('./control.ts');
    const server = createLocalServer({
      routes,
      clock,
      faults,
      control: [
        ...standInControl(events, outbox),
        ...started.flatMap(({ running }) => running.control ?? []),
      ],
      ...(options.registryConcurrency === undefined
        ? {}
        : { registryConcurrency: options.registryConcurrency }),
      docsUrl: config.docsUrl,
      apiKeys: core.apiKeys,
    });
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => done());
    });
    server.keepAliveTimeout = 5_000;
    const handles = new Map(started.map(({ module, running }) => [module, running.handle]));
    return {
      baseUrl,
      dynamoEndpoint: dynamo.endpoint,
      registryUrl: simulator.url,
      tableNames,
      clock,
      dir,
      events,
      outbox,
      ports,
      local: <Handle>(module: LocalModule<Handle>) => {
        if (!handles.has(module)) throw new Error('no capability of this stack started that local module');
        return handles.get(module) as Handle;
      },
      notes: started.flatMap(({ running }) => running.notes ?? []),
      stop: async () => {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        // Before the registry and the tables: running executions and jobs still use them.
        await stopModules();
        await stopBelow();
      },
    };
  } catch (error) {
    await stopModules();
    await stopBelow();
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
