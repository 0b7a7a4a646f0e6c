/** local/endpoints.ts: what `npm start` leaves for `npm run keys` to find it, and a stale file from a killed stack. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLocalEndpoints, removeLocalEndpoints, writeLocalEndpoints } from '../../local/endpoints.ts';

const dirs: string[] = [];
const localDir = () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'endpoints-')), '.local');
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(join(dir, '..'), { recursive: true, force: true });
});

const endpoints = (pid: number) => ({
  api: 'http://localhost:3128',
  dynamodb: 'http://127.0.0.1:8128',
  registry: 'http://127.0.0.1:40000',
  pid,
});

describe('the local stack endpoints file', () => {
  it('gives back what a running stack wrote, and nothing once it is removed', () => {
    const dir = localDir();
    expect(readLocalEndpoints(dir)).toBeUndefined();
    writeLocalEndpoints(dir, endpoints(process.pid));
    expect(readLocalEndpoints(dir)).toStrictEqual(endpoints(process.pid));
    removeLocalEndpoints(dir);
    expect(existsSync(join(dir, 'endpoints.json'))).toBe(false);
    expect(readLocalEndpoints(dir)).toBeUndefined();
  });

  it('ignores a file left by a stack whose process has ended', () => {
    const dir = localDir();
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    writeLocalEndpoints(dir, endpoints(ended));
    expect(readLocalEndpoints(dir)).toBeUndefined();
  });
});
