/**
 * The webhook tier on the local stack (infrastructure.local of the webhooks capability): the
 * dispatcher queue fed by the event bus, the dispatcher and the retry function (tier.ts), and their
 * control: `POST /__local/webhooks/retry` runs the retry function now (answering once its attempts
 * are made), `POST /__local/webhooks/idle` waits for the dispatcher queue, `GET
 * /__local/webhooks/queue` shows it. Signing secrets are sealed with a key of the stack's (KMS when
 * deployed): `sealKey`, or under `npm start` the one kept in `<dir>/webhook-seal.key`, so that stored
 * endpoints keep working between runs, or a fresh one.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineCapabilityLocal, type LocalSetup } from '../../../local/capability-local.ts';
import { localSealer, localWebhookSender, type WebhooksLocalConfig } from '../composition/local.ts';
import { WEBHOOK_LOCAL_ENV } from '../infra.ts';
import { startLocalWebhooks } from './tier.ts';

export interface WebhooksLocalSettings {
  /** Deliver to loopback receivers (tests, demos), trusting `ca` (PEM) for their certificates. */
  allowLoopback?: boolean;
  ca?: string;
  /** How often the retry function runs (default 1 s; 0 only through the control endpoint). */
  retryIntervalMs?: number;
  /** 64 hex digits; secrets stored by an earlier run open only if the same key is given. */
  sealKey?: string;
}

declare module '../../../local/capability-local.ts' {
  interface LocalCapabilitySettings {
    webhooks?: WebhooksLocalSettings;
  }
}

/** The key kept beside the data (created on first use), so that stored endpoints keep working. */
function keptSealKey(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

/** Webhooks' local settings: the stack's own (tests), else under `npm start` its environment's. */
export function webhooksLocalConfig({ settings, development, dir }: LocalSetup): WebhooksLocalConfig {
  const own = settings.webhooks ?? {};
  // Under `npm start`, receivers on this machine only when asked, with their CA:
  // LOCAL_WEBHOOKS_ALLOW_LOOPBACK=1, LOCAL_WEBHOOKS_CA=<PEM file>.
  const caFile = development ? process.env.LOCAL_WEBHOOKS_CA : undefined;
  return {
    sealKey:
      own.sealKey ??
      (development ? keptSealKey(join(dir, 'webhook-seal.key')) : randomBytes(32).toString('hex')),
    allowLoopback: own.allowLoopback ?? (development && process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK === '1'),
    ca: own.ca ?? (caFile ? readFileSync(caFile, 'utf8') : undefined),
  };
}

export default defineCapabilityLocal({
  async start({ ports, bus, settings, baseUrl, development, dir }) {
    const own = webhooksLocalConfig({ settings, development, dir });
    // The sealer (AES-GCM, not KMS) and the sender (loopback receivers when allowed).
    const webhookPorts = { sealer: localSealer(own), webhookSender: localWebhookSender(own) };
    // What the webhook routes read (the stack's process is its functions' environment).
    const loopbackBefore = process.env[WEBHOOK_LOCAL_ENV.allowLoopback];
    if (own.allowLoopback) process.env[WEBHOOK_LOCAL_ENV.allowLoopback] = '1';
    else delete process.env[WEBHOOK_LOCAL_ENV.allowLoopback];
    const retryIntervalMs = settings.webhooks?.retryIntervalMs;
    const webhooks = startLocalWebhooks({
      ports: { ...ports, ...webhookPorts },
      bus,
      ...(retryIntervalMs === undefined ? {} : { retryIntervalMs }),
    });
    return {
      handle: webhooks,
      ports: { webhookQueue: webhooks.port, ...webhookPorts },
      control: [
        {
          pattern: /^\/__local\/webhooks\/retry\/?$/,
          methods: {
            POST: async () => {
              const result = await webhooks.retry();
              // Answers once the attempts it queued have been made.
              await webhooks.queue.idle();
              return [200, result];
            },
          },
        },
        {
          pattern: /^\/__local\/webhooks\/queue\/?$/,
          methods: { GET: () => [200, webhooks.queue.state()] },
        },
        {
          pattern: /^\/__local\/webhooks\/idle\/?$/,
          methods: {
            POST: async () => {
              await webhooks.queue.idle();
              return [200, webhooks.queue.state()];
            },
          },
        },
      ],
      notes: [
        `Webhooks: retries every second on the local clock; POST ${baseUrl}/__local/webhooks/retry runs them now`,
      ],
      stop: async () => {
        await webhooks.stop();
        if (loopbackBefore === undefined) delete process.env[WEBHOOK_LOCAL_ENV.allowLoopback];
        else process.env[WEBHOOK_LOCAL_ENV.allowLoopback] = loopbackBefore;
      },
    };
  },
});
