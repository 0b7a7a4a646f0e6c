/**
 * `npm run console:build`: bundles the console's browser script (shared/console/client/app.ts) with
 * the project's esbuild into shared/console/dist/console.js, which is committed and served as is
 * (the route's asset). test/unit/console-bundle.test.ts fails when the committed file is stale;
 * `npm run bench` measures its gzipped size against the 100 KB budget.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { CONSOLE_SCRIPT } from '../shared/console/routes.ts';

export const CONSOLE_ENTRY = 'shared/console/client/app.ts';

/** The bundle's text: one IIFE for current browsers, minified, no source map, no comments. */
export async function buildConsoleScript(): Promise<string> {
  const result = await build({
    entryPoints: [CONSOLE_ENTRY],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120', 'firefox120', 'safari17'],
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'warning',
  });
  return (result.outputFiles[0] as { text: string }).text;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const script = await buildConsoleScript();
  mkdirSync(dirname(CONSOLE_SCRIPT), { recursive: true });
  writeFileSync(CONSOLE_SCRIPT, script);
  console.log(`${CONSOLE_SCRIPT}: ${script.length} bytes`);
}
