/**
 * The weekly summaries part of `npm run bench` (BENCH_ONLY_WEEKLY=1 runs it alone, in a process
 * that has served nothing else): the 20,000-item purchase (time, DynamoDB calls, memory) and page
 * reads of that summary, p50/p99 at the first and the last page, with and without a postcode
 * filter, measured in the same run so the last/first ratio compares like with like.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { WEEKLY_CASES } from '../local/generated-weekly-summaries.ts';
import type { SeedKey } from '../local/keys.ts';
import { localTableName } from '../local/stack.ts';
import { tableDefinitions } from '../shared/kernel/infra/tables.ts';
import { mondayWeeksAgo } from '../shared/weekly-summaries/weeks.ts';
import { collectGarbage } from './bench-pdf.ts';
import { onDynamoCall } from './dynamo-calls.ts';

const run = promisify(execFile);
export const WEEKLY_TARGETS = { purchaseSeconds: 10, purchaseMb: 256, pageP50Ms: 50, lastToFirst: 1.5 };
const READ_WARMUP = 50;
const READ_REQUESTS = 300;
/** Keys a run needs: the purchase's, one per page measurement (each stays under 600 a minute) and one to walk the pages. */
export const WEEKLY_BENCH_KEYS = 6;

const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

let counts: Record<string, number> | undefined;
/** DynamoDB calls of this process by command (the local stack runs in it). */
async function dynamoCounter(): Promise<() => Record<string, number>> {
  if (!counts) {
    const counted: Record<string, number> = {};
    counts = counted;
    await onDynamoCall(
      (command) => {
        counted[command] = (counted[command] ?? 0) + 1;
      },
      { skipTables: [localTableName(tableDefinitions.keys), localTableName(tableDefinitions.limits)] },
    );
  }
  const current = counts;
  return () => ({ ...current });
}

const since = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([command, calls]) => [command, calls - (before[command] ?? 0)] as const)
      .filter(([, calls]) => calls > 0),
  );

async function getJson(baseUrl: string, key: SeedKey, path: string, init: RequestInit = {}) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${key.secret}`, 'Content-Type': 'application/json', ...init.headers },
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
  // biome-ignore lint/suspicious/noExplicitAny: read loosely, as the rest of the benchmark does
  return { ms, body: JSON.parse(text) as any };
}

async function readLatency(baseUrl: string, key: SeedKey, path: string) {
  const { stdout } = await run(process.execPath, [
    'scripts/load-client.ts',
    baseUrl,
    path,
    key.secret,
    String(READ_WARMUP),
    String(READ_REQUESTS),
  ]);
  return JSON.parse(stdout) as { p50: number; p99: number; perSecond: number };
}

/** The cursor of the list's last page (limit 100), found by walking it. */
async function lastPageCursor(baseUrl: string, key: SeedKey, id: string, postcode?: string) {
  const filter = postcode ? `postcode=${postcode}&` : '';
  let cursor: string | null = null;
  let previous: string | null = null;
  let pages = 0;
  do {
    const { body } = await getJson(
      baseUrl,
      key,
      `/v1/weekly-summaries/${id}?${filter}limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    previous = cursor;
    cursor = body.items.nextCursor;
    pages += 1;
  } while (cursor);
  return { cursor: previous as string, pages };
}

