/**
 * A program written the way a customer would, against the installed `company-register-client`
 * package (test/http/client-package.test.ts copies it into an empty project): buys a sandbox
 * extract, pages through its documents two at a time, and receives a webhook over HTTPS and
 * verifies it. It prints what it saw as JSON.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  createCompanyRegisterClient,
  verifyWebhook,
  WebhookVerificationError,
} from 'company-register-client';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const client = createCompanyRegisterClient({ baseUrl: env('API_URL'), apiKey: env('API_KEY') });
const company = env('COMPANY');

// No Idempotency-Key given: the client sends a fresh one with the purchase.
const bought = await client.POST('/v1/companies/{id}/extracts', {
  params: { path: { id: company } },
  body: { type: 'current' },
});
if (bought.error) throw new Error(`purchase refused: ${bought.error.error.code}`);

const documents: string[] = [];
for await (const document of client.list('/v1/companies/{id}/documents', {
  params: { path: { id: company }, query: { extract: bought.data.id, limit: 2 } },
})) {
  documents.push(document.documentNumber);
}

const received = new Promise<{ rawBody: string; signature: string }>((resolve) => {
  const server = createServer(
    { key: readFileSync(env('TLS_KEY')), cert: readFileSync(env('TLS_CERT')) },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.end('ok');
        server.close();
        resolve({
          rawBody: Buffer.concat(chunks).toString('utf8'),
          signature: String(request.headers['svc-signature']),
        });
      });
    },
  );
  server.listen(0, '127.0.0.1', () => {
    void subscribe((server.address() as AddressInfo).port);
  });
});

let secret = '';
async function subscribe(port: number) {
  const endpoint = await client.POST('/v1/webhook-endpoints', {
    body: { url: `https://localhost:${port}/hooks`, enabledEvents: ['order.ready'] },
  });
  if (endpoint.error) throw new Error(`endpoint refused: ${endpoint.error.error.code}`);
  secret = endpoint.data.secret ?? '';
  const test = await client.POST('/v1/webhook-endpoints/{endpointId}/test', {
    params: { path: { endpointId: endpoint.data.id } },
    body: {},
  });
  if (test.error) throw new Error(`test refused: ${test.error.error.code}`);
}

const delivery = await received;
const event = verifyWebhook(delivery.rawBody, delivery.signature, secret);
let tampered = 'accepted';
try {
  verifyWebhook(delivery.rawBody.replace('webhook_endpoint.test', 'order.ready'), delivery.signature, secret);
} catch (error) {
  tampered = error instanceof WebhookVerificationError ? `refused: ${error.message}` : 'failed otherwise';
}

console.log(
  JSON.stringify({
    extract: { id: bought.data.id, type: bought.data.type, company: bought.data.company.name },
    documents,
    event: { type: event.type, livemode: event.livemode },
    tampered,
  }),
);
