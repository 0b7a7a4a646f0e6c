import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { LocalStack } from '../../local/stack.ts';

/** What a stack process prints once it listens (test/support/stack-process.ts). */
export interface StackProcessContext {
  baseUrl: string;
  dynamoEndpoint: string;
  registryUrl: string;
  registryCredential: string;
  tableNames: LocalStack['tableNames'];
  cursorSecret: string;
}

const SCRIPT = resolve(import.meta.dirname, 'stack-process.ts');
// Generous: on a loaded machine, with other stacks starting at the same time, a start took over 90 s.
const START_TIMEOUT_MS = 240_000;

/** Starts test/support/stack-process.ts with these settings, and waits until it listens. */
export async function spawnStackProcess(
  settings: Record<string, string>,
): Promise<{ child: ChildProcess; context: StackProcessContext }> {
  // The bundle of a test run (test/support/stack-bundle.ts), else the source through tsx.
  const bundle = process.env.STACK_PROCESS_BUNDLE;
  const child = spawn(process.execPath, bundle ? [bundle] : ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors = (errors + String(chunk)).slice(-4_000);
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const started = new Promise<StackProcessContext>((done, fail) => {
    lines.on('line', (line) => {
      if (line.startsWith('{"baseUrl"')) done(JSON.parse(line) as StackProcessContext);
    });
    child.once('exit', (code) =>
      fail(new Error(`the stack process exited (${code}) before listening: ${errors}`)),
    );
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () => fail(new Error(`the stack process did not listen within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
  });
  try {
    return { child, context: await Promise.race([started, timeout]) };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Stops a stack process: SIGTERM (it stops its DynamoDB Local), or SIGKILL as a crash would. */
export async function stopStackProcess(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}
