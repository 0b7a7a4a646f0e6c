/**
 * A customer's project in a temporary directory, for the tests that use the contract as an
 * integrator would (test/http/client-package.test.ts, test/http/third-party-client.test.ts): an
 * empty ESM package holding their program, type-checked with the repository's TypeScript under
 * strict settings (declarations of installed packages checked too), then run with Node.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

const require = createRequire(import.meta.url);
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin/tsc');
const nodeTypes = dirname(dirname(require.resolve('@types/node/package.json')));

export interface IntegratorProject {
  readonly dir: string;
  /** A path inside the project. */
  path(...parts: string[]): string;
  /** Copies the program (a test fixture) in as `program.ts`. */
  addProgram(fixture: string): void;
  /**
   * `tsc --strict` over `program.ts`, with `--skipLibCheck false` (the installed packages'
   * declarations checked too) unless `libCheck` is false: what it printed (empty when the program
   * compiles). `outDir` emits JavaScript there, else none.
   */
  typeCheck(options?: { outDir?: string; extra?: readonly string[]; libCheck?: boolean }): Promise<string>;
  remove(): void;
}

/** A fresh project named `name`, in a temporary directory whose name starts with `prefix`. */
export function integratorProject(prefix: string, name: string): IntegratorProject {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  return {
    dir,
    path: (...parts) => join(dir, ...parts),
    addProgram: (fixture) => copyFileSync(fixture, join(dir, 'program.ts')),
    async typeCheck({ outDir, extra = [], libCheck = true } = {}) {
      const args = [
        tsc,
        ...(outDir ? ['--outDir', outDir] : ['--noEmit']),
        '--strict',
        ...extra,
        '--skipLibCheck',
        String(!libCheck),
        '--module',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        nodeTypes,
        'program.ts',
      ];
      const result = await run(process.execPath, args, { cwd: dir }).catch(
        (error: { stdout: string }) => error,
      );
      return result.stdout;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
