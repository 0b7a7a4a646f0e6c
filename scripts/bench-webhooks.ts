/**
 * The webhooks part of `npm run bench` (BENCH_ONLY_WEBHOOKS=1 runs it alone): deliveries per
 * second from the dispatcher to loopback HTTPS receivers (1,000 events × 3 endpoints, the events
 * recorded directly and their fan-out messages put on the dispatcher queue at once), the time from
 * an order's event reaching the bus (right after it is recorded with `ready`) to its first
 * delivery, and the dispatcher's memory (it runs in this process on the local stack).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SeedKey } from '../local/keys.ts';
import type { LocalStack } from '../local/stack.ts';
import type { EventRecord } from '../shared/webhooks/event-port.ts';

const EVENTS = 1_000;
const ENDPOINTS = 3;
const ORDERS = 20;
const TARGETS = { deliveriesPerSecond: 200, firstDeliveryP50Ms: 1_000 };

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const at = (values: number[], p: number) =>
  values[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

interface Receiver {
  url: string;
  count: number;
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

async function receiver(tls: { key: string; cert: string }): Promise<Receiver> {
  const state = { count: 0, arrivals: new Map<string, number>() };
  const server: Server = createServer(
    { key: tls.key, cert: tls.cert, keepAliveTimeout: 30_000 },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        state.count += 1;
        const id = String(req.headers['svc-event-id']);
        if (!state.arrivals.has(id)) state.arrivals.set(id, performance.now());
        res.writeHead(204);
        res.end();
      });
    },
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/hook`,
    get count() {
      return state.count;
    },
    arrivals: state.arrivals,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

async function createEndpoint(baseUrl: string, key: SeedKey, url: string) {
  const response = await fetch(`${baseUrl}/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key.secret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url, enabledEvents: ['*'] }),
  });
  if (response.status !== 201) throw new Error(`endpoint: ${response.status} ${await response.text()}`);
}

async function until(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 5));
  }
}

export async function benchWebhooks(
  stack: LocalStack,
  keys: { throughput: SeedKey; orders: SeedKey },
  tls: { key: string; cert: string },
) {
  console.log(`\nWebhooks (dispatcher and loopback HTTPS receivers in this process, DynamoDB Local)`);
  const receivers = await Promise.all(Array.from({ length: ENDPOINTS }, () => receiver(tls)));
  const orderHook = await receiver(tls);
  try {
    for (const r of receivers) await createEndpoint(stack.baseUrl, keys.throughput, r.url);
    const createdAt = `${new Date().toISOString().slice(0, 19)}Z`;
    const events: EventRecord[] = Array.from({ length: EVENTS }, () => ({
      id: `evt_${randomBytes(12).toString('hex')}`,
      type: 'order.ready',
      createdAt,
      livemode: false,
      accountId: keys.throughput.accountId,
      environment: 'test',
      data: { object: 'order', id: `ord_${randomBytes(12).toString('hex')}`, status: 'ready' },
      publishedAt: createdAt,
    }));
    for (let i = 0; i < events.length; i += 50) {
      await Promise.all(events.slice(i, i + 50).map((event) => stack.ports.eventLog.record(event)));
    }
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 20);
    const started = performance.now();
    await stack.ports.webhookQueue.send(events.map((event) => ({ kind: 'event' as const, id: event.id })));
    const total = EVENTS * ENDPOINTS;
    await until(() => receivers.reduce((n, r) => n + r.count, 0) >= total, 180_000, `${total} deliveries`);
    const seconds = (performance.now() - started) / 1000;
    await fetch(`${stack.baseUrl}/__local/webhooks/idle`, { method: 'POST' });
    clearInterval(sampler);
    const rate = total / seconds;
    console.log(
      `  ${EVENTS} events × ${ENDPOINTS} endpoints: ${total} deliveries in ${seconds.toFixed(1)} s = ${rate.toFixed(0)}/s   target ≥ ${TARGETS.deliveriesPerSecond}/s ${rate >= TARGETS.deliveriesPerSecond ? 'ok' : 'UNDER'}`,
    );
    console.log(
      `  dispatcher memory: heap ${mb(before.heapUsed)} → peak ${mb(peakHeap)}, RSS ${mb(before.rss)} → peak ${mb(peakRss)}`,
    );

    // Order ready → first delivery: the event's publication (the order was made ready in the same
    // step, just before) to the receiver's first request for it.
    await createEndpoint(stack.baseUrl, keys.orders, orderHook.url);
    const published = new Map<string, number>();
    stack.events.subscribe((event) => {
      if (event.accountId === keys.orders.accountId) published.set(event.id, performance.now());
    });
    const gaps: number[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const response = await fetch(`${stack.baseUrl}/v1/companies/990000158/charges/extract-orders`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.orders.secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ delivery: { method: 'web' } }),
      });
      const order = (await response.json()) as { id: string };
      if (response.status !== 202) throw new Error(`order: ${response.status}`);
      await fetch(`${stack.baseUrl}/__local/executions/${order.id}?wait=30000`);
      await until(() => orderHook.arrivals.size > i, 15_000, `order ${order.id}'s webhook`);
    }
    for (const [id, arrived] of orderHook.arrivals) {
      const sent = published.get(id);
      if (sent !== undefined) gaps.push(arrived - sent);
    }
    const ordered = sorted(gaps);
    const p50 = at(ordered, 0.5);
    console.log(
      `  order ready → first delivery (${gaps.length} orders): p50 ${p50.toFixed(0)} ms, p99 ${at(ordered, 0.99).toFixed(0)} ms   target p50 ≤ ${TARGETS.firstDeliveryP50Ms} ms ${p50 <= TARGETS.firstDeliveryP50Ms ? 'ok' : 'OVER'}`,
    );
  } finally {
    await Promise.all([...receivers, orderHook].map((r) => r.close()));
  }
}
