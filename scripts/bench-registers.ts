/**
 * The registers part of `npm run bench` (BENCH_ONLY_REGISTERS=1 runs it alone): p50/p99 of a browse
 * page (100 of the 150 SMITHs on RQ, the first page and the page a cursor continues) and of an entry
 * read, beside the company name search in the same run, so they compare like with like. Test keys
 * (the sandbox registry, in process), one connection, one key per measurement.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { SeedKey } from '../local/keys.ts';

const run = promisify(execFile);
export const REGISTERS_TARGETS = { p50Ms: 10 };
const WARMUP = 50;
const REQUESTS = 300;
/** One key per measurement (each stays under 600 requests a minute), and one to find the cursor. */
export const REGISTERS_BENCH_KEYS = 5;

const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');

async function readLatency(baseUrl: string, key: SeedKey, path: string) {
  const { stdout } = await run(process.execPath, [
    'scripts/load-client.ts',
    baseUrl,
    path,
    key.secret,
    String(WARMUP),
    String(REQUESTS),
  ]);
  return JSON.parse(stdout) as { p50: number; p99: number; perSecond: number };
}

export async function benchRegisters(baseUrl: string, keys: SeedKey[]) {
  const [walker, ...readers] = keys as [SeedKey, ...SeedKey[]];
  const browse = '/v1/registers/RQ/entries?browse=SM&limit=100';
  const first = await fetch(`${baseUrl}${browse}`, { headers: { Authorization: `Bearer ${walker.secret}` } });
  if (!first.ok) throw new Error(`${browse}: ${first.status} ${await first.text()}`);
  const { nextCursor } = (await first.json()) as { nextCursor: string };
  const cases = [
    ['company name search', '/v1/companies/search?q=southern%20cross'],
    ['register browse, first page (100)', browse],
    ['register browse, next page (50)', `${browse}&cursor=${encodeURIComponent(nextCursor)}`],
    ['register entry', '/v1/registers/RQ/entries/401234'],
  ] as const;
  console.log(
    `\nRegisters beside the company search: test key (sandbox registry), one connection, ${REQUESTS} requests after ${WARMUP} warm-up   target p50 ≤ ${REGISTERS_TARGETS.p50Ms} ms`,
  );
  for (const [index, [label, path]] of cases.entries()) {
    const latency = await readLatency(baseUrl, readers[index] as SeedKey, path);
    console.log(
      `  ${mark(latency.p50 <= REGISTERS_TARGETS.p50Ms)} ${label.padEnd(36)} p50 ${latency.p50.toFixed(1).padStart(5)} ms  p99 ${latency.p99.toFixed(1).padStart(5)} ms  ${latency.perSecond.toFixed(0).padStart(5)} req/s`,
    );
  }
}
