import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { AesGcmSealer } from '../../../shared/webhooks/adapters/aes-sealer.ts';
import { nextAttemptAfter } from '../../../shared/webhooks/schedule.ts';
import { signatureHeader, signPayload } from '../../../shared/webhooks/sign.ts';
import { verifyWebhook, WebhookVerificationError } from '../../../shared/webhooks/verify.ts';

const body = JSON.stringify({
  id: 'evt_1',
  type: 'order.ready',
  createdAt: '2026-01-01T00:00:00Z',
  livemode: false,
  data: {},
});
const now = new Date('2026-01-01T00:00:10Z');
const t = Math.floor(now.getTime() / 1000);
const secret = 'whsec_new';
const old = 'whsec_old';

describe('signatures (spec 6.3)', () => {
  it('is the lowercase hex HMAC-SHA256 of "t.body" keyed with the whole secret, which stripe verifies', () => {
    const header = signatureHeader([secret], t, body);
    expect(header).toBe(`t=${t},v1=${signPayload(secret, t, body)}`);
    expect(signPayload(secret, t, body)).toMatch(/^[0-9a-f]{64}$/);
    const stripe = new Stripe('sk_test_unused');
    expect(() =>
      stripe.webhooks.constructEvent(
        body,
        signatureHeader([secret], Math.floor(Date.now() / 1000), body),
        secret,
      ),
    ).not.toThrow();
  });

  it('carries the new signature first, then the old one, during a rotation', () => {
    const header = signatureHeader([secret, old], t, body);
    expect(header.split(',')).toStrictEqual([
      `t=${t}`,
      `v1=${signPayload(secret, t, body)}`,
      `v1=${signPayload(old, t, body)}`,
    ]);
  });
});

describe('verifyWebhook', () => {
  it('accepts any matching secret and any matching v1', () => {
    const header = signatureHeader([secret, old], t, body);
    expect(verifyWebhook(body, header, [secret], { now }).id).toBe('evt_1');
    expect(verifyWebhook(body, header, [old], { now }).id).toBe('evt_1');
    expect(verifyWebhook(Buffer.from(body), header, ['whsec_other', secret], { now }).type).toBe(
      'order.ready',
    );
  });

  it.each([
    ['a changed body', (h: string) => [`${body} `, h]],
    ['no header', () => [body, undefined]],
    ['no timestamp', (h: string) => [body, h.replace(/^t=\d+,/, '')]],
    ['no v1', (h: string) => [body, h.split(',')[0]]],
    ['a v0 scheme only', (h: string) => [body, h.replace('v1=', 'v0=')]],
  ] as const)('refuses %s', (_, change) => {
    const [payload, header] = change(signatureHeader([secret], t, body)) as [string, string | undefined];
    expect(() => verifyWebhook(payload, header, [secret], { now })).toThrow(WebhookVerificationError);
  });

  it('refuses a timestamp more than the tolerance away, either way', () => {
    const header = signatureHeader([secret], t, body);
    expect(() => verifyWebhook(body, header, secret, { now: new Date(now.getTime() + 301_000) })).toThrow(
      /tolerance/,
    );
    expect(() => verifyWebhook(body, header, secret, { now: new Date(now.getTime() - 301_000) })).toThrow(
      /tolerance/,
    );
    expect(verifyWebhook(body, header, secret, { now: new Date(now.getTime() + 299_000) }).id).toBe('evt_1');
    expect(() =>
      verifyWebhook(body, header, secret, { now: new Date(now.getTime() + 61_000), toleranceSeconds: 60 }),
    ).toThrow();
  });
});

describe('retry schedule (spec 6.4)', () => {
  const created = '2026-01-01T00:00:00Z';
  const at = (ms: number) => new Date(Date.parse(created) + ms);

  it('waits about 1 min, 5 min, 30 min, 2 h, 6 h, then every 6 h until 24 h after the event', () => {
    let last = at(0);
    const times: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAfter(attempt, last, created);
      if (!next) break;
      times.push((next.getTime() - last.getTime()) / 60_000);
      last = next;
    }
    expect(times).toStrictEqual([1, 5, 30, 120, 360, 360, 360]);
    expect(last.getTime() - Date.parse(created)).toBeLessThanOrEqual(24 * 3600_000);
  });
});

describe('AES-GCM sealer (local stack)', () => {
  const binding = { accountId: 'acct_1', endpointId: 'we_1' };

  it('opens what it sealed, never shows the secret, and refuses a tampered or foreign blob', async () => {
    const sealer = new AesGcmSealer(Buffer.alloc(32, 7));
    const sealed = await sealer.seal('whsec_abc', binding);
    expect(sealed).not.toContain('whsec_abc');
    expect(await sealer.open(sealed, binding)).toBe('whsec_abc');
    await expect(sealer.open(`${sealed.slice(0, -2)}AA`, binding)).rejects.toThrow();
    await expect(new AesGcmSealer(Buffer.alloc(32, 8)).open(sealed, binding)).rejects.toThrow();
  });

  it('opens a secret only for the account and endpoint it was sealed for', async () => {
    const sealer = new AesGcmSealer(Buffer.alloc(32, 7));
    const sealed = await sealer.seal('whsec_abc', binding);
    await expect(sealer.open(sealed, { ...binding, endpointId: 'we_2' })).rejects.toThrow();
    await expect(sealer.open(sealed, { ...binding, accountId: 'acct_2' })).rejects.toThrow();
    expect(await sealer.open(sealed, { ...binding })).toBe('whsec_abc');
  });
});
