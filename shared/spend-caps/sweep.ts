/**
 * Holds a purchase left open: its process died after the hold (or failed in a way that may have
 * bought) and never settled it. The fee ledger is the truth, and the sweeper settles each such hold
 * from it: fee entries of the hold's request mean the purchase was billed, and the hold becomes
 * that spend; none by the end of the hold's lease means nothing was bought, and the hold is
 * released. Settling is conditional on the hold being open, so a sweep racing another sweep, or the
 * purchase's own retry, settles it once.
 */
import { toTimestamp } from '../kernel/clock.ts';
import { logger } from '../kernel/observability.ts';
import { alertReached } from './alerts.ts';
import { ledgerFeesOf } from './guard.ts';
import type { SpendCap, SpendHoldStore, SpendReservation } from './store-port.ts';

/** A hold is looked at once its purchase cannot still be running (a request lasts 29 s at most). */
export const HOLD_SWEPT_AFTER_MS = 5 * 60_000;
/**
 * A hold without fee entries this long after it was taken is released. By then the purchase
 * sweeper has committed, or forgotten, every purchase the registry answered for (a purchase still
 * unsettled after an hour is money at risk, which its own alarm reports: AT_RISK_AFTER_MS).
 */
export const HOLD_LEASE_MS = 60 * 60_000;
const SWEEP_BATCH = 100;

export interface HoldSweepReport {
  /** Billed: the hold became the spend its fee entries came to. */
  converted: number;
  /** Nothing billed within the lease: released. */
  released: number;
  /** No fee entry yet, lease not over: left for a later sweep. */
  waiting: number;
}

async function alertCapsOf(store: SpendHoldStore, hold: SpendReservation, now: Date): Promise<void> {
  const caps = await store.capsOf(hold.accountId, hold.environment, hold.keyId ?? '');
  const capped = [caps.account, hold.keyId === null ? undefined : caps.key];
  for (const cap of capped.filter((c): c is SpendCap => c !== undefined)) {
    await alertReached(store, cap, hold.month, now);
  }
}

/** Settles the open holds older than HOLD_SWEPT_AFTER_MS from the ledger (one batch a sweep). */
export async function settleStaleHolds(ports: {
  spendCaps: SpendHoldStore;
  now: Date;
}): Promise<HoldSweepReport> {
  const { spendCaps: store, now } = ports;
  const report: HoldSweepReport = { converted: 0, released: 0, waiting: 0 };
  const holds = await store.openHolds(
    toTimestamp(new Date(now.getTime() - HOLD_SWEPT_AFTER_MS)),
    SWEEP_BATCH,
  );
  const leaseEnd = now.getTime() - HOLD_LEASE_MS;
  for (const hold of holds) {
    try {
      const fees = await ledgerFeesOf(store, hold);
      if (fees === null && Date.parse(hold.reservedAt) > leaseEnd) {
        report.waiting += 1;
        continue;
      }
      if (!(await store.settle(hold, fees ?? 0))) continue;
      report[fees === null ? 'released' : 'converted'] += 1;
      if (fees !== null) await alertCapsOf(store, hold, now);
    } catch (error) {
      logger.error('open spend hold not settled', { requestId: hold.requestId, error });
      report.waiting += 1;
    }
  }
  return report;
}
