/**
 * Paid tools in two steps: a quote answers the exact fee and a confirmation token bound to the
 * key, the route and the exact arguments (HMAC, 5 minutes); the buy needs that token and a
 * `maxFee` not below the fee, and its Idempotency-Key is derived from the token, so a retry or a
 * replay of the same buy never buys twice.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { CursorCodec } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { RouteDefinition } from '../kernel/http/route.ts';
import type { Fee } from './fees.ts';

export const QUOTE_TTL_MS = 5 * 60_000;

/** Arguments as stable text: key order does not matter, undefined is absent. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

interface TokenBody {
  /** Expiry, epoch ms. */
  e: number;
  /** The quoted fee, cents. */
  f: number;
}

const signed = (keyId: string, route: string, args: Record<string, unknown>, payload: string) =>
  `${keyId}\n${route}\n${canonical(args)}\n${payload}`;

export async function issueToken(
  codec: CursorCodec,
  keyId: string,
  route: RouteDefinition,
  args: Record<string, unknown>,
  fee: Fee,
  now: Date,
): Promise<{ confirmationToken: string; expiresAt: string }> {
  const body: TokenBody = { e: now.getTime() + QUOTE_TTL_MS, f: fee.amountCents };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  const signature = await codec.signature(signed(keyId, route.name, args, payload));
  return { confirmationToken: `${payload}.${signature}`, expiresAt: new Date(body.e).toISOString() };
}

const tokenError = (message: string) =>
  new ApiError('validation_error', { status: 400, param: 'confirmationToken', message });

/**
 * Checks a buy against its quote: the token must be one issued to this key for this route and
 * exactly these arguments, unexpired, and `maxFee` must cover the quoted fee. Answers the
 * Idempotency-Key of the purchase.
 */
export async function checkBuy(
  codec: CursorCodec,
  keyId: string,
  route: RouteDefinition,
  args: Record<string, unknown>,
  token: unknown,
  maxFee: unknown,
  now: Date,
): Promise<{ idempotencyKey: string; fee: number }> {
  if (typeof token !== 'string' || token === '') {
    throw tokenError(
      'confirmationToken is required: quote the purchase first and pass the token it answers.',
    );
  }
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) throw tokenError(NOT_OURS);
  const expected = Buffer.from(await codec.signature(signed(keyId, route.name, args, payload)));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw tokenError(NOT_OURS);
  const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenBody;
  if (now.getTime() > body.e) {
    throw tokenError('confirmationToken expired: quotes are valid for 5 minutes. Quote again.');
  }
  if (typeof maxFee !== 'number' || !Number.isInteger(maxFee) || maxFee < 0) {
    throw new ApiError('validation_error', {
      status: 400,
      param: 'maxFee',
      message: 'maxFee is required: the most the user agreed to pay, in cents.',
    });
  }
  if (maxFee < body.f) {
    throw new ApiError('validation_error', {
      status: 400,
      param: 'maxFee',
      message: `maxFee ${maxFee} is below the quoted fee of ${body.f} cents: nothing was bought.`,
    });
  }
  // Hex: printable ASCII, within the Idempotency-Key's limit.
  const idempotencyKey = `mcp_${createHash('sha256').update(token).digest('hex').slice(0, 48)}`;
  return { idempotencyKey, fee: body.f };
}

const NOT_OURS =
  'confirmationToken is not one quoted for this key and exactly these arguments: quote the purchase again.';
