/**
 * Charges of the account's own, not bought by a key through a billable route: monitoring's daily
 * charge (shared/monitoring/jobs.ts, `recordDailyUsage`). Each counts in the account's spend (never
 * a key's) and its alerts, and is never refused by a cap: monitoring was promised for the day, and
 * stopping it at a cap would silently drop the changes a customer relies on. A cap reached by it
 * refuses the next purchase instead.
 *
 * The fee entry is written first, then counted as a hold settled at once, keyed by the entry's
 * request and account: a re-run of the day's billing counts it once, and a run that died between
 * the two leaves a hold the sweeper settles from that entry (sweep.ts).
 */
import { alertReached } from './alerts.ts';
import type { SpendHoldStore, SpendReservation } from './store-port.ts';

/** A fee entry of the account's own, as the ledger holds it. */
export interface AccountCharge {
  accountId: SpendReservation['accountId'];
  environment: SpendReservation['environment'];
  /** The entry's time: the month it counts in. */
  at: string;
  /** The entry's request id (monitoring: `mon_usage_<day>`). */
  requestId: string;
  unitAmountCents?: number;
  quantity: number;
}

export async function countAccountCharge(
  store: SpendHoldStore,
  charge: AccountCharge,
  now: Date,
): Promise<void> {
  const amountCents = (charge.unitAmountCents ?? 0) * charge.quantity;
  if (amountCents <= 0) return;
  const reservation: SpendReservation = {
    key: `charge#${charge.requestId}#${charge.accountId}#${charge.environment}`,
    accountId: charge.accountId,
    environment: charge.environment,
    keyId: null,
    month: charge.at.slice(0, 7),
    amountCents,
    requestId: charge.requestId,
    reservedAt: charge.at,
  };
  const outcome = await store.reserve(reservation, {});
  const held = outcome.outcome === 'held_before' ? outcome.reservation : reservation;
  await store.settle(held, amountCents);
  const { account } = await store.capsOf(charge.accountId, charge.environment, '');
  if (account) await alertReached(store, account, held.month, now);
}

/** The monitoring run's `monitoringSpend` port (shared/monitoring/jobs.ts) over the spend caps' store. */
export const accountCharges = (store: SpendHoldStore, clock: { now(): Date }) => ({
  count: (charge: AccountCharge) => countAccountCharge(store, charge, clock.now()),
});
