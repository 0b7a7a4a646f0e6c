/**
 * A local stack as a process of its own. It prints one line of JSON once it listens, starting
 * `{"baseUrl": …}`: the stack's URLs, table names, registry credential and cursor secret.
 *
 * - Alone (the HTTP tests' stacks, test/support/local-stack.ts): its own DynamoDB Local in memory
 *   and registry simulator, trusting the certificate `STACK_WEBHOOK_CA` for loopback webhook
 *   receivers; SIGTERM stops it and its DynamoDB Local.
 * - With `STACK_DYNAMO`: the API alone, on a DynamoDB Local and registry simulator that outlive it
 *   (`STACK_REGISTRY_URL`, `STACK_REGISTRY_CREDENTIAL`), on `STACK_PORT`: the process a test kills
 *   (SIGKILL, as a crash would) and starts again on the same data and the same port
 *   (test/http/crash-recovery.test.ts).
 *
 *   STACK_WEBHOOK_CA=… node --import tsx test/support/stack-process.ts
 *   STACK_PORT=… STACK_DYNAMO=… STACK_REGISTRY_URL=… STACK_REGISTRY_CREDENTIAL=… node --import tsx test/support/stack-process.ts
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { startLocalStack } from '../../local/stack.ts';
import { callDynamo } from '../../shared/adapters/dynamodb/json-client.ts';
import webhooksLocal from '../../shared/webhooks/local/stack.ts';

/**
 * The kinds of write and read the tests start with, once on a scratch item, before the stack says
 * it listens: a fresh DynamoDB Local answers its first conditional write slowly while its JVM
 * loads and compiles that path, and on a loaded machine a test's first write outlived the
 * client's 3 s timeout, was retried and refused by its own first attempt (a key created twice).
 */
async function warmUp(tableName: string): Promise<void> {
  const Key = { pk: { S: 'warm-up' } };
  const absent = { ConditionExpression: 'attribute_not_exists(pk)' };
  await callDynamo('PutItem', { TableName: tableName, Item: Key, ...absent });
  await callDynamo('UpdateItem', {
    TableName: tableName,
    Key,
    UpdateExpression: 'SET n = :n',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':n': { N: '1' } },
  });
  await callDynamo('GetItem', { TableName: tableName, Key, ConsistentRead: true });
  await callDynamo('Query', {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': Key.pk },
  });
  await callDynamo('TransactWriteItems', {
    TransactItems: [{ Delete: { TableName: tableName, Key, ConditionExpression: 'attribute_exists(pk)' } }],
  });
}

/**
 * How a slot stack runs the webhook retry function: at once after each request that moves the
 * clock (a retry becomes due when a test moves the clock: the first delay is a minute), and every
 * second (as `npm start`'s stack) within a minute of the stack's last request; never on a stack
 * left idle. A run queries the deliveries' 17 index partitions: run four times a second on every
 * slot stack for the whole suite, idle stacks included (a project's files finish long before the
 * run does), they cost DynamoDB Local and this process about 0.1 core per stack
 * (docs/decisions/0128-test-speed-margin.md).
 */
const RETRY_INTERVAL_MS = 1_000;
const IN_USE_FOR_MS = 60_000;

function retryWhileInUse(retry: () => Promise<unknown>): { stop(): Promise<void> } {
  let lastRequest = Date.now();
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(
      () => (Date.now() - lastRequest < IN_USE_FOR_MS ? run() : schedule()),
      RETRY_INTERVAL_MS,
    );
  };
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = retry()
      .then(
        () => {},
        (error: unknown) => console.error('webhook retry run failed', error),
      )
      .finally(() => {
        running = undefined;
        if (stopped) return;
        if (!again) return schedule();
        again = false;
        run();
      });
  };
  subscribe('http.server.request.start', () => {
    lastRequest = Date.now();
  });
  subscribe('http.server.response.finish', (message) => {
    const { request } = message as { request: IncomingMessage };
    if (request.method !== 'GET' && request.url?.startsWith('/__local/clock')) run();
  });
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

const setting = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
};

const dynamoEndpoint = process.env.STACK_DYNAMO;
const stack = await startLocalStack({
  port: Number(process.env.STACK_PORT ?? 0),
  logLevel: 'ERROR',
  ...(dynamoEndpoint
    ? {
        dynamoEndpoint,
        registry: { url: setting('STACK_REGISTRY_URL'), credential: setting('STACK_REGISTRY_CREDENTIAL') },
      }
    : {
        dynamoPort: 0,
        capabilities: {
          webhooks: { allowLoopback: true, ca: setting('STACK_WEBHOOK_CA'), retryIntervalMs: 0 },
        },
      }),
});
const retries = dynamoEndpoint ? undefined : retryWhileInUse(() => stack.local(webhooksLocal).retry());
if (!dynamoEndpoint) await warmUp(stack.tableNames.keys);
process.once('SIGTERM', () => {
  void (retries?.stop() ?? Promise.resolve()).then(() => stack.stop()).finally(() => process.exit(0));
});

const { registryCredential, cursorSecret } = stack.ports.config;
if (!registryCredential || !('value' in registryCredential) || !cursorSecret || !('value' in cursorSecret))
  throw new Error(
    'the local stack has a literal registry credential and signs cursors with a literal secret',
  );
process.stdout.write(
  `${JSON.stringify({
    baseUrl: stack.baseUrl,
    dynamoEndpoint: stack.dynamoEndpoint,
    registryUrl: stack.registryUrl,
    registryCredential: registryCredential.value,
    tableNames: stack.tableNames,
    cursorSecret: cursorSecret.value,
  })}\n`,
);
