import { randomBytes } from 'node:crypto';
import { allTables, type TableDefinition } from '../shared/infra/tables.ts';
import { ensureTables, freePort, type LocalDynamo, startDynamoLocal } from './dynamodb.ts';
import { type SeedKey, seedKeys } from './keys.ts';
import { createLocalServer, loadRoutes } from './server.ts';

export interface LocalStackOptions {
  /** HTTP port; 0 picks a free one. */
  port?: number;
  /** DynamoDB Local port; 0 picks a free one. */
  dynamoPort?: number;
  /** Keep DynamoDB data in this folder between runs; in memory when absent. */
  dataDir?: string;
  keys?: readonly SeedKey[];
  logLevel?: string;
}

export interface LocalStack {
  /** The local clock: real time plus an offset tests and demos can move. */
  baseUrl: string;
  dynamoEndpoint: string;
  tableNames: Record<TableDefinition['id'], string>;
  clock: import('../shared/domain/clock.ts').AdjustableClock;
  stop(): Promise<void>;
}

export const localTableName = (table: TableDefinition) => `crds-${table.id}`;

/**
 * The whole service on one machine: DynamoDB Local, the tables, and an HTTP server that hands
 * each request to the same handler module Lambda runs, as an API Gateway proxy event.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dynamo: LocalDynamo = await startDynamoLocal({
    port: options.dynamoPort ?? 0,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  try {
    await ensureTables(dynamo.endpoint, allTables, localTableName);
    const tableNames = Object.fromEntries(
      allTables.map((t) => [t.id, localTableName(t)]),
    ) as LocalStack['tableNames'];
    const port = await freePort(options.port ?? 0);
    const env: Record<string, string> = {
      DOCS_URL: process.env.DOCS_URL ?? `http://localhost:${port}/docs`,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      CURSOR_SECRET: process.env.CURSOR_SECRET ?? randomBytes(32).toString('hex'),
      VALIDATE_RESPONSES: 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_LOG_LEVEL: options.logLevel ?? process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
      POWERTOOLS_SERVICE_NAME: 'company-register',
      AWS_REGION: process.env.AWS_REGION ?? 'ap-southeast-2',
      ...Object.fromEntries(allTables.map((t) => [t.envVar, tableNames[t.id]])),
    };
    Object.assign(process.env, env);

    const { AdjustableClock } = await import('../shared/domain/clock.ts');
    const clock = new AdjustableClock();
    const { useClock } = await import('../shared/runtime.ts');
    useClock(clock);
    if (options.keys?.length) await seedKeys(options.keys, clock.now());

    const { routeList } = await import('../shared/http/routes.ts');
    const routes = await loadRoutes(routeList);
    const server = createLocalServer({ routes, clock, docsUrl: env.DOCS_URL as string });
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => done());
    });
    server.keepAliveTimeout = 5_000;
    return {
      baseUrl: `http://localhost:${port}`,
      dynamoEndpoint: dynamo.endpoint,
      tableNames,
      clock,
      stop: async () => {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        await dynamo.stop();
      },
    };
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
}
