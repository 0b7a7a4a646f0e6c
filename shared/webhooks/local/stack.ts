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
import { defineCapabilityLocal } from '../../../local/capability-local.ts';
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

export default defineCapabilityLocal({
  configure({ settings, development, dir }) {
    const own = settings.webhooks ?? {};
    // Under `npm start`, receivers on this machine only when asked, with their CA:
    // LOCAL_WEBHOOKS_ALLOW_LOOPBACK=1, LOCAL_WEBHOOKS_CA=<PEM file>.
    const caFile = development ? process.env.LOCAL_WEBHOOKS_CA : undefined;
    return {
      webhookSealKey:
        own.sealKey ??
        (development ? keptSealKey(join(dir, 'webhook-seal.key')) : randomBytes(32).toString('hex')),
      webhookAllowLoopback:
        own.allowLoopback ?? (development && process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK === '1'),
      webhookCa: own.ca ?? (caFile ? readFileSync(caFile, 'utf8') : undefined),
    };
  },
  async start({ ports, bus, settings, baseUrl }) {
    const retryIntervalMs = settings.webhooks?.retryIntervalMs;
    const webhooks = startLocalWebhooks({
      ports,
      bus,
      ...(retryIntervalMs === undefined ? {} : { retryIntervalMs }),
    });
    return {
      handle: webhooks,
      ports: { webhookQueue: webhooks.port },
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
      stop: () => webhooks.stop(),
    };
  },
});