export async function benchWeeklySummaries(baseUrl: string, keys: SeedKey[]) {
  const [buyer, ...readers] = keys as [SeedKey, ...SeedKey[]];
  const walker = readers.pop() as SeedKey;
  const dynamoCalls = await dynamoCounter();
  const weekStarting = mondayWeeksAgo(new Date(), WEEKLY_CASES.largeWeeksAgo);
  console.log(
    `\nWeekly summaries: the ${WEEKLY_CASES.largeCount.toLocaleString('en')}-item ${WEEKLY_CASES.largeType} week (${weekStarting}), live key, registry simulator   targets: purchase ≤ ${WEEKLY_TARGETS.purchaseSeconds} s and ≤ ${WEEKLY_TARGETS.purchaseMb} MB; page p50 ≤ ${WEEKLY_TARGETS.pageP50Ms} ms; last/first ≤ ${WEEKLY_TARGETS.lastToFirst}`,
  );
  collectGarbage();
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 10);
  const before = dynamoCalls();
  const bought = await getJson(baseUrl, buyer, '/v1/weekly-summaries', {
    method: 'POST',
    body: JSON.stringify({ type: WEEKLY_CASES.largeType, weekStarting, refresh: true }),
    headers: { 'Idempotency-Key': `bench-${randomUUID()}` },
  });
  clearInterval(timer);
  const calls = since(before, dynamoCalls());
  const id = bought.body.id as string;
  const seconds = bought.ms / 1000;
  console.log(
    `  ${mark(seconds <= WEEKLY_TARGETS.purchaseSeconds)} purchase       ${seconds.toFixed(2)} s   totalCount ${bought.body.items.totalCount}, ${bought.body.postcodeTotals.length} postcodes`,
  );
  console.log(
    `       DynamoDB calls: ${Object.entries(calls)
      .map(([command, n]) => `${command} ${n}`)
      .join(
        ', ',
      )} (total ${Object.values(calls).reduce((a, b) => a + b, 0)}; authentication and limits not counted)`,
  );
  const rssDelta = peakRss - start.rss;
  console.log(
    `  ${mark(rssDelta <= WEEKLY_TARGETS.purchaseMb * 1024 * 1024)} memory         RSS ${mb(start.rss)} → peak ${mb(peakRss)} (+${mb(rssDelta)}), heap in use ${mb(start.heapUsed)} → peak ${mb(peakHeap)} (+${mb(peakHeap - start.heapUsed)}) (this process also runs the simulator, which generates the week)`,
  );

  const busiest = [...(bought.body.postcodeTotals as { postcode: string; count: number }[])].sort(
    (a, b) => b.count - a.count,
  )[0] as { postcode: string; count: number };
  const whole = await lastPageCursor(baseUrl, walker, id);
  const filtered = await lastPageCursor(baseUrl, walker, id, busiest.postcode);
  const base = `/v1/weekly-summaries/${id}?limit=100`;
  const cases = [
    ['first page', base, 'whole'],
    [`last page (${whole.pages})`, `${base}&cursor=${whole.cursor}`, 'whole'],
    [`first page, postcode ${busiest.postcode}`, `${base}&postcode=${busiest.postcode}`, 'filtered'],
    [
      `last page (${filtered.pages}), postcode ${busiest.postcode}`,
      `${base}&postcode=${busiest.postcode}&cursor=${filtered.cursor}`,
      'filtered',
    ],
  ] as const;
  console.log(
    `  page reads, limit 100, one connection, ${READ_REQUESTS} requests after ${READ_WARMUP} warm-up (postcode ${busiest.postcode}: ${busiest.count} items)`,
  );
  const results: Record<string, { p50: number; p99: number }> = {};
  for (const [index, [label, path, group]] of cases.entries()) {
    const callsBefore = dynamoCalls();
    await getJson(baseUrl, walker, path);
    const perRead = since(callsBefore, dynamoCalls());
    const latency = await readLatency(baseUrl, readers[index] as SeedKey, path);
    results[`${group}-${index % 2 === 0 ? 'first' : 'last'}`] = latency;
    console.log(
      `  ${mark(latency.p50 <= WEEKLY_TARGETS.pageP50Ms)} ${label.padEnd(32)} p50 ${latency.p50.toFixed(1).padStart(5)} ms  p99 ${latency.p99.toFixed(1).padStart(5)} ms   DynamoDB ${Object.entries(
        perRead,
      )
        .map(([command, n]) => `${command} ${n}`)
        .join(', ')}`,
    );
  }
  for (const group of ['whole', 'filtered']) {
    const ratio = (results[`${group}-last`]?.p50 ?? NaN) / (results[`${group}-first`]?.p50 ?? NaN);
    console.log(
      `  ${mark(ratio <= WEEKLY_TARGETS.lastToFirst)} last/first p50, ${group.padEnd(8)} ${ratio.toFixed(2)}`,
    );
  }
}
