/**
 * The orders part of `npm run bench` (BENCH_ONLY_ORDERS=1 runs it alone): the latency of order
 * acceptance (a charges extract order, 202), the time from acceptance to `ready` for the 30-page
 * sandbox order with the workflow's waits shortened as on the local stack, and the PDF compile of
 * a 500-page order (time and memory; scripts/bench-pdf.ts).
 */
import { randomUUID } from 'node:crypto';
import type { SeedKey } from '../local/keys.ts';
import { SANDBOX } from '../shared/adapters/sandbox/data/companies.ts';
import { renderDocumentImages } from '../shared/adapters/sandbox/page-images.ts';
import { measurePdfCompile } from './bench-pdf.ts';

const ACCEPTANCES = 60;
const WARMUP = 10;
const READY_RUNS = 5;
/** Our own target: the spec sets none. Acceptance has none: locally it shares the process with fulfilment. */
const TARGETS = { readyMs: 5_000, sandboxImagesMs: 500 };

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const at = (values: number[], p: number) =>
  values[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;

async function placeOrder(baseUrl: string, key: SeedKey) {
  const started = performance.now();
  const response = await fetch(
    `${baseUrl}/v1/companies/${SANDBOX.benchmarkChargesExtract}/charges/extract-orders`,
    {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key.secret}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': randomUUID(),
      },
      body: JSON.stringify({ delivery: { method: 'web' } }),
    },
  );
  const body = (await response.json()) as { id: string; status: string };
  const ms = performance.now() - started;
  if (response.status !== 202) throw new Error(`order answered ${response.status}: ${JSON.stringify(body)}`);
  return { id: body.id, ms, acceptedAt: performance.now() };
}

async function waitUntilReady(baseUrl: string, key: SeedKey, id: string) {
  const execution = await fetch(`${baseUrl}/__local/executions/${id}?wait=30000`);
  if (execution.status !== 200) throw new Error(`execution ${id} did not end: ${execution.status}`);
  const order = (await (
    await fetch(`${baseUrl}/v1/orders/${id}`, { headers: { Authorization: `Bearer ${key.secret}` } })
  ).json()) as { status: string; pageCount: number };
  if (order.status !== 'ready') throw new Error(`order ${id} ended ${order.status}`);
  return order;
}

export async function benchOrders(baseUrl: string, key: SeedKey) {
  console.log(`\nOrders (test key, sandbox registry, local workflow with shortened waits)`);
  const placed: string[] = [];
  for (let i = 0; i < WARMUP; i++) placed.push((await placeOrder(baseUrl, key)).id);
  const latencies: number[] = [];
  for (let i = 0; i < ACCEPTANCES; i++) {
    const order = await placeOrder(baseUrl, key);
    latencies.push(order.ms);
    placed.push(order.id);
  }
  const accept = sorted(latencies);
  const p50 = at(accept, 0.5);
  console.log(
    `  acceptance (202, order + fee in one transaction, queue)  p50 ${p50.toFixed(1)} ms  p95 ${at(accept, 0.95).toFixed(1)} ms  (${ACCEPTANCES} orders; the local workflow fulfils them in the same process meanwhile)`,
  );
  // Let the orders placed above finish before timing single orders end to end.
  for (const id of placed) await fetch(`${baseUrl}/__local/executions/${id}?wait=60000`);

  const readyTimes: number[] = [];
  let pages = 0;
  for (let i = 0; i < READY_RUNS; i++) {
    const order = await placeOrder(baseUrl, key);
    const ready = await waitUntilReady(baseUrl, key, order.id);
    readyTimes.push(performance.now() - order.acceptedAt);
    pages = ready.pageCount;
  }
  const ready = sorted(readyTimes);
  const median = at(ready, 0.5);
  console.log(
    `  acceptance → ready, ${pages}-page charges extract       median ${median.toFixed(0)} ms  max ${(ready.at(-1) ?? NaN).toFixed(0)} ms  (${READY_RUNS} orders; waits 100 ms instead of 15 s)   target ≤ ${TARGETS.readyMs} ms  ${median <= TARGETS.readyMs ? 'ok' : 'OVER'}`,
  );

  // The simulator's page images for a 500-page request (what the sandbox and simulator serve).
  const images = { documentNumber: '9E0160002', formCode: '309', from: 1, to: 500, totalPages: 570 };
  await renderDocumentImages({ ...images, to: 5 });
  const imagesStarted = performance.now();
  await renderDocumentImages(images);
  const imagesMs = performance.now() - imagesStarted;
  console.log(
    `  sandbox page images, 500 pages                         ${imagesMs.toFixed(0)} ms   target ≤ ${TARGETS.sandboxImagesMs} ms  ${imagesMs <= TARGETS.sandboxImagesMs ? 'ok' : 'OVER'}`,
  );

  const pdf = await measurePdfCompile(500);
  console.log(
    `  PDF compile, ${pdf.pages} scanned pages                      ${pdf.ms.toFixed(0)} ms, ${(pdf.bytes / 1e6).toFixed(1)} MB, heap +${pdf.heapDeltaMb.toFixed(1)} MB, RSS +${pdf.rssDeltaMb.toFixed(1)} MB`,
  );
}
