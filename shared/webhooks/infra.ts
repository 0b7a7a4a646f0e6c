/** The webhook tier's functions and settings, named once for CDK, the Lambda roots and the local stack. */

export const WEBHOOK_ENV = {
  /** The dispatcher queue (attempts sent by the retry function and the webhook routes). */
  queueUrl: 'WEBHOOK_QUEUE_URL',
  /** The KMS key sealing endpoint signing secrets. */
  keyId: 'WEBHOOK_KEY_ID',
} as const;

/**
 * Set by the local stack only (its webhooks module, when its settings allow loopback receivers):
 * the webhook routes then accept loopback addresses. CDK never sets it, so deployed functions refuse them.
 */
export const WEBHOOK_LOCAL_ENV = { allowLoopback: 'WEBHOOK_ALLOW_LOOPBACK' } as const;

export const WEBHOOK_DISPATCHER = { name: 'DispatchWebhooks', handler: 'workers/webhooks/dispatch' } as const;
export const WEBHOOK_RETRY = { name: 'RetryWebhooks', handler: 'workers/webhooks/retry' } as const;

/** The dispatcher's timeout: a batch of attempts side by side, each cut at 10 s, plus reads and writes. */
export const DISPATCHER_TIMEOUT_SECONDS = 30;

/**
 * The encryption context every webhook signing secret is sealed and opened with (KMS): its purpose,
 * and the account and endpoint it belongs to, so a sealed secret opens only for the endpoint it was
 * made for. The key policy (lib/data-stack.ts) refuses Encrypt and Decrypt without exactly these keys.
 */
export const SECRET_CONTEXT_PURPOSE = 'webhook-signing-secret';
export const SECRET_CONTEXT_KEYS = ['purpose', 'account', 'endpoint'] as const;
