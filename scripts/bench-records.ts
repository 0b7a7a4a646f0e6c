/**
 * The record lookups part of `npm run bench` (BENCH_ONLY_RECORDS=1 runs it alone): p50/p99 of one
 * document (`GET /v1/documents/{number}`) beside a batch of ten (`GET /v1/documents?numbers[]=…`),
 * measured in the same run, with live keys so each goes through the registry simulator over HTTP
 * (test keys are answered in process); then the registry calls one batch makes, from the
 * simulator's call log.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { SeedKey } from '../local/keys.ts';
import { simulatorControl } from '../local/registry-simulator.ts';

const run = promisify(execFile);
export const RECORDS_TARGETS = { p50Ms: 10, batchToOne: 2 };
const CONNECTIONS = 5;
const WARMUP = 50;
const REQUESTS = 300;
/** One key per connection and measurement (each stays under 600 requests a minute), and one for the call count. */
export const RECORDS_BENCH_KEYS = 2 * CONNECTIONS + 1;

const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');

/** BLUEGUM ORCHARDS' first ten documents (docs/sandbox.md). */
const TEN = Array.from({ length: 10 }, (_, i) => `9E00100${String(i + 1).padStart(2, '0')}`);
const ONE = '/v1/documents/9E0010007';
const BATCH = `/v1/documents?${TEN.map((n) => `numbers[]=${n}`).join('&')}`;

async function load(baseUrl: string, keys: readonly SeedKey[], path: string) {
  const { stdout } = await run(process.execPath, [
    'scripts/load-client.ts',
    baseUrl,
    path,
    keys.map((key) => key.secret).join(','),
    String(WARMUP),
    String(REQUESTS),
  ]);
  return JSON.parse(stdout) as { p50: number; p99: number; perSecond: number };
}

export async function benchRecords(baseUrl: string, registryUrl: string, keys: readonly SeedKey[]) {
  console.log(
    `\nDocument details, live keys through the registry simulator, ${CONNECTIONS} connections × ${REQUESTS} requests (after ${WARMUP} warm-up each)   target p50 ≤ ${RECORDS_TARGETS.p50Ms} ms, batch/one ≤ ${RECORDS_TARGETS.batchToOne}`,
  );
  const one = await load(baseUrl, keys.slice(0, CONNECTIONS), ONE);
  const batch = await load(baseUrl, keys.slice(CONNECTIONS, 2 * CONNECTIONS), BATCH);
  for (const [label, result] of [
    ['one document', one],
    ['ten documents', batch],
  ] as const) {
    console.log(
      `  ${mark(result.p50 <= RECORDS_TARGETS.p50Ms)} ${label.padEnd(14)} p50 ${result.p50.toFixed(1).padStart(5)} ms  p99 ${result.p99.toFixed(1).padStart(5)} ms  ${result.perSecond.toFixed(0).padStart(5)} req/s`,
    );
  }
  const ratio = batch.p50 / one.p50;
  console.log(`  ${mark(ratio <= RECORDS_TARGETS.batchToOne)} ten/one p50 ratio ${ratio.toFixed(2)}`);

  const simulator = simulatorControl(registryUrl);
  const key = keys[2 * CONNECTIONS] as SeedKey;
  const response = await fetch(new URL(BATCH, baseUrl), {
    headers: { Authorization: `Bearer ${key.secret}` },
  });
  const requestId = response.headers.get('x-request-id');
  const { calls } = await simulator.calls();
  const made = calls.filter((c) => c.requestId === requestId).map((c) => c.operation);
  console.log(
    `  ${mark(made.length === 1)} registry calls of one batch of ten: ${made.length} (${made.join(', ') || 'none'}), answer ${response.status}`,
  );
}
