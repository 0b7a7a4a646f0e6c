import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

import { call } from './api.ts';
import { localStack } from './stack.ts';

export interface Received {
  at: number;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  body: { id: string; type: string; createdAt: string; livemode: boolean; data: Record<string, unknown> };
}

/** What the receiver answers to the request numbered `n` (from 1): a status, or `hang` (never answers). */
export type Behaviour = (n: number) => number | 'hang';

/** A real HTTPS receiver on loopback, with the tests' self-signed certificate. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 200, path = '/hooks'): Promise<Receiver> {
  const tls = localStack.webhookTls;
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      received.push({ at: Date.now(), headers: req.headers, rawBody, body: JSON.parse(rawBody) });
      for (const wake of waiters.splice(0)) wake();
      const answer = behaviour(received.length);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'Content-Type': 'text/plain' });
      res.end(answer < 300 ? 'ok' : `failing on purpose (${answer})`);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}${path}`,
    received,
    waitFor: async (count, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`received ${received.length} of ${count} webhooks`);
        await new Promise<void>((wake) => {
          const timer = setTimeout(wake, left);
          waiters.push(() => {
            clearTimeout(timer);
            wake();
          });
        });
      }
      return received.slice(0, count);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** Runs the retry function now and waits for the attempts it queued. */
export const runRetries = async () =>
  (await call<{ queued: number }>('/__local/webhooks/retry', { method: 'POST' })).body;

/** Waits until the dispatcher queue has nothing in flight (attempts recorded). */
export const webhooksIdle = async () => {
  await call('/__local/webhooks/idle', { method: 'POST' });
};
