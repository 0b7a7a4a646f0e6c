/**
 * `npm test`: the lint (`biome check .`), the type check (`npm run typecheck`'s two `tsc` runs) and
 * `vitest run` at once, not one after another: the checks use a core for half a minute, which the
 * vitest files leave idle whenever they wait on a stack or a browser. The checks run at a lower
 * priority (`nice`), so they take only what the tests leave; their output is printed as each
 * finishes, and vitest's closing summary is held until both have finished, so it is printed last.
 *
 * The project's `tsc --noEmit` runs only when the tests did not: test/unit/new-capability.test.ts
 * type-checks a copy of the whole project with a capability scaffolded into it, a superset of the
 * project, and reports its outcome to the file named by `WHOLE_PROJECT_TYPECHECK_REPORT`. When a run
 * leaves that file unwritten (`npm test -- FILE…` without that test), `tsc --noEmit` runs after vitest.
 *
 * Arguments go to `vitest run` (`npm test -- --project unit`). The exit code is vitest's when the
 * checks pass, else 1. docs/decisions/0113-test-suite-speed.md and
 * docs/decisions/0121-test-speed-unit-infra.md say why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { platform, tmpdir } from 'node:os';
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
    name: 'typecheck of the console client (tsc --noEmit -p shared/console/client)',
    commands: [[bin('tsc'), '--noEmit', '-p', 'shared/console/client']],
  },
];

/** The project's own type check, when no test ran it over a superset of the project. */
const PROJECT_TYPECHECK: Check = {
  name: 'typecheck (tsc --noEmit)',
  commands: [[bin('tsc'), '--noEmit']],
};

/** What test/unit/new-capability.test.ts writes after its `tsc --noEmit` over the copied project. */
export interface WholeProjectTypecheckReport {
  /** tsc's exit code. */
  code: number;
  output: string;
}

const reportDir = mkdtempSync(join(tmpdir(), 'crds-test-'));
const reportFile = join(reportDir, 'typecheck.json');

/** Where `nice` exists (Linux, macOS), a command runs through it, below the tests' priority. */
const niced = (command: string[]): string[] =>
  platform() === 'win32' ? command : ['nice', '-n', '10', ...command];

/** Runs a check's commands one after another (stopping at the first failure); resolves with its exit code and output. */
async function runCheck(
  check: Check,
  priority: (command: string[]) => string[] = niced,
): Promise<{ code: number; output: string; seconds: number }> {
  const started = Date.now();
  let output = '';
  for (const command of check.commands) {
    const [file, ...args] = priority(command) as [string, ...string[]];
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

const printCheck = (name: string, result: { code: number; output: string; seconds?: number }): number => {
  const verdict = result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`;
  const seconds = result.seconds === undefined ? '' : ` in ${result.seconds.toFixed(1)} s`;
  process.stdout.write(`\n${name}: ${verdict}${seconds}\n`);
  if (result.output.trim()) process.stdout.write(`${result.output.trimEnd()}\n`);
  return result.code;
};

const checks = CHECKS.map(async (check) => printCheck(check.name, await runCheck(check)));

// vitest's output passes through line by line, colours kept when this terminal shows them; from
// its closing summary (`Test Files …`) on, it is held until the checks have finished.
const vitest: ChildProcess = spawn(bin('vitest'), ['run', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: ['inherit', 'pipe', 'inherit'],
  env: {
    ...process.env,
    ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
    WHOLE_PROJECT_TYPECHECK_REPORT: reportFile,
  },
});
const held: string[] = [];
createInterface({ input: vitest.stdout as NodeJS.ReadableStream }).on('line', (line) => {
  if (held.length > 0 || /^\s*Test Files\s/.test(stripVTControlCharacters(line))) held.push(line);
  else process.stdout.write(`${line}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => vitest.kill(signal));

const vitestClosed = once(vitest, 'close') as Promise<[number | null]>;
const projectTypecheck = vitestClosed.then(async () => {
  if (!existsSync(reportFile))
    return printCheck(PROJECT_TYPECHECK.name, await runCheck(PROJECT_TYPECHECK, (c) => c));
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as WholeProjectTypecheckReport;
  return printCheck(
    'typecheck (tsc --noEmit over the project and a scaffolded capability, test/unit/new-capability.test.ts)',
    report,
  );
});
const [[vitestCode], checkCodes] = await Promise.all([
  vitestClosed,
  Promise.all([...checks, projectTypecheck]),
]);
rmSync(reportDir, { recursive: true, force: true });
if (held.length > 0) process.stdout.write(`\n${held.join('\n')}\n`);
process.exitCode = checkCodes.some((code) => code !== 0) ? 1 : (vitestCode ?? 1);
