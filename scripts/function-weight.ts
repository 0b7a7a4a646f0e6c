/**
 * `npm run weight`: what each deployed function bundles. Bundles every function with the deployed
 * esbuild settings (lib/bundling.ts), writes each one's esbuild metafile to `WEIGHT_DIR` (default
 * a temporary directory; open one at https://esbuild.github.io/analyze/) and prints its size and
 * its biggest inputs (`WEIGHT_TOP`, default 8; `WEIGHT_ONLY=<regexp>` for some functions).
 * test/unit/function-weight.test.ts holds every function to the budgets of
 * docs/decisions/0100-sandbox-beside-the-bundle.md with the same bundles; `npm run bench` times them.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type OutputFile } from 'esbuild';
import { esbuildOptions } from '../lib/bundling.ts';
import { routeList } from '../shared/app/routes.ts';
import type { GrantedRoute } from '../shared/kernel/http/route.ts';
import { MONITORING_RUN, MONITORING_START } from '../shared/monitoring/infra.ts';
import { FULFILMENT_STARTER, FULFILMENT_SWEEPER, workflowTasks } from '../shared/orders/infra.ts';
import { WEBHOOK_DISPATCHER, WEBHOOK_RETRY } from '../shared/webhooks/infra.ts';

export interface DeployedFunction {
  name: string;
  handler: string;
  group: 'route' | 'workflow task' | 'fulfilment' | 'webhooks' | 'company monitoring';
  /** The route entry, for a route's function. */
  route?: GrantedRoute;
}

/** Every function CDK deploys: the routes, the workflow's tasks, its starter and sweeper, the webhook and monitoring workers. */
export const deployedFunctions = (): DeployedFunction[] => [
  ...routeList.map((route) => ({ name: route.name, handler: route.handler, group: 'route' as const, route })),
  ...workflowTasks.map((task) => ({
    name: task.name,
    handler: task.handler,
    group: 'workflow task' as const,
  })),
  ...[FULFILMENT_STARTER, FULFILMENT_SWEEPER].map((fn) => ({ ...fn, group: 'fulfilment' as const })),
  ...[WEBHOOK_DISPATCHER, WEBHOOK_RETRY].map((fn) => ({ ...fn, group: 'webhooks' as const })),
  ...[MONITORING_START, MONITORING_RUN].map((fn) => ({ ...fn, group: 'company monitoring' as const })),
];

export interface FunctionWeight {
  name: string;
  /** The minified bundle, in bytes. */
  bytes: number;
  /** Each input's bytes in the bundle, biggest first. */
  inputs: { path: string; bytes: number }[];
  metafile: Metafile;
}

/** Bundles the functions as deployed, writing nothing (one esbuild run): every bundle and their metafile. */
export async function bundleFunctions(
  functions: readonly DeployedFunction[],
): Promise<{ metafile: Metafile; outputFiles: OutputFile[] }> {
  const { metafile, outputFiles } = await build({
    ...esbuildOptions,
    sourcemap: false,
    write: false,
    metafile: true,
    entryPoints: Object.fromEntries(functions.map((fn) => [fn.name, `functions/${fn.handler}.ts`])),
    outdir: 'bundles',
  });
  return { metafile, outputFiles };
}

/** What each function carries, from the metafile of `bundleFunctions`. */
export function weightsOf(functions: readonly DeployedFunction[], metafile: Metafile): FunctionWeight[] {
  return functions.map((fn) => {
    const output = metafile.outputs[`bundles/${fn.name}.js`];
    if (!output) throw new Error(`esbuild wrote no bundle for ${fn.name}`);
    const inputs = Object.entries(output.inputs)
      .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }))
      .sort((a, b) => b.bytes - a.bytes);
    return {
      name: fn.name,
      bytes: output.bytes,
      inputs,
      metafile: { inputs: metafile.inputs, outputs: { [`bundles/${fn.name}.js`]: output } },
    };
  });
}

/** Bundles the functions (as deployed, in one esbuild run, writing nothing) and answers what each one carries. */
export async function functionWeights(functions: readonly DeployedFunction[]): Promise<FunctionWeight[]> {
  return weightsOf(functions, (await bundleFunctions(functions)).metafile);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = process.env.WEIGHT_ONLY ? new RegExp(process.env.WEIGHT_ONLY) : undefined;
  const top = Number(process.env.WEIGHT_TOP ?? 8);
  const dir = process.env.WEIGHT_DIR ?? mkdtempSync(join(tmpdir(), 'crds-weight-'));
  mkdirSync(dir, { recursive: true });
  const functions = deployedFunctions().filter((fn) => !only || only.test(fn.name));
  for (const weight of await functionWeights(functions)) {
    writeFileSync(join(dir, `${weight.name}.meta.json`), JSON.stringify(weight.metafile));
    const biggest = weight.inputs
      .slice(0, top)
      .map((input) => `${input.path.replace(/^node_modules\//, '')} ${(input.bytes / 1024).toFixed(1)}`);
    console.log(`${weight.name} ${(weight.bytes / 1024).toFixed(0)} KB: ${biggest.join(', ')}`);
  }
  console.log(`\nMetafiles in ${dir}`);
}
