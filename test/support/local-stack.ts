import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { localProcessEnv } from '../../local/stack.ts';
import { testCertificate } from '../../local/tls.ts';
import { QUICK_JIT } from './shared-dynamo.ts';
import { type StackProcessContext, spawnStackProcess, stopStackProcess } from './spawn-stack.ts';
import { stackBundle } from './stack-bundle.ts';

/** What an HTTP test file knows of its local stack (test/support/stack.ts). */
export interface LocalStackContext extends StackProcessContext {
  /** A self-signed certificate for loopback webhook receivers, which the stack trusts (test/support/tls.ts). */
  webhookTls: { key: string; cert: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where a test file asks for the local stack of its worker slot: `GET <url>/<VITEST_POOL_ID>`. */
    localStacks: string;
  }
}

/**
 * The HTTP tests' local stacks: the same stack `npm start` runs (DynamoDB Local in memory), one
 * per worker slot, each a process of its own (test/support/stack-process.ts) started when a file
 * of its slot first asks for it. A slot runs its files one at a time, so a test that moves its
 * stack's clock disturbs no other file, while the files of the other slots (and the unit and
 * infra files) run beside it. Each HTTP project (vitest.config.ts) has stacks of its own.
 */
export async function setup(project: TestProject) {
  // The workers (and the commands they run) log and measure as the stacks do: errors only.
  Object.assign(process.env, localProcessEnv('ERROR'));
  // Every stack process of the run, the workers' (crash-recovery's) too, starts from one bundle.
  process.env.STACK_PROCESS_BUNDLE = await stackBundle();
  const webhookTls = testCertificate();
  // Each stack's DynamoDB Local on the quick JIT (the java launcher reads `JDK_JAVA_OPTIONS`).
  const javaOptions = { JDK_JAVA_OPTIONS: QUICK_JIT.join(' ') };
  const stacks = new Map<string, Promise<{ child: ChildProcess; context: StackProcessContext }>>();
  const broker = createServer((req, res) => {
    const slot = (req.url ?? '/').slice(1);
    let started = stacks.get(slot);
    if (!started) {
      started = spawnStackProcess({ STACK_WEBHOOK_CA: webhookTls.cert, ...javaOptions });
      stacks.set(slot, started);
    }
    started.then(
      ({ context }) =>
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ ...context, webhookTls } satisfies LocalStackContext)),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  broker.listen(0, '127.0.0.1');
  await new Promise((done) => broker.once('listening', done));
  project.provide('localStacks', `http://127.0.0.1:${(broker.address() as AddressInfo).port}`);
  return async () => {
    broker.close();
    await Promise.all(
      [...stacks.values()].map((started) =>
        started.then(({ child }) => stopStackProcess(child, 'SIGTERM')).catch(() => {}),
      ),
    );
  };
}
