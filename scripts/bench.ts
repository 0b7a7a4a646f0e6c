/**
 * `npm run bench` (BENCH_SKIP_BUNDLES=1 skips the bundle part, BENCH_ONLY_BUNDLES=1 runs only it,
 * BENCH_BUNDLES=<regexp> only the functions whose name matches): per function (routes, workflow
 * tasks, starter, sweeper), the minified bundle size and the module initialisation time of the
 * bundle (the same esbuild settings CDK uses); then warm latency and throughput of the free
 * endpoints through the local server at 10 concurrent connections; held-extract reads; then the
 * people measurements (a 100-person purchase at 150 ms of registry latency each, roles pages of
 * the 999-role person); then the orders (scripts/bench-orders.ts: acceptance latency, acceptance to
 * ready, the 500-page PDF compile). Prints targets beside results. BENCH_ONLY_ORDERS=1 runs only
 * the orders part, BENCH_ONLY_LIMITS=1 only the rate limiter's boundary burst (last in a full run).
 * BENCH_ONLY_PEOPLE=1 runs only the people
 * part, in a process that has served nothing else (its memory figures are then not inflated by
 * the earlier sections). BENCH_ONLY_WEBHOOKS=1 runs only the webhooks part (scripts/bench-webhooks.ts:
 * deliveries per second, order ready to first delivery, dispatcher memory). BENCH_ONLY_WEEKLY=1 runs
 * only the weekly summaries (scripts/bench-weekly.ts: the 20,000-item purchase, first- and last-page reads).
 * BENCH_ONLY_CONSOLE=1 runs only the account console's budgets (scripts/bench-console.ts: per page,
 * transfer gzipped and first render against a no-script floor page).
 * BENCH_ONLY_RECORDS=1 runs only the record lookups (scripts/bench-records.ts: one document beside a
 * batch of ten, and the registry calls of a batch).
 * BENCH_ONLY_REGISTERS=1 runs only the registers (scripts/bench-registers.ts: browse page and entry
 * read p50 beside the company name search).
 * BENCH_ONLY_MONITORING=1 runs only company monitoring at scale (scripts/bench-monitoring.ts:
 * BENCH_MONITORS monitors, default 100,000, over half as many companies seeded by batch import; the
 * daily check's DynamoDB and registry calls per company, events created per second, the weekly
 * match of the 20,000-item summary by command type, never a Scan).
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { esbuildOptions } from '../lib/bundling.ts';
import type { SeedKey } from '../local/keys.ts';
import { localTableName, startLocalStack } from '../local/stack.ts';
import { testCertificate } from '../local/tls.ts';
import { SANDBOX } from '../shared/adapters/sandbox/data/companies.ts';
import { PLATFORM_ENV } from '../shared/kernel/infra/platform-env.ts';
import { tableDefinitions } from '../shared/kernel/infra/tables.ts';
import type { PlatformPorts } from '../shared/kernel/ports/platform.ts';
import { MONITORING_ENV } from '../shared/monitoring/infra.ts';
import { ORDERS_ENV } from '../shared/orders/infra.ts';
import { benchConsole } from './bench-console.ts';
import { benchDocsPage } from './bench-docs.ts';
import { benchMonitoring } from './bench-monitoring.ts';
import { benchOrders } from './bench-orders.ts';
import { collectGarbage } from './bench-pdf.ts';
import { benchRecords, RECORDS_BENCH_KEYS } from './bench-records.ts';
import { benchRegisters, REGISTERS_BENCH_KEYS } from './bench-registers.ts';
import { benchWebhooks } from './bench-webhooks.ts';
import { benchWeeklySummaries, WEEKLY_BENCH_KEYS } from './bench-weekly.ts';
import { onDynamoCall } from './dynamo-calls.ts';
import { deployedFunctions as allDeployedFunctions } from './function-weight.ts';

const run = promisify(execFile);
const TARGETS = { bundleKb: 400, initRatio: 1.0, purchaseInitRatio: 0.9, readInitRatio: 0.7, p50Ms: 10 };
/** This VM's timings vary by ±10 ms run to run: the median of many fresh processes is reported. */
const INIT_RUNS = 21;
const CONNECTIONS = 10;
const REQUESTS_PER_CONNECTION = 300;
const WARMUP_PER_CONNECTION = 100;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');

/** What a function's module may read at init: the environment CDK gives it (values are placeholders). */
const INIT_ENV = {
  KEYS_TABLE: 'k',
  LIMITS_TABLE: 'l',
  MAIN_TABLE: 'm',
  AWS_REGION: 'ap-southeast-2',
  REGISTRY_URL: 'https://registry.example.com',
  REGISTRY_CREDENTIAL_ARN: 'arn:aws:secretsmanager:ap-southeast-2:123456789012:secret:registry',
  [ORDERS_ENV.bucket]: 'orders',
  [ORDERS_ENV.queueUrl]: 'https://sqs.ap-southeast-2.amazonaws.com/123456789012/fulfilment',
  [ORDERS_ENV.stateMachineArn]: 'arn:aws:states:ap-southeast-2:123456789012:stateMachine:fulfilment',
  [PLATFORM_ENV.eventBus]: 'company-register-bench',
  [PLATFORM_ENV.mailFrom]: 'orders@example.com',
  [PLATFORM_ENV.apiBaseUrl]: 'https://api.example.com/v1',
  [MONITORING_ENV.queueUrl]: 'https://sqs.ap-southeast-2.amazonaws.com/123456789012/monitoring',
};

/**
 * A route's init target (issue 41): a read (GET) at most 0.7× the baseline beside it, a purchase
 * or an order (an idempotent POST) 0.9×; every other function the baseline's.
 */
