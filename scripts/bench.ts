/**
 * `npm run bench` (BENCH_SKIP_BUNDLES=1 skips the bundle part): per function, the minified bundle size and the module initialisation time of
 * the bundle (the same esbuild settings CDK uses); then warm latency and throughput of the free
 * endpoints through the local server at 10 concurrent connections. Prints targets beside results.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { esbuildOptions } from '../lib/bundling.ts';
import type { SeedKey } from '../local/keys.ts';
import { startLocalStack } from '../local/stack.ts';
import { routeList } from '../shared/http/routes.ts';
import { SANDBOX } from '../shared/registry/sandbox-data.ts';

const run = promisify(execFile);
const TARGETS = { bundleKb: 400, initMs: 60, p50Ms: 10 };
const INIT_RUNS = 7;
const CONNECTIONS = 10;
const REQUESTS_PER_CONNECTION = 300;
const WARMUP_PER_CONNECTION = 100;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');

async function bundles() {
  const outdir = mkdtempSync(join(tmpdir(), 'crds-bench-'));
  console.log(
    `\nBundles (esbuild, minified, as deployed)          target ≤ ${TARGETS.bundleKb} KB, init ≤ ${TARGETS.initMs} ms`,
  );
  try {
    for (const route of routeList) {
      const outfile = join(outdir, `${route.name}.mjs`);
      await build({
        ...esbuildOptions,
        sourcemap: false,
        entryPoints: [`functions/${route.handler}.ts`],
        outfile,
      });
      const kb = statSync(outfile).size / 1024;
      const times: number[] = [];
      for (let i = 0; i < INIT_RUNS; i++) {
        const script = `const t=performance.now();await import(${JSON.stringify(outfile)});console.log(performance.now()-t)`;
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
          env: { ...process.env, KEYS_TABLE: 'k', LIMITS_TABLE: 'l', AWS_REGION: 'ap-southeast-2' },
        });
        times.push(Number(stdout.trim()));
      }
      const init = median(times);
      console.log(
        `  ${mark(kb <= TARGETS.bundleKb)} ${route.name.padEnd(22)} ${kb.toFixed(0).padStart(5)} KB   init ${init.toFixed(1).padStart(5)} ms ${mark(init <= TARGETS.initMs)}`,
      );
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

async function load(
  baseUrl: string,
  keys: SeedKey[],
  path: string,
  warmup = WARMUP_PER_CONNECTION,
  requests = REQUESTS_PER_CONNECTION,
) {
  const hit = async (key: SeedKey) => {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key.secret}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return performance.now() - started;
  };
  await Promise.all(
    keys.map(async (key) => {
      for (let i = 0; i < warmup; i++) await hit(key);
    }),
  );
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    keys.map(async (key) => {
      for (let i = 0; i < requests; i++) latencies.push(await hit(key));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuShare = (cpu.user + cpu.system) / 1e6 / seconds;
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 0.5);
  console.log(
    `  ${mark(p50 <= TARGETS.p50Ms)} GET ${path.padEnd(38)} p50 ${p50.toFixed(1).padStart(5)} ms  p99 ${percentile(latencies, 0.99).toFixed(1).padStart(5)} ms  ${(latencies.length / seconds).toFixed(0).padStart(5)} req/s  (API process CPU ${(cpuShare * 100).toFixed(0)}%)`,
  );
}

/** Counts DynamoDB calls the server process makes (the local stack runs in this process). */
async function countDynamoCalls() {
  // Imported late: the client's module builds the logger, which must see the stack's log level.
  const { dynamoClient } = await import('../shared/adapters/dynamodb/client.ts');
  let calls = 0;
  dynamoClient().middlewareStack.add(
    (next) => async (args) => {
      calls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return () => calls;
}

/** Held-extract reads: the large sandbox company (1,000 officeholders, 2,000 documents). */
async function extractReads(baseUrl: string, key: SeedKey) {
  const headers = { Authorization: `Bearer ${key.secret}`, 'Content-Type': 'application/json' };
  const bought = await fetch(`${baseUrl}/v1/companies/${SANDBOX.largeCompany}/extracts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'historical' }),
  });
  const extract = (await bought.json()) as { id: string };
  if (bought.status !== 201) throw new Error(`purchase answered ${bought.status}`);
  const dynamoCalls = await countDynamoCalls();
  console.log(`\nHeld-extract reads, one connection (large company: 1,000 officeholders, 2,000 documents)`);
  for (const path of [
    `/v1/extracts/${extract.id}`,
    `/v1/companies/${SANDBOX.largeCompany}/officeholders?limit=20`,
  ]) {
    const before = dynamoCalls();
    await load(baseUrl, [key], path, 50, 200);
    const perRequest = (dynamoCalls() - before) / 250;
    // Every request makes three calls for auth and limits (key lookup, limit update, release).
    console.log(
      `       DynamoDB calls per request ${perRequest.toFixed(1)} (${(perRequest - 3).toFixed(1)} beyond auth and limits; target ≤ 2) ${mark(perRequest - 3 <= 2)}`,
    );
  }
}

async function latency() {
  // One key per connection: each stays far below its 600 requests per minute.
  const keys: SeedKey[] = Array.from({ length: 2 * CONNECTIONS + 3 }, (_, i) => ({
    accountId: `acct_bench${i}`,
    environment: 'test',
    secret: `sk_test_bench${randomBytes(8).toString('hex')}`,
  }));
  // Responses are not schema-checked here, as in AWS (the local stack and tests check them).
  const stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    keys,
    logLevel: 'ERROR',
    validateResponses: false,
  });
  try {
    console.log(
      `\nLocal server, DynamoDB Local, ${CONNECTIONS} connections × ${REQUESTS_PER_CONNECTION} requests (after ${WARMUP_PER_CONNECTION} warm-up each)   target p50 ≤ ${TARGETS.p50Ms} ms`,
    );
    await load(stack.baseUrl, keys.slice(0, CONNECTIONS), '/v1/identifiers/51824753556');
    await load(
      stack.baseUrl,
      keys.slice(CONNECTIONS, 2 * CONNECTIONS),
      '/v1/reference/code-tables/office-holder-roles',
    );
    console.log('\nSame, one connection (what a single client sees)');
    await load(
      stack.baseUrl,
      keys.slice(2 * CONNECTIONS, 2 * CONNECTIONS + 1),
      '/v1/identifiers/51824753556',
    );
    await load(
      stack.baseUrl,
      keys.slice(2 * CONNECTIONS + 1, 2 * CONNECTIONS + 2),
      '/v1/reference/code-tables/office-holder-roles',
    );
    await extractReads(stack.baseUrl, keys[2 * CONNECTIONS + 2] as SeedKey);
  } finally {
    await stack.stop();
  }
}

if (!process.env.BENCH_SKIP_BUNDLES) await bundles();
if (process.env.BENCH_ONLY_BUNDLES) process.exit(0);
await latency();
