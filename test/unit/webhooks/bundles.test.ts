import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../../lib/bundling.ts';
import { grantsOf } from '../../../shared/app/port-grants.ts';
import { webhookRoutes } from '../../../shared/webhooks/routes.ts';

/**
 * The webhook functions' Lambda bundles, built as CDK builds them: each carries only what it runs.
 * The dispatcher and the routes reach DynamoDB and KMS through the lean clients (no SDK DynamoDB
 * or KMS client); only what sends to the dispatcher queue bundles the queue adapter (SQS's JSON
 * API, no SDK client either); no function but
 * the dispatcher bundles the HTTPS sender, and only the routes that seal secrets bundle the sealer.
 */
const LIMIT_BYTES = 400 * 1024;

async function bundle(handler: string) {
  const result = await build({
    ...esbuildOptions,
    sourcemap: false,
    entryPoints: [`functions/${handler}.ts`],
    outfile: 'index.cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return {
    bytes: result.outputFiles[0]?.contents.byteLength ?? 0,
    inputs: Object.keys(result.metafile.inputs),
  };
}

const has = (inputs: string[], fragment: string) => inputs.some((input) => input.includes(fragment));

describe('webhook bundles', () => {
  it('the dispatcher: sender, KMS over REST, no SDK DynamoDB, KMS or SQS client, within 400 KB', async () => {
    const { bytes, inputs } = await bundle('workers/webhooks/dispatch');
    expect(has(inputs, 'shared/webhooks/adapters/https-sender.ts')).toBe(true);
    expect(has(inputs, 'shared/webhooks/adapters/kms-sealer.ts')).toBe(true);
    for (const client of ['client-dynamodb', 'client-kms', 'client-sqs', 'client-eventbridge']) {
      expect(has(inputs, `@aws-sdk/${client}/`), client).toBe(false);
    }
    expect(bytes, `${(bytes / 1024).toFixed(0)} KB`).toBeLessThanOrEqual(LIMIT_BYTES);
  }, 30_000);

  it('the retry function: the delivery store and the queue only', async () => {
    const { inputs } = await bundle('workers/webhooks/retry');
    expect(has(inputs, 'shared/webhooks/adapters/sqs-queue.ts')).toBe(true);
    expect(has(inputs, '@aws-sdk/client-sqs/')).toBe(false);
    expect(has(inputs, 'https-sender.ts')).toBe(false);
    expect(has(inputs, 'kms-sealer.ts')).toBe(false);
    expect(has(inputs, '@aws-sdk/client-dynamodb/')).toBe(false);
  }, 30_000);

  it.each(Object.values(webhookRoutes).map((route) => [route.name, route] as const))(
    '%s bundles the sealer and the queue adapter only if its route uses them, never the sender',
    async (_, route) => {
      const { bytes, inputs } = await bundle(route.handler);
      const uses = new Set(grantsOf(route).uses);
      expect(has(inputs, 'kms-sealer.ts')).toBe(uses.has('sealer'));
      expect(has(inputs, 'shared/webhooks/adapters/sqs-queue.ts')).toBe(uses.has('webhookQueue'));
      expect(has(inputs, '@aws-sdk/client-sqs/')).toBe(false);
      expect(has(inputs, 'https-sender.ts')).toBe(false);
      expect(has(inputs, '@aws-sdk/client-dynamodb/')).toBe(false);
      expect(bytes, `${(bytes / 1024).toFixed(0)} KB`).toBeLessThanOrEqual(LIMIT_BYTES);
    },
    30_000,
  );
});