const initTargetOf = (route: { method: string; idempotent?: boolean }): number =>
  route.method === 'GET'
    ? TARGETS.readInitRatio
    : route.idempotent
      ? TARGETS.purchaseInitRatio
      : TARGETS.initRatio;

/**
 * Every function CDK deploys (scripts/function-weight.ts) with its targets. Only the PDF compile is
 * allowed past the bundle target (pdf-lib alone is about 420 KB).
 */
const deployedFunctions = (): {
  name: string;
  handler: string;
  group: string;
  bundleTarget: boolean;
  initTarget?: number;
}[] =>
  allDeployedFunctions().map((fn) => ({
    name: fn.name,
    handler: fn.handler,
    group: fn.group,
    bundleTarget: fn.name !== 'CompilePdf',
    ...(fn.route ? { initTarget: initTargetOf(fn.route) } : {}),
  }));

interface InitMeasure {
  kb: number;
  /** Median module init of INIT_RUNS fresh processes, and the fastest. */
  init: number;
  fastest: number;
  /**
   * Median CPU time (user and system) of the same `require`s: on a machine other work shares it
   * moves far less than the wall clock, so its ratio is the one to read there.
   */
  cpu: number;
}

type BundleEntry = (
  | { entryPoints: string[] }
  | { stdin: { contents: string; resolveDir: string; loader: 'ts' } }
) & {
  alias?: Record<string, string>;
};

/** Bundles an entry with the deployed functions' esbuild settings; answers its size in KB. */
async function bundle(entry: BundleEntry, outfile: string): Promise<number> {
  await build({
    ...esbuildOptions,
    sourcemap: false,
    ...entry,
    alias: { ...esbuildOptions.alias, ...entry.alias },
    outfile,
  });
  return statSync(outfile).size / 1024;
}

/** One module init, loaded as Lambda loads a CommonJS handler: `require` in a fresh Node process. */
async function initOnce(outfile: string): Promise<{ wall: number; cpu: number }> {
  const script = `const c=process.cpuUsage(),t=performance.now();require(${JSON.stringify(outfile)});const d=process.cpuUsage(c);console.log(performance.now()-t,(d.user+d.system)/1000)`;
  const { stdout } = await run(process.execPath, ['-e', script], { env: { ...process.env, ...INIT_ENV } });
  const [wall, cpu] = stdout.trim().split(' ').map(Number);
  return { wall: wall ?? Number.NaN, cpu: cpu ?? Number.NaN };
}

/**
 * Times the bundles' module init, INIT_RUNS fresh processes each, taking turns (a, b, a, b…) so
 * that a machine whose load changes slows them alike: the ratio of their medians is what holds.
 */
async function initTimes(outfiles: readonly string[]): Promise<Omit<InitMeasure, 'kb'>[]> {
  const times = outfiles.map((): { wall: number; cpu: number }[] => []);
  for (let i = 0; i < INIT_RUNS; i++) {
    for (const [index, outfile] of outfiles.entries()) times[index]?.push(await initOnce(outfile));
  }
  return times.map((each) => {
    const walls = each.map((time) => time.wall);
    return { init: median(walls), fastest: Math.min(...walls), cpu: median(each.map((time) => time.cpu)) };
  });
}

/**
 * The yardsticks every function's init is compared with: a conventional read-by-id handler
 * (scripts/bench-baseline/read-by-id.ts); what its tracing alone costs (Powertools Tracer, that is
 * the X-Ray SDK); and the same handler with tracing left to Lambda (no tracing library), the start
 * the tracing decision (docs/decisions/0062-tracing-without-the-xray-sdk.md) led to. They keep the
 * `semver` stand-in the service's bundles had while they carried the tracer, so the baseline stays
 * the one measured since.
 */
const SEMVER_GTE = { semver: './scripts/bench-baseline/semver-gte.ts' };
const YARDSTICKS = [
  {
    name: 'Baseline (read by id)',
    entry: { entryPoints: ['scripts/bench-baseline/read-by-id.ts'], alias: SEMVER_GTE },
  },
  {
    name: 'Baseline, Lambda tracing',
    entry: {
      entryPoints: ['scripts/bench-baseline/read-by-id.ts'],
      alias: {
        ...SEMVER_GTE,
        '@aws-lambda-powertools/tracer': './scripts/bench-baseline/lambda-tracing-only.ts',
        '@aws-lambda-powertools/tracer/middleware': './scripts/bench-baseline/lambda-tracing-only.ts',
      },
    },
  },
  {
    name: 'Powertools Tracer alone',
    entry: {
      stdin: {
        contents:
          "import { Tracer } from '@aws-lambda-powertools/tracer'; export const tracer = new Tracer();",
        resolveDir: '.',
        loader: 'ts' as const,
      },
      alias: SEMVER_GTE,
    },
  },
];

