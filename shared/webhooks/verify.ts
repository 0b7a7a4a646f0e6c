/**
 * For subscribers: checks a delivery's `svc-signature` header (spec 6.3). Splits it on commas,
 * reads `t` and every `v1`, recomputes the HMAC-SHA256 of `t.rawBody` with each secret given
 * (several during a rotation), compares in constant time, and refuses a timestamp more than
 * `toleranceSeconds` (300) away from now. Throws a WebhookVerificationError, else returns the
 * parsed event.
 *
 *   const event = verifyWebhook(rawBody, req.headers['svc-signature'], [process.env.WHSEC]);
 */
import { timingSafeEqual } from 'node:crypto';
import { signPayload } from './sign.ts';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyOptions {
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

export interface VerifiedEvent {
  id: string;
  type: string;
  createdAt: string;
  livemode: boolean;
  data: Record<string, unknown>;
}

export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | string[] | undefined | null,
  secrets: string | readonly string[],
  { toleranceSeconds = 300, now = new Date() }: VerifyOptions = {},
): VerifiedEvent {
  const header = Array.isArray(signatureHeader) ? signatureHeader.join(',') : signatureHeader;
  if (!header) throw new WebhookVerificationError('no svc-signature header');
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined) throw new WebhookVerificationError('svc-signature has no timestamp t');
  if (signatures.length === 0) throw new WebhookVerificationError('svc-signature has no v1 signature');
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  const matches = keys.some((secret) => {
    const expected = Buffer.from(signPayload(secret, timestamp as number, body), 'hex');
    // Every signature is compared, so the time taken says nothing about which one matched.
    return signatures
      .map((signature) => timingSafeEqual(expected, Buffer.from(signature, 'hex')))
      .includes(true);
  });
  if (!matches) throw new WebhookVerificationError('no v1 signature matches the payload and secret');
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds) {
    throw new WebhookVerificationError(`timestamp outside the ${toleranceSeconds} s tolerance`);
  }
  return JSON.parse(body) as VerifiedEvent;
}
