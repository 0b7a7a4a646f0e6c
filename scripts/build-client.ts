/**
 * `npm run client:build`: builds clients/typescript into its npm package, in dist/. esbuild
 * bundles the client, with `openapi-fetch` and `verifyWebhook` (shared/webhooks/verify.ts, the
 * one the service's tests use), as ESM and CommonJS; dts-bundle-generator writes one declaration
 * file with openapi-fetch's types inlined. The MCP stdio bridge (clients/typescript/mcp.ts, the
 * package's `company-register-mcp` bin) is built beside it, as one ESM file of its own code. The
 * package so depends on nothing: it installs offline. `npm pack` in clients/typescript then makes
 * the tarball (test/http/client-package.test.ts, test/http/mcp-bridge.test.ts).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import { type BuildOptions, build } from 'esbuild';

export const CLIENT_DIR = fileURLToPath(new URL('../clients/typescript', import.meta.url));
const entry = join(CLIENT_DIR, 'index.ts');
const dist = join(CLIENT_DIR, 'dist');
/** What the bundle carries of other packages, whose licences go with it. */
const BUNDLED = ['openapi-fetch', 'openapi-typescript-helpers'];

function notices(): string {
  const require = createRequire(import.meta.url);
  return BUNDLED.map((name) => {
    const dir = dirname(require.resolve(`${name}/package.json`));
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
    return `## ${name} ${version}\n\n${readFileSync(join(dir, 'LICENSE'), 'utf8').trim()}\n`;
  }).join('\n');
}

export async function buildClientPackage(): Promise<void> {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  const options: BuildOptions = {
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  };
  await Promise.all([
    build({ ...options, format: 'esm', outfile: join(dist, 'index.mjs') }),
    build({ ...options, format: 'cjs', outfile: join(dist, 'index.cjs') }),
    build({
      ...options,
      entryPoints: [join(CLIENT_DIR, 'mcp.ts')],
      format: 'esm',
      banner: { js: '#!/usr/bin/env node' },
      outfile: join(dist, 'mcp.mjs'),
    }),
  ]);
  const [declarations] = generateDtsBundle(
    [
      {
        filePath: entry,
        libraries: { inlinedLibraries: BUNDLED, allowedTypesLibraries: [] },
        output: { noBanner: true, exportReferencedTypes: false },
      },
    ],
    { preferredConfigPath: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) },
  );
  if (!declarations) throw new Error('dts-bundle-generator wrote no declarations');
  writeFileSync(join(dist, 'index.d.mts'), declarations);
  writeFileSync(join(dist, 'index.d.cts'), declarations);
  writeFileSync(
    join(dist, 'THIRD-PARTY-NOTICES.md'),
    `# Third-party notices\n\nThis package bundles the following, under their licences:\n\n${notices()}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildClientPackage();
  console.log(`built ${dist} in ${Math.round(performance.now() - started)} ms`);
}
