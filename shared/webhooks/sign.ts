/** The signature of spec 6.3: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body" keyed with the whole secret>`. */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'svc-signature';

export const signPayload = (secret: string, timestamp: number, rawBody: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');

/** One `v1` per secret, in the order given (the new secret first after a rotation). */
export const signatureHeader = (secrets: readonly string[], timestamp: number, rawBody: string): string =>
  [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signPayload(secret, timestamp, rawBody)}`)].join(',');
