/**
 * Sends one webhook attempt: POST over HTTPS (node:https, no dependency), with the SSRF guard
 * applied at connection time. An IP-literal host is judged before connecting (Node does not
 * call `lookup` for literals), and a name's resolved addresses are filtered by the `lookup`
 * hook, so the connection can only go to the address just checked (DNS rebinding cannot slip a
 * private address in between). Redirects are not followed (a 3xx is a failure), the whole
 * exchange is cut at 10 s, and at most 64 KB of the answer is read (the first 1 KB kept).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { type AddressPolicy, checkAddress, checkHost } from '../address-guard.ts';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../store-port.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
const READ_LIMIT = 64 * 1024;
const KEEP = 1024;

export interface HttpsSenderOptions extends AddressPolicy {
  /** Extra trusted CA certificates (PEM): the local stack's test receivers. */
  ca?: string | undefined;
  timeoutMs?: number;
}

export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
}

/** `dns.lookup` keeping only addresses the policy allows; an error when none is left. */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return ((
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (...args: unknown[]) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const allowed = addresses.filter((entry) => checkAddress(entry.address, policy).allowed);
      if (allowed.length === 0) {
        const verdict = addresses[0] ? checkAddress(addresses[0].address, policy) : null;
        const reason = verdict && !verdict.allowed ? verdict.reason : 'no address';
        return callback(new BlockedAddressError(`${hostname} resolves to no public address (${reason})`));
      }
      if (options.all) return callback(null, allowed);
      const first = allowed[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  }) as LookupFunction;
}

export class HttpsWebhookSender implements WebhookSender {
  private readonly agent: Agent;
  private readonly lookup: LookupFunction;

  constructor(private readonly options: HttpsSenderOptions = {}) {
    this.lookup = guardedLookup(options);
    // Kept-alive sockets per endpoint host; each socket was opened through the guarded lookup.
    this.agent = new Agent({ keepAlive: true, maxSockets: 50, ...(options.ca ? { ca: options.ca } : {}) });
  }

  async send(webhook: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(webhook.url);
    } catch {
      return { statusCode: null, latencyMs: 0, body: null, error: 'invalid url' };
    }
    if (url.protocol !== 'https:')
      return { statusCode: null, latencyMs: 0, body: null, error: 'url is not https' };
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const verdict = checkHost(host, this.options);
    if (!verdict.allowed)
      return { statusCode: null, latencyMs: 0, body: null, error: `blocked: ${verdict.reason}` };
    const timeoutMs = this.options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    return new Promise<WebhookResponse>((resolve) => {
      let settled = false;
      const done = (answer: Omit<WebhookResponse, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...answer, latencyMs: latency() });
      };
      const body = Buffer.from(webhook.body, 'utf8');
      const req = request(
        {
          protocol: 'https:',
          hostname: host,
          port: Number(url.port) || 443,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...webhook.headers, 'Content-Length': String(body.length) },
          agent: this.agent,
          lookup: this.lookup,
          servername: verdict.literal ? undefined : host,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () =>
            done({
              statusCode: res.statusCode ?? null,
              body: Buffer.concat(chunks).subarray(0, KEEP).toString('utf8'),
              error: null,
            });
          res.on('data', (chunk: Buffer) => {
            if (size < READ_LIMIT) chunks.push(chunk);
            size += chunk.length;
            if (size >= READ_LIMIT) {
              finish();
              res.destroy();
            }
          });
          res.on('end', finish);
          res.on('error', (error) =>
            done({ statusCode: res.statusCode ?? null, body: null, error: error.message }),
          );
        },
      );
      const timer = setTimeout(() => {
        done({ statusCode: null, body: null, error: `no answer within ${timeoutMs / 1000} s` });
        req.destroy();
      }, timeoutMs);
      req.on('error', (error) =>
        done({
          statusCode: null,
          body: null,
          error: `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`,
        }),
      );
      req.end(body);
    });
  }
}