async function bundles() {
  const outdir = mkdtempSync(join(tmpdir(), 'crds-bench-'));
  // BENCH_BUNDLES=<regular expression>: only the functions whose name matches.
  const only = process.env.BENCH_BUNDLES ? new RegExp(process.env.BENCH_BUNDLES) : undefined;
  const show = (name: string, { kb, init, fastest }: InitMeasure, sizeMark: string, initMark: string) =>
    `  ${sizeMark} ${name.padEnd(25)} ${kb.toFixed(0).padStart(5)} KB   init ${init.toFixed(1).padStart(5)} ms ${initMark} (fastest ${fastest.toFixed(1)} ms)`;
  try {
    console.log(
      `\nYardsticks (the same esbuild settings; module init is the median of ${INIT_RUNS} fresh processes, taking turns)`,
    );
    const yardsticks = await Promise.all(
      YARDSTICKS.map(async (yardstick, index) => {
        const outfile = join(outdir, `yardstick-${index}.cjs`);
        return { name: yardstick.name, outfile, kb: await bundle(yardstick.entry, outfile) };
      }),
    );
    const baseline = yardsticks[0] as (typeof yardsticks)[number];
    const yardstickTimes = await initTimes(yardsticks.map((each) => each.outfile));
    const baselineInit = yardstickTimes[0]?.init ?? Number.NaN;
    for (const [index, yardstick] of yardsticks.entries()) {
      const times = yardstickTimes[index] as Omit<InitMeasure, 'kb'>;
      const ratio = index === 0 ? '' : `  ${(times.init / baselineInit).toFixed(2)}× the baseline`;
      console.log(`${show(yardstick.name, { kb: yardstick.kb, ...times }, '    ', '    ')}${ratio}`);
    }
    console.log(
      `\nBundles (esbuild, minified, as deployed)          target ≤ ${TARGETS.bundleKb} KB (not the PDF compile), init ≤ ${TARGETS.readInitRatio}× the baseline's for reads, ${TARGETS.purchaseInitRatio}× for purchases and orders, ${TARGETS.initRatio.toFixed(1)}× for the rest, timed in turns with it`,
    );
    let group = '';
    let slowest = { name: '-', ratio: 0 };
    const over: string[] = [];
    for (const fn of deployedFunctions()) {
      if (only && !only.test(fn.name)) continue;
      if (fn.group !== group) {
        group = fn.group;
        if (group !== 'route') console.log(`  (${group} functions)`);
      }
      const outfile = join(outdir, `${fn.name}.cjs`);
      const kb = await bundle({ entryPoints: [`functions/${fn.handler}.ts`] }, outfile);
      const [measured, paired] = (await initTimes([outfile, baseline.outfile])) as [InitMeasure, InitMeasure];
      const ratio = measured.init / paired.init;
      const target = fn.initTarget ?? TARGETS.initRatio;
      if (ratio > slowest.ratio) slowest = { name: fn.name, ratio };
      if (ratio > target) over.push(`${fn.name} ${ratio.toFixed(2)}× (target ${target}×)`);
      const sizeMark = fn.bundleTarget ? mark(kb <= TARGETS.bundleKb) : 'pdf ';
      console.log(
        `${show(fn.name, { ...measured, kb }, sizeMark, mark(ratio <= target))}  ${ratio.toFixed(2)}× the baseline (${paired.init.toFixed(1)} ms beside it; CPU time ${(measured.cpu / paired.cpu).toFixed(2)}×)`,
      );
    }
    console.log(
      `  ${mark(slowest.ratio <= TARGETS.initRatio)} slowest start: ${slowest.name}, ${slowest.ratio.toFixed(2)}× the baseline`,
    );
    console.log(
      `  ${mark(over.length === 0)} over their init target: ${over.length === 0 ? 'none' : over.join(', ')}`,
    );
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
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { stdout } = await run(process.execPath, [
    'scripts/load-client.ts',
    baseUrl,
    path,
    keys.map((key) => key.secret).join(','),
    String(warmup),
    String(requests),
  ]);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuShare = (cpu.user + cpu.system) / 1e6 / seconds;
  const { p50, p99, perSecond } = JSON.parse(stdout) as { p50: number; p99: number; perSecond: number };
  console.log(
    `  ${mark(p50 <= TARGETS.p50Ms)} GET ${path.padEnd(38)} p50 ${p50.toFixed(1).padStart(5)} ms  p99 ${p99.toFixed(1).padStart(5)} ms  ${perSecond.toFixed(0).padStart(5)} req/s  (API process CPU ${(cpuShare * 100).toFixed(0)}%)`,
  );
}

/**
 * What DynamoDB Local itself allows: every request's authentication and limit work (the key
 * lookup and the limit update in parallel, then the lease release) through the same adapters,
 * with 10 in flight and nothing else. 10 divided by that rate is the lowest p50 any handler can
 * reach at 10 connections on this machine.
 */
async function authAndLimitsCeiling({ apiKeys, limiter }: PlatformPorts) {
  const requestsPerConnection = 500;
  const loop = async (connection: number, requests: number) => {
    const keyId = `key_bench${connection}`;
    for (let i = 0; i < requests; i++) {
      const requestId = randomUUID();
      await Promise.all([
        apiKeys.findByHash(`none${connection}`),
        limiter.acquire(keyId, requestId, new Date()),
      ]);
      await limiter.release(keyId, requestId);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, c) => loop(c, 1000)));
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, c) => loop(c, requestsPerConnection)));
  const perSecond = (CONNECTIONS * requestsPerConnection) / ((performance.now() - started) / 1000);
  console.log(
    `       Authentication and limits alone against DynamoDB Local: ${perSecond.toFixed(0)} req/s at ${CONNECTIONS} in flight, so p50 ≥ ${((CONNECTIONS / perSecond) * 1000).toFixed(1)} ms at ${CONNECTIONS} connections`,
  );
}

/**
 * The rate limiter against the boundary burst of issue 13, through the real adapter and DynamoDB
 * Local with explicit clock values, each request as the pipeline makes it (count and lease, decide,
 * release; a refusal's count is taken back): 600 requests over seconds 55–57 of a minute, then at
 * second 20 of the next as many as are admitted; then a client that, every 100 ms for five
 * minutes, sends until one is refused. Prints the most requests admitted in any 60-second interval
 * (the two-bucket limiter it replaced admitted 808 within 26 s; the bound is 660).
 */
