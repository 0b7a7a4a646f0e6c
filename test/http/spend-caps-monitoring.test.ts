import { describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { buyExtract, call, clock, createKey, errorOf } from '../support/api.ts';
import { alertsOf, capOf, setCap, usageOf } from '../support/spend-caps.ts';

/**
 * Monitoring's daily charges in the spend caps (record 0106). Its own stack (vitest.config.ts,
 * OWN_STACKS): the daily run bills every monitor of the stack, and a shared stack holds the bulk
 * imports of the monitoring tests.
 */

describe("monitoring's daily charges", () => {
  const runDaily = async () => {
    const run = await call<{ stopped: string | null }>('/__local/monitoring/run', {
      method: 'POST',
      body: { job: 'daily' },
    });
    expect([run.status, run.body.stopped]).toStrictEqual([200, null]);
  };

  it("count in the account's spend and its alerts, once a day however often billed, and accrue past the cap (monitors keep running) while the next purchase is refused", async () => {
    const key = await createKey('test');
    for (const company of [SANDBOX.proprietary, SANDBOX.satisfiedCharges]) {
      const watched = await call('/v1/monitors', { key: key.secret, method: 'POST', body: { company } });
      expect(watched.status, watched.text).toBe(201);
    }
    // Example prices: 1 cent a monitor-day.
    await setCap(key, 'account', { amountCents: 3 });
    await runDaily();
    await runDaily();
    expect((await capOf(key, 'account')).body).toMatchObject({ spentCents: 2, alertsSent: [50] });

    await clock.advance(24 * 3600_000);
    await runDaily();
    const cap = await capOf(key, 'account');
    expect(cap.body).toMatchObject({ spentCents: 4, remainingCents: 0, alertsSent: [50, 80, 100] });
    const monitoring = (await usageOf(key)).filter((fee) => fee.product === 'monitoring');
    expect(monitoring.map((fee) => fee.quantity)).toStrictEqual([2, 2]);
    // Both monitors still watch (nothing is paused or removed at the cap).
    const monitors = await call<{ data: unknown[] }>('/v1/monitors', { key: key.secret });
    expect(monitors.body.data.length).toBe(2);
    expect((await alertsOf(key)).map((event) => event.data.threshold).sort()).toStrictEqual([100, 50, 80]);

    const refused = await buyExtract(key.secret, SANDBOX.proprietary, 'current');
    expect(refused.status, refused.text).toBe(403);
    expect(errorOf(refused)).toMatchObject({
      code: 'spend_cap_exceeded',
      details: {
        cap: { scope: 'account', keyId: null, amountCents: 3 },
        spentCents: 4,
        purchaseCents: 2_500,
      },
    });
  });
});
