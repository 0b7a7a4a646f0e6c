/**
 * `npm test`: the lint (`biome check .`), the type check (`npm run typecheck`'s two `tsc` runs) and
 * `vitest run` at once, not one after another: the checks use a core for half a minute, which the
 * vitest files leave idle whenever they wait on a stack or a browser. The checks run at a lower
 * priority (`nice`), so they take only what the tests leave; their output is printed as each
 * finishes, and vitest's closing summary is held until both have finished, so it is printed last.
 * Arguments go to `vitest run` (`npm test -- --project unit`). The exit code is vitest's when the
 * checks pass, else 1. docs/decisions/0113-test-suite-speed.md says why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { platform } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

interface Check {
  name: string;
  commands: string[][];
}

const CHECKS: Check[] = [
  { name: 'lint (biome check .)', commands: [[bin('biome'), 'check', '.']] },
  {
    name: 'typecheck (tsc --noEmit; tsc --noEmit -p shared/console/client)',
    commands: [
      [bin('tsc'), '--noEmit'],
      [bin('tsc'), '--noEmit', '-p', 'shared/console/client'],
    ],
  },
];

/** Where `nice` exists (Linux, macOS), a command runs through it, below the tests' priority. */
const niced = (command: string[]): string[] =>
  platform() === 'win32' ? command : ['nice', '-n', '10', ...command];

/** Runs a check's commands one after another (stopping at the first failure); resolves with its exit code and output. */
async function runCheck(check: Check): Promise<{ code: number; output: string; seconds: number }> {
  const started = Date.now();
  let output = '';
  for (const command of check.commands) {
    const [file, ...args] = niced(command) as [string, ...string[]];
    const child = spawn(file, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const [code] = (await once(child, 'close')) as [number | null];
    if (code !== 0) return { code: code ?? 1, output, seconds: (Date.now() - started) / 1000 };
  }
  return { code: 0, output, seconds: (Date.now() - started) / 1000 };
}

const checks = CHECKS.map(async (check) => {
  const result = await runCheck(check);
  const verdict = result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`;
  process.stdout.write(`\n${check.name}: ${verdict} in ${result.seconds.toFixed(1)} s\n`);
  if (result.output.trim()) process.stdout.write(`${result.output.trimEnd()}\n`);
  return result.code;
});

// vitest's output passes through line by line, colours kept when this terminal shows them; from
// its closing summary (`Test Files …`) on, it is held until the checks have finished.
const vitest: ChildProcess = spawn(bin('vitest'), ['run', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: ['inherit', 'pipe', 'inherit'],
  env: process.stdout.isTTY && !process.env.NO_COLOR ? { ...process.env, FORCE_COLOR: '1' } : process.env,
});
const held: string[] = [];
createInterface({ input: vitest.stdout as NodeJS.ReadableStream }).on('line', (line) => {
  if (held.length > 0 || /^\s*Test Files\s/.test(stripVTControlCharacters(line))) held.push(line);
  else process.stdout.write(`${line}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => vitest.kill(signal));

const [[vitestCode], checkCodes] = await Promise.all([
  once(vitest, 'close') as Promise<[number | null]>,
  Promise.all(checks),
]);
if (held.length > 0) process.stdout.write(`\n${held.join('\n')}\n`);
process.exitCode = checkCodes.some((code) => code !== 0) ? 1 : (vitestCode ?? 1);
