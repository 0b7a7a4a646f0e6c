import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../lib/bundling.ts';
import { bundlingWithAssets } from '../../lib/constructs/api-function.ts';
import { routeList, routes } from '../../shared/app/routes.ts';

/**
 * Lambda bundles leave the route entries' response schemas out (lib/bundling.ts,
 * docs/decisions/0119-responses-out-of-lambda.md), the MCP server's too: its tools' output schemas
 * are worked out when it is bundled (test/unit/lean-starts.test.ts).
 */

/** The Lambda options without the definition that leaves the responses out. */
const keepingResponses = {
  ...esbuildOptions,
  define: Object.fromEntries(
    Object.entries(esbuildOptions.define).filter(([name]) => name !== 'process.env.ROUTE_RESPONSES_OMITTED'),
  ),
};
const requireBundle = async (contents: string, options: typeof esbuildOptions) => {
  const dir = mkdtempSync(join(tmpdir(), 'crds-responses-'));
  try {
    const outfile = join(dir, 'bundle.cjs');
    await build({
      ...options,
      sourcemap: false,
      stdin: { contents, resolveDir: resolve('.'), loader: 'ts' },
      outfile,
    });
    return createRequire(outfile)(outfile) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const responsesOfEveryRoute = `import { routeList } from './shared/app/routes.ts';
export const responses = routeList.map((route) => [route.name, route.response !== undefined]);`;

describe("route entries' response schemas", () => {
  it('are left out of a Lambda bundle, for every route', async () => {
    const { responses } = await requireBundle(responsesOfEveryRoute, esbuildOptions);
    expect(responses).toEqual(routeList.map((route) => [route.name, false]));
  }, 60_000);

  it('are there wherever no bundle defines them away (the contract, the local stack, tests)', () => {
    expect(routeList.filter((route) => route.response === undefined).map((route) => route.name)).toEqual([]);
  });

  it("are left out by CDK's bundling, with assets or without", () => {
    expect(bundlingWithAssets([]).define).toHaveProperty('process.env.ROUTE_RESPONSES_OMITTED', 'true');
    expect(bundlingWithAssets(['docs/openapi.json']).define).toHaveProperty(
      'process.env.ROUTE_RESPONSES_OMITTED',
      'true',
    );
  });

  it('a monitor read bundles its request schema but not its response schema', async () => {
    const { outputFiles } = await build({
      ...esbuildOptions,
      sourcemap: false,
      write: false,
      entryPoints: { GetMonitor: `functions/${routes.getMonitor.handler}.ts` },
      outdir: 'bundles',
    });
    const kept = await build({
      ...keepingResponses,
      sourcemap: false,
      write: false,
      entryPoints: { GetMonitor: `functions/${routes.getMonitor.handler}.ts` },
      outdir: 'bundles',
    });
    const sizeOf = (files: typeof outputFiles) =>
      files.find((file) => file.path.endsWith('/bundles/GetMonitor.js'))?.text.length ?? 0;
    expect(sizeOf(outputFiles)).toBeGreaterThan(0);
    // The monitor, its baseline and the company summary it shows: about 11 KB.
    expect(sizeOf(kept.outputFiles) - sizeOf(outputFiles)).toBeGreaterThan(8 * 1024);
  }, 60_000);
});
