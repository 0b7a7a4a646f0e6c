/**
 * test/support/stack-process.ts as one JavaScript file, built once per test run: a stack process
 * started through tsx spent about 3 s of CPU resolving, transforming and loading its TypeScript
 * modules and the packages' CommonJS ones, half of it with everything in one file, and a run
 * starts a dozen (crash-recovery alone eleven). The bundle holds the packages and every module of
 * the repository the process may load, the handlers (`functions/**`) and the capabilities'
 * compositions included (their `import()`s name a folder). Every `import.meta.url` keeps its
 * module's own path, so what is read beside a module is found as from the source.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'test/support/stack-process.ts');

/** Each module's `import.meta.url`, `.dirname` and `.filename` as its source file's. */
const ownPaths: Plugin = {
  name: 'own-import-meta',
  setup(bundle) {
    bundle.onLoad({ filter: /\.ts$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      return {
        loader: 'ts',
        contents: source
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
          .replaceAll('import.meta.filename', JSON.stringify(path)),
      };
    });
  },
};

async function buildStackBundle(): Promise<string> {
  const dir = join(ROOT, 'node_modules/.cache/stack-process');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `stack-process-${process.pid}.mjs`);
  process.once('exit', () => rmSync(file, { force: true }));
  await build({
    entryPoints: [ENTRY],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Packages' own `require()` calls (of Node's modules) need a `require` in an ES module.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    logLevel: 'error',
    plugins: [ownPaths],
  });
  return file;
}

const BUILT = Symbol.for('crds.stackBundle');

/**
 * The bundle's path, built on the first call in this process (the HTTP projects' global setups
 * share it) under node_modules/.cache, where `require` finds what the source's would; removed
 * when the process exits.
 */
export function stackBundle(): Promise<string> {
  const shared = globalThis as { [BUILT]?: Promise<string> };
  shared[BUILT] ??= buildStackBundle();
  return shared[BUILT];
}
