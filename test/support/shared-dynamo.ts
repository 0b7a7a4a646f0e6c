import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { type LocalDynamo, startDynamoLocal } from '../../local/dynamodb.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where a unit test file asks for the run's DynamoDB Local: `GET <url>` answers its endpoint. */
    sharedDynamo: string;
  }
}

/**
 * The JIT of the test runs' DynamoDB Locals (this one and the slot stacks'): C1 only. C2's
 * compiling costs more than its faster code saves up to some 60,000 requests: the files on the
 * shared instance took a third less CPU, seven HTTP files on one stack a quarter less, and a slot
 * stack that also serves http/monitoring's bulk imports as much as before
 * (docs/decisions/0128-test-speed-margin.md).
 */
export const QUICK_JIT = ['-XX:TieredStopAtLevel=1'];

/**
 * The unit files' one DynamoDB Local (in memory), started when a file first asks for it
 * (test/support/dynamo.ts) and stopped when the run ends: a start costs about 4 s of CPU, once per
 * run instead of once per file. Each file makes tables of its own names in it, so files stay apart.
 */
export async function setup(project: TestProject) {
  let started: Promise<LocalDynamo> | undefined;
  const broker = createServer((_req, res) => {
    // Loaded machines have taken more than the usual 30 s to start one (docs/decisions/0113).
    started ??= startDynamoLocal({ port: 0, readyWithinMs: 240_000, javaOptions: QUICK_JIT });
    started.then(
      (local) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(local.endpoint),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  broker.listen(0, '127.0.0.1');
  await new Promise((done) => broker.once('listening', done));
  project.provide('sharedDynamo', `http://127.0.0.1:${(broker.address() as AddressInfo).port}`);
  return async () => {
    broker.close();
    await started?.then((local) => local.stop()).catch(() => {});
  };
}
