import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCertificate } from '../../../local/tls.ts';
import { HttpsWebhookSender } from '../../../shared/webhooks/adapters/https-sender.ts';

/** The HTTPS sender against a real HTTPS server on loopback (allowed here by configuration only). */

const tls = testCertificate();
let server: Server;
let base = '';
const seen: { method: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (req.url === '/redirect') {
        res.writeHead(302, { Location: `${base}/ok` });
        res.end();
      } else if (req.url === '/big') {
        res.writeHead(500);
        res.end('x'.repeat(200_000));
      } else if (req.url === '/hang') {
        // never answers
      } else {
        res.writeHead(200);
        res.end('thanks');
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

const sender = new HttpsWebhookSender({ allowLoopback: true, ca: tls.cert, timeoutMs: 300 });
const send = (path: string) =>
  sender.send({
    url: `${base}${path}`,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: '{"a":1}',
  });

describe('HttpsWebhookSender', () => {
  it('POSTs the body with its headers and reports status, latency and the answer', async () => {
    const answer = await send('/ok');
    expect(answer).toMatchObject({ statusCode: 200, body: 'thanks', error: null });
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-length': '7' },
    });
  });

  it('does not follow a redirect: the 302 is the answer', async () => {
    const before = seen.length;
    const answer = await send('/redirect');
    expect(answer.statusCode).toBe(302);
    expect(seen.length).toBe(before + 1);
  });

  it('keeps the first 1 KB of a large answer', async () => {
    const answer = await send('/big');
    expect(answer.statusCode).toBe(500);
    expect(answer.body).toHaveLength(1024);
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    const answer = await send('/hang');
    expect(answer).toMatchObject({ statusCode: null, error: 'no answer within 0.3 s' });
  });

  it('refuses a certificate it does not trust, and loopback unless configured', async () => {
    const untrusting = await new HttpsWebhookSender({ allowLoopback: true }).send({
      url: `${base}/ok`,
      headers: {},
      body: '{}',
    });
    expect(untrusting.statusCode).toBeNull();
    expect(untrusting.error).toMatch(/certificate/i);
    const strict = await new HttpsWebhookSender({ ca: tls.cert }).send({
      url: `${base}/ok`,
      headers: {},
      body: '{}',
    });
    expect(strict.statusCode).toBeNull();
    expect(strict.error).toMatch(/blocked/);
  });
});
