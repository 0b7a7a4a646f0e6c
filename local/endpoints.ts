/**
 * Where a running local stack listens. `npm start` writes `.local/endpoints.json` once it is up
 * and removes it when it stops; `npm run keys` reads it to reach DynamoDB Local, whose port is
 * 8000 only when that port was free (or DYNAMODB_PORT) when the stack started.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalEndpoints {
  api: string;
  dynamodb: string;
  registry: string;
  /** The `npm start` process: a file left behind by a stack that was killed names a dead one. */
  pid: number;
}

export const endpointsFile = (localDir = '.local'): string => join(localDir, 'endpoints.json');

export function writeLocalEndpoints(localDir: string, endpoints: LocalEndpoints): void {
  mkdirSync(localDir, { recursive: true });
  writeFileSync(endpointsFile(localDir), `${JSON.stringify(endpoints, null, 2)}\n`);
}

export function removeLocalEndpoints(localDir: string): void {
  rmSync(endpointsFile(localDir), { force: true });
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The running local stack's endpoints, or undefined when none was started here or it has stopped. */
export function readLocalEndpoints(localDir = '.local'): LocalEndpoints | undefined {
  const file = endpointsFile(localDir);
  if (!existsSync(file)) return undefined;
  const endpoints = JSON.parse(readFileSync(file, 'utf8')) as LocalEndpoints;
  return isRunning(endpoints.pid) ? endpoints : undefined;
}