async function rateLimitBoundary({ limiter }: PlatformPorts) {
  const { decideRate, LIMITS } = await import('../shared/kernel/rate-limit.ts');
  const keyId = `key_benchburst${randomBytes(6).toString('hex')}`;
  const admitted: number[] = [];
  const attempt = async (nowMs: number) => {
    const requestId = randomUUID();
    const acquired = await limiter.acquire(keyId, requestId, new Date(nowMs));
    if (!acquired.ok) throw new Error('one request at a time cannot run out of leases');
    const { allowed } = decideRate(acquired.counts, nowMs);
    await limiter.release(keyId, requestId, {
      removeSlots: acquired.stale,
      ...(allowed ? {} : { uncountSlot: acquired.slot }),
    });
    if (allowed) admitted.push(nowMs);
    return allowed;
  };
  const flood = async (nowMs: number) => {
    let count = 0;
    while (await attempt(nowMs)) count++;
    return count;
  };
  /** The most admitted in any [t, t + 60 s). */
  const worstMinute = () => {
    const times = [...admitted].sort((a, b) => a - b);
    let worst = 0;
    let end = 0;
    for (let start = 0; start < times.length; start++) {
      while (end < times.length && (times[end] as number) < (times[start] as number) + LIMITS.windowMs) end++;
      worst = Math.max(worst, end - start);
    }
    return worst;
  };

  const minute = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
  const started = performance.now();
  for (let i = 0; i < 600; i++) await attempt(minute + 55_000 + Math.floor((i * 2000) / 600));
  const inBurst = admitted.length;
  const atTwenty = await flood(minute + 80_000);
  const burstWorst = worstMinute();
  for (let t = minute + 80_000; t < minute + 380_000; t += 100) await flood(t);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nRate limit, boundary burst through the limiter and DynamoDB Local (explicit clock):\n` +
      `  ${mark(burstWorst <= LIMITS.hardRequestsPerMinute)} ${inBurst} admitted at 55–57 s, ${atTwenty} at second 20 of the next minute: worst 60-second interval ${burstWorst} (bound ${LIMITS.hardRequestsPerMinute})\n` +
      `  ${mark(worstMinute() <= LIMITS.hardRequestsPerMinute)} then sending until refused every 100 ms for 5 minutes: ${admitted.length} admitted in all, worst 60-second interval ${worstMinute()} (${seconds.toFixed(1)} s of DynamoDB Local)`,
  );
}

interface DynamoCounts {
  /** Every call, whatever its command. */
  total: number;
  /** Per command (`BatchWriteItemCommand`…): calls, and the items they carry (writes and reads). */
  byCommand: Record<string, CommandCount>;
}

interface CommandCount {
  calls: number;
  items: number;
  /** Calls by the number of items they carry. */
  sizes: Record<number, number>;
}

/** Items a call carries: the requests of a batch or a transaction, one for a single-item call. */
function itemsOf(input: Record<string, unknown>): number {
  if (Array.isArray(input.TransactItems)) return input.TransactItems.length;
  const requests = input.RequestItems as Record<string, unknown> | undefined;
  if (requests && typeof requests === 'object') {
    let items = 0;
    for (const entry of Object.values(requests)) {
      if (Array.isArray(entry))
        items += entry.length; // BatchWriteItem
      else if (entry && Array.isArray((entry as { Keys?: unknown[] }).Keys))
        items += (entry as { Keys: unknown[] }).Keys.length; // BatchGetItem
    }
    return items;
  }
  return 1;
}

let dynamoCounts: DynamoCounts | undefined;

/**
 * Counts DynamoDB calls the server process makes (the local stack runs in this process), by
 * operation, with the items each carries: every call beyond the three for authentication and
 * limits (the keys and limits tables). Returns a snapshot function; installed once.
 */
async function countDynamoCalls(): Promise<() => DynamoCounts> {
  if (!dynamoCounts) {
    const counts: DynamoCounts = { total: 0, byCommand: {} };
    dynamoCounts = counts;
    await onDynamoCall(
      (command, input) => {
        counts.total += 1;
        counts.byCommand[command] ??= { calls: 0, items: 0, sizes: {} };
        const entry = counts.byCommand[command];
        const items = itemsOf(input);
        entry.calls += 1;
        entry.items += items;
        entry.sizes[items] = (entry.sizes[items] ?? 0) + 1;
      },
      { skipTables: [localTableName(tableDefinitions.keys), localTableName(tableDefinitions.limits)] },
    );
  }
  const counts = dynamoCounts;
  return () => ({ total: counts.total, byCommand: structuredClone(counts.byCommand) });
}

/** What was counted between two snapshots. */
function countsSince(before: DynamoCounts, after: DynamoCounts): DynamoCounts {
  const byCommand: DynamoCounts['byCommand'] = {};
  for (const [command, { calls, items, sizes }] of Object.entries(after.byCommand)) {
    const earlier = before.byCommand[command] ?? { calls: 0, items: 0, sizes: {} };
    if (calls === earlier.calls) continue;
    const sizesSince: Record<number, number> = {};
    for (const [size, count] of Object.entries(sizes)) {
      const more = count - (earlier.sizes[Number(size)] ?? 0);
      if (more > 0) sizesSince[Number(size)] = more;
    }
    byCommand[command] = { calls: calls - earlier.calls, items: items - earlier.items, sizes: sizesSince };
  }
  return { total: after.total - before.total, byCommand };
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
    const before = dynamoCalls().total;
    await load(baseUrl, [key], path, 50, 200);
    const perRequest = (dynamoCalls().total - before) / 250;
    console.log(
      `       DynamoDB calls per request beyond auth and limits ${perRequest.toFixed(1)} (target ≤ 2) ${mark(perRequest <= 2)}`,
    );
  }
}

// ---- People (issue 4) ---------------------------------------------------------------------

const PEOPLE_TARGETS = { purchaseSeconds: 1.0, dynamoCalls: 130 };
/** Five runs: on a shared machine one slow run moves a median of three a long way. */
const PURCHASE_RUNS = 5;
const REGISTRY_LATENCY_MS = 150;
const ROLES_WARMUP = 50;
const ROLES_REQUESTS = 300;

interface Answer {
  status: number;
  ms: number;
  bytes: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely here (not schema-checked)
  body: any;
}

async function send(
  baseUrl: string,
  key: SeedKey,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key.secret}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const buffer = await response.arrayBuffer();
  const ms = performance.now() - started;
  const text = new TextDecoder().decode(buffer);
  return { status: response.status, ms, bytes: buffer.byteLength, body: text ? JSON.parse(text) : null };
}

function expectStatus(answer: Answer, status: number, what: string) {
  if (answer.status !== status)
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
}

interface MemoryPeaks {
  /** RSS and heap in use when sampling started. */
  baselineRss: number;
  baselineHeap: number;
  /** High-water marks of the samples. */
  peakRss: number;
  peakHeap: number;
  /** The kernel's high-water mark of the process RSS since it started (`maxRSS`), before and after. */
  maxRssBefore: number;
  maxRssAfter: number;
}

/** Samples the process RSS and heap in use every 10 ms until stopped. */
function sampleMemory() {
  const start = process.memoryUsage();
  const peaks: MemoryPeaks = {
    baselineRss: start.rss,
    baselineHeap: start.heapUsed,
    peakRss: start.rss,
    peakHeap: start.heapUsed,
    maxRssBefore: process.resourceUsage().maxRSS * 1024,
    maxRssAfter: 0,
  };
  const sample = () => {
    const now = process.memoryUsage();
    peaks.peakRss = Math.max(peaks.peakRss, now.rss);
    peaks.peakHeap = Math.max(peaks.peakHeap, now.heapUsed);
  };
  const timer = setInterval(sample, 10);
  return (): MemoryPeaks => {
    clearInterval(timer);
    sample();
    peaks.maxRssAfter = process.resourceUsage().maxRSS * 1024;
    return peaks;
  };
}

/** Most calls in flight at once, from the simulator's log (arrival time and duration). */
function maxInFlight(calls: { at: string; durationMs: number | null }[]) {
  const events = calls.flatMap((call) => {
    const start = Date.parse(call.at);
    return [
      [start, 1],
      [start + (call.durationMs ?? 0), -1],
    ] as [number, number][];
  });
  // Ends before starts at the same millisecond.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, change] of events) {
    now += change;
    most = Math.max(most, now);
  }
  const starts = calls.map((call) => Date.parse(call.at));
  const ends = calls.map((call) => Date.parse(call.at) + (call.durationMs ?? 0));
  return { most, spanMs: Math.max(...ends) - Math.min(...starts) };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const shortCommand = (name: string) => name.replace(/Command$/, '');

function printDynamoCounts(counts: DynamoCounts, indent: string) {
  const order = ['BatchWriteItem', 'TransactWriteItems'];
  const commands = Object.keys(counts.byCommand).sort(
    (a, b) =>
      (order.includes(a) ? order.indexOf(a) : order.length) -
        (order.includes(b) ? order.indexOf(b) : order.length) || a.localeCompare(b),
  );
  for (const command of commands) {
    const { calls, items, sizes } = counts.byCommand[command] as CommandCount;
    const batch = /^(Batch|Transact)/.test(command);
    const bySize = Object.entries(sizes)
      .sort((a, b) => Number(b[1]) - Number(a[1]) || Number(a[0]) - Number(b[0]))
      .map(([size, count]) => `${count} × ${size}`)
      .join(', ');
    console.log(
      `${indent}${shortCommand(command).padEnd(20)} ${String(calls).padStart(4)} call${calls === 1 ? ' ' : 's'}${batch ? `  ${String(items).padStart(5)} items: ${bySize}` : ''}`,
    );
  }
  console.log(`${indent}${'total'.padEnd(20)} ${String(counts.total).padStart(4)} calls`);
}

interface PurchaseRun {
  ms: number;
  bytes: number;
  memory: MemoryPeaks;
  dynamo: DynamoCounts;
  registryCalls: number;
  billed: number;
  inFlight: number;
  registrySpanMs: number;
  /** From sending the purchase to the registry's first call (wall clock, as the simulator logs). */
  beforeRegistryMs: number;
  /** From the registry's last answer to the purchase's answer. */
  afterRegistryMs: number;
}

/** A new SMITH / JOHN search, then all 100 people bought in one purchase with a fresh Idempotency-Key. */
async function purchaseHundred(
  baseUrl: string,
  key: SeedKey,
  dynamoCalls: () => DynamoCounts,
  simulator: import('../local/registry-simulator.ts').SimulatorControl,
  query: { familyName: string; givenName: string },
): Promise<PurchaseRun> {
  const search = await send(baseUrl, key, 'POST', '/v1/people/searches', query);
  expectStatus(search, 201, 'the people search');
  const personIds = (search.body.data as { id: string }[]).map((person) => person.id);
  if (personIds.length !== 100) throw new Error(`the search found ${personIds.length} people, not 100`);
  await simulator.resetCalls();
  collectGarbage();
  const before = dynamoCalls();
  const stopSampling = sampleMemory();
  const sentAt = Date.now();
  const bought = await send(
    baseUrl,
    key,
    'POST',
    '/v1/people/extracts',
    { searchId: search.body.id, personIds },
    { 'Idempotency-Key': `bench-${randomUUID()}` },
  );
  const answeredAt = Date.now();
  const memory = stopSampling();
  // Anything the purchase left running after its answer would be counted too.
  await new Promise((done) => setTimeout(done, 100));
  const dynamo = countsSince(before, dynamoCalls());
  expectStatus(bought, 201, 'the purchase');
  if (bought.body.data.length !== 100)
    throw new Error(`the purchase returned ${bought.body.data.length} extracts`);
  const log = await simulator.calls();
  const extracts = log.calls.filter((call) => call.operation === 'person.extract');
  const { most, spanMs } = maxInFlight(extracts);
  const firstCall = Math.min(...extracts.map((call) => Date.parse(call.at)));
  const lastAnswer = Math.max(...extracts.map((call) => Date.parse(call.at) + (call.durationMs ?? 0)));
  return {
    ms: bought.ms,
    bytes: bought.bytes,
    memory,
    dynamo,
    registryCalls: extracts.length,
    billed: log.billed,
    inFlight: most,
    registrySpanMs: spanMs,
    beforeRegistryMs: firstCall - sentAt,
    afterRegistryMs: answeredAt - lastAnswer,
  };
}

/**
 * The registry part alone, measured in the same run as the purchases: the same 100 person
 * extracts asked through our registry adapter straight from this process (no API, no DynamoDB),
 * at most `concurrency` in flight. First call to last answer: the floor of a purchase's registry
 * span on this machine at this moment, whatever its load.
 */
async function registryAlone(
  registry: import('../shared/people/registry-port.ts').PeopleRegistry,
  query: { familyName: string; givenName: string },
  concurrency: number,
): Promise<number> {
  const caller = { accountId: 'acct_benchpeople', requestId: 'bench-registry-alone', clientReference: null };
  const { matches } = await registry.searchPeople(
    { ...query, birthDateFrom: null, birthDateTo: null },
    caller,
  );
  const identifiers = matches.map((match) => match.registryIdentifier);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < identifiers.length; index = next++) {
        await registry.purchasePersonExtract(
          identifiers[index] as string,
          { history: false, includeShareholdings: false },
          caller,
          `pur_${randomBytes(16).toString('hex')}`,
        );
      }
    }),
  );
  return performance.now() - started;
}

async function peoplePurchase(
  baseUrl: string,
  registryUrl: string,
  key: SeedKey,
  registry: import('../shared/people/registry-port.ts').PeopleRegistry,
) {
  const { simulatorControl } = await import('../local/registry-simulator.ts');
  const { SIMULATOR_PEOPLE } = await import('../local/generated-data.ts');
  const { PURCHASE_CONCURRENCY } = await import('../shared/people/purchase.ts');
  const dynamoCalls = await countDynamoCalls();
  const simulator = simulatorControl(registryUrl);
  const query = {
    familyName: SIMULATOR_PEOPLE.hundred.familyName,
    givenName: SIMULATOR_PEOPLE.hundred.givenName,
  };
  console.log(
    `\nPeople: 100-person purchase, live key, registry simulator with ${REGISTRY_LATENCY_MS} ms per person extract   target ≤ ${PEOPLE_TARGETS.purchaseSeconds} s and ≤ ${PEOPLE_TARGETS.dynamoCalls} DynamoDB calls`,
  );
  console.log(
    `  (${query.familyName} / ${query.givenName}, a new search per run; ${PURCHASE_CONCURRENCY} registry calls in flight at most, so ≥ ${Math.ceil(100 / PURCHASE_CONCURRENCY)} × ${REGISTRY_LATENCY_MS} ms in the registry)`,
  );
  const fault = await simulator.addFault({ operations: ['person.extract'], latencyMs: REGISTRY_LATENCY_MS });
  try {
    const runs: PurchaseRun[] = [];
    let warmup: PurchaseRun | undefined;
    for (let i = 0; i <= PURCHASE_RUNS; i++) {
      const run = await purchaseHundred(baseUrl, key, dynamoCalls, simulator, query);
      const label = i === 0 ? 'warm-up' : `run ${i}`;
      if (i > 0) runs.push(run);
      else warmup = run;
      const seconds = run.ms / 1000;
      console.log(
        `  ${i === 0 ? '    ' : mark(seconds <= PEOPLE_TARGETS.purchaseSeconds)} ${label.padEnd(8)} ${seconds.toFixed(2).padStart(5)} s   registry ${run.registryCalls} calls (${run.billed} billed), ≤ ${run.inFlight} in flight, ${(run.beforeRegistryMs / 1000).toFixed(2)} s to the first call, ${(run.registrySpanMs / 1000).toFixed(2)} s first call to last answer, ${(run.afterRegistryMs / 1000).toFixed(2)} s after it   ${mark(run.dynamo.total <= PEOPLE_TARGETS.dynamoCalls)} DynamoDB ${run.dynamo.total} calls   RSS +${mb(run.memory.peakRss - run.memory.baselineRss)}`,
      );
    }
    const seconds = median(runs.map((run) => run.ms)) / 1000;
    console.log(
      `  ${mark(seconds <= PEOPLE_TARGETS.purchaseSeconds)} median   ${seconds.toFixed(2).padStart(5)} s of ${PURCHASE_RUNS} runs`,
    );
    // Where the time goes: the registry's share has a floor (its latency × the waves the
    // concurrency allows, and what the machine adds to those calls, measured alone below); the
    // rest is our own work, before the first call, between the calls and after the last answer.
    const registryFloorMs = Math.ceil(100 / PURCHASE_CONCURRENCY) * REGISTRY_LATENCY_MS;
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) alone.push(await registryAlone(registry, query, PURCHASE_CONCURRENCY));
    const aloneMs = median(alone);
    const before = median(runs.map((run) => run.beforeRegistryMs));
    const span = median(runs.map((run) => run.registrySpanMs));
    const after = median(runs.map((run) => run.afterRegistryMs));
    const floorMs = before + aloneMs + after;
    console.log(
      `       breakdown (medians): ${before} ms before the first registry call (authentication, idempotency, search, the first wave's records) + ${span} ms registry span (${registryFloorMs} ms at best; the same 100 calls alone from this process took ${aloneMs.toFixed(0)} ms) + ${after} ms after the last answer (last drafts, fees, settling, idempotency, response); our own work, the median less ${registryFloorMs} ms: ${(seconds * 1000 - registryFloorMs).toFixed(0)} ms`,
    );
    console.log(
      `       floor on this machine now: the registry calls alone (${aloneMs.toFixed(0)} ms) + the ${before + after} ms before and after them = ${floorMs.toFixed(0)} ms; the median is ${((seconds * 1000) / floorMs).toFixed(2)}× that, ${(seconds * 1000 - floorMs).toFixed(0)} ms more; load average ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
    const first = runs[0] as PurchaseRun;
    console.log(
      `       response ${(first.bytes / 1024).toFixed(0)} KB of JSON (100 extracts; Lambda answers at most 6 MB)`,
    );
    const same = runs.every(
      (run) => JSON.stringify(run.dynamo.byCommand) === JSON.stringify(first.dynamo.byCommand),
    );
    console.log(
      `       DynamoDB calls by one purchase, by command (run 1${same ? '; the same in every run' : ''}; idempotency included; authentication and limits, three more, go through json-client.ts and are not counted):`,
    );
    printDynamoCounts(first.dynamo, '         ');
    if (!same)
      for (const [index, run] of runs.entries()) {
        if (index === 0) continue;
        console.log(`       run ${index + 1}:`);
        printDynamoCounts(run.dynamo, '         ');
      }
    console.log(
      '       memory during the purchase, sampled every 10 ms from a baseline taken after a full GC (this process: bench client, local server and registry simulator; DynamoDB Local is a separate JVM):',
    );
    for (const [label, { memory }] of [
      ['warm-up', warmup as PurchaseRun],
      ...runs.map((run, index) => [`run ${index + 1}`, run] as const),
    ] as const)
      console.log(
        `         ${label.padEnd(7)}  RSS ${mb(memory.baselineRss).padStart(6)} → peak ${mb(memory.peakRss).padStart(6)} (+${mb(memory.peakRss - memory.baselineRss)})   heap in use ${mb(memory.baselineHeap).padStart(6)} → peak ${mb(memory.peakHeap).padStart(6)} (+${mb(memory.peakHeap - memory.baselineHeap)})   process maxRSS ${mb(memory.maxRssBefore)} → ${mb(memory.maxRssAfter)}`,
      );
  } finally {
    await simulator.removeFault(fault.id);
  }
}

/** Roles pages of the 999-role sandbox person (test key), from one historical extract. */
async function peopleRoles(baseUrl: string, key: SeedKey) {
  const { SANDBOX_PEOPLE } = await import('../shared/adapters/sandbox/data/people.ts');
  const dynamoCalls = await countDynamoCalls();
  const person = SANDBOX_PEOPLE.roles999;
  const search = await send(baseUrl, key, 'POST', '/v1/people/searches', {
    familyName: person.familyName,
    givenName: person.givenName,
  });
  expectStatus(search, 201, 'the people search');
  const match = (search.body.data as { id: string; name: { givenNames: string[] } }[]).find(
    (found) => found.name.givenNames.join(' ') === person.givenName,
  );
  if (!match) throw new Error(`the search did not find ${person.givenName} ${person.familyName}`);
  const bought = await send(
    baseUrl,
    key,
    'POST',
    '/v1/people/extracts',
    // With shareholdings: the extract holds all 999 roles (Member roles come only with them).
    { searchId: search.body.id, personIds: [match.id], history: true, includeShareholdings: true },
    { 'Idempotency-Key': `bench-${randomUUID()}` },
  );
  expectStatus(bought, 201, 'the purchase');
  const path = `/v1/people/${match.id}/roles?status=all&limit=100`;
  console.log(
    `\nPeople: roles pages, one connection (${person.givenName} ${person.familyName}: ${person.roleCount} roles, one historical extract with shareholdings)`,
  );
  // The first read after the purchase: the extract's section is not cached yet.
  const before = dynamoCalls();
  const cold = await send(baseUrl, key, 'GET', path);
  expectStatus(cold, 200, 'the first roles page');
  const coldCalls = countsSince(before, dynamoCalls()).total;
  const warmBefore = dynamoCalls().total;
  await load(baseUrl, [key], path, ROLES_WARMUP, ROLES_REQUESTS);
  const warmCalls = (dynamoCalls().total - warmBefore) / (ROLES_WARMUP + ROLES_REQUESTS);
  console.log(
    `       page of ${cold.body.data.length} roles, ${(cold.bytes / 1024).toFixed(0)} KB, totalCount ${cold.body.totalCount ?? '-'}, hasMore ${cold.body.hasMore}; first read ${cold.ms.toFixed(1)} ms`,
  );
  for (const [label, perRequest] of [
    ['cold (first read)', coldCalls],
    ['warm', warmCalls],
  ] as const)
    console.log(
      `       DynamoDB calls per page beyond auth and limits, ${label.padEnd(17)} ${perRequest.toFixed(1)} (held-extract read target ≤ 2) ${mark(perRequest <= 2)}`,
    );
}

async function latency() {
  // One key per connection: each stays far below its 600 requests per minute.
  const keys: SeedKey[] = Array.from({ length: 2 * CONNECTIONS + 3 }, (_, i) => ({
    accountId: `acct_bench${i}`,
    environment: 'test',
    secret: `sk_test_bench${randomBytes(8).toString('hex')}`,
  }));
  // The people section's keys: a live key (registry simulator) and a test key (sandbox registry).
  const peopleLive: SeedKey = {
    accountId: 'acct_benchpeople',
    environment: 'live',
    secret: `sk_live_bench${randomBytes(8).toString('hex')}`,
  };
  const peopleTest: SeedKey = {
    accountId: 'acct_benchpeople',
    environment: 'test',
    secret: `sk_test_bench${randomBytes(8).toString('hex')}`,
  };
  // The webhooks section's keys: one account for the throughput run, one for orders.
  const webhookKeys = {
    throughput: {
      accountId: 'acct_benchhooks',
      environment: 'test',
      secret: `sk_test_bench${randomBytes(8).toString('hex')}`,
    },
    orders: {
      accountId: 'acct_benchhookorders',
      environment: 'test',
      secret: `sk_test_bench${randomBytes(8).toString('hex')}`,
    },
  } satisfies Record<string, SeedKey>;
  const tls = testCertificate();
  // The weekly summaries' keys: one account, live (the sandbox serves no weekly summaries).
  const weeklyKeys: SeedKey[] = Array.from({ length: WEEKLY_BENCH_KEYS }, () => ({
    accountId: 'acct_benchweekly',
    environment: 'live',
    secret: `sk_live_bench${randomBytes(8).toString('hex')}`,
  }));
  // The record lookups' keys: live, so each lookup goes through the registry simulator.
  const recordKeys: SeedKey[] = Array.from({ length: RECORDS_BENCH_KEYS }, (_, i) => ({
    accountId: `acct_benchrecords${i}`,
    environment: 'live',
    secret: `sk_live_bench${randomBytes(8).toString('hex')}`,
  }));
  // The registers' keys: test keys of one account (a browse cursor is the account's), the sandbox serving them.
  const registerKeys: SeedKey[] = Array.from({ length: REGISTERS_BENCH_KEYS }, () => ({
    accountId: 'acct_benchregisters',
    environment: 'test',
    secret: `sk_test_bench${randomBytes(8).toString('hex')}`,
  }));
  // Responses are not schema-checked here, as in AWS (the local stack and tests check them).
  const stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    keys: [
      ...keys,
      peopleLive,
      peopleTest,
      webhookKeys.throughput,
      webhookKeys.orders,
      ...weeklyKeys,
      ...recordKeys,
      ...registerKeys,
    ],
    logLevel: 'ERROR',
    validateResponses: false,
    // The bench's receivers are on loopback, with their own certificate.
    // No retry interval: its query every second would count among the measured reads' DynamoDB calls.
    capabilities: { webhooks: { allowLoopback: true, ca: tls.cert, retryIntervalMs: 0 } },
  });
  try {
    if (process.env.BENCH_ONLY_WEBHOOKS) {
      await benchWebhooks(stack, webhookKeys, tls);
      return;
    }
    if (process.env.BENCH_ONLY_DOCS) {
      await benchDocsPage(stack.baseUrl);
      return;
    }
    if (process.env.BENCH_ONLY_CONSOLE) {
      await benchConsole(stack.baseUrl, peopleTest.secret);
      return;
    }
    if (process.env.BENCH_ONLY_ORDERS) {
      await benchOrders(stack.baseUrl, peopleTest);
      return;
    }
    if (process.env.BENCH_ONLY_LIMITS) {
      await rateLimitBoundary(stack.ports);
      return;
    }
    if (process.env.BENCH_ONLY_WEEKLY) {
      await benchWeeklySummaries(stack.baseUrl, weeklyKeys);
      return;
    }
    if (process.env.BENCH_ONLY_RECORDS) {
      await benchRecords(stack.baseUrl, stack.registryUrl, recordKeys);
      return;
    }
    if (process.env.BENCH_ONLY_REGISTERS) {
      await benchRegisters(stack.baseUrl, registerKeys);
      return;
    }
    if (process.env.BENCH_ONLY_MONITORING) {
      await benchMonitoring(stack);
      return;
    }
    if (process.env.BENCH_ONLY_PEOPLE) {
      await peoplePurchase(stack.baseUrl, stack.registryUrl, peopleLive, stack.ports.registryFor('live'));
      await peopleRoles(stack.baseUrl, peopleTest);
      return;
    }
    console.log(
      `\nLocal server, DynamoDB Local, ${CONNECTIONS} connections × ${REQUESTS_PER_CONNECTION} requests (after ${WARMUP_PER_CONNECTION} warm-up each)   target p50 ≤ ${TARGETS.p50Ms} ms`,
    );
    // First, as it also warms DynamoDB Local's JIT for what follows.
    await authAndLimitsCeiling(stack.ports);
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
    // After every earlier measurement, so they are taken as before.
    await peoplePurchase(stack.baseUrl, stack.registryUrl, peopleLive, stack.ports.registryFor('live'));
    await peopleRoles(stack.baseUrl, peopleTest);
    await benchWeeklySummaries(stack.baseUrl, weeklyKeys);
    await benchRecords(stack.baseUrl, stack.registryUrl, recordKeys);
    await benchRegisters(stack.baseUrl, registerKeys);
    await benchOrders(stack.baseUrl, peopleTest);
    await benchWebhooks(stack, webhookKeys, tls);
    await rateLimitBoundary(stack.ports);
    await benchDocsPage(stack.baseUrl);
    await benchConsole(stack.baseUrl, peopleTest.secret);
    // Last: it fills the main table with BENCH_MONITORS monitors.
    await benchMonitoring(stack);
  } finally {
    await stack.stop();
  }
}

if (
  !process.env.BENCH_SKIP_BUNDLES &&
  !process.env.BENCH_ONLY_PEOPLE &&
  !process.env.BENCH_ONLY_WEEKLY &&
  !process.env.BENCH_ONLY_RECORDS &&
  !process.env.BENCH_ONLY_REGISTERS &&
  !process.env.BENCH_ONLY_ORDERS &&
  !process.env.BENCH_ONLY_LIMITS &&
  !process.env.BENCH_ONLY_WEBHOOKS &&
  !process.env.BENCH_ONLY_DOCS &&
  !process.env.BENCH_ONLY_CONSOLE &&
  !process.env.BENCH_ONLY_MONITORING
) {
  await bundles();
}
if (process.env.BENCH_ONLY_BUNDLES) process.exit(0);
await latency();
