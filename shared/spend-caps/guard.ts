/**
 * The spend guard (shared/kernel/ports/spend-guard.ts): every billable route's purchase reserves
 * its highest possible fee (shared/mcp/fees.ts, in the prices `GET /v1/usage` records) against the
 * account's and the key's monthly caps, atomically, before its use case asks the registry; it is
 * settled to what its fee entries came to, or released when nothing was bought. Every purchase is
 * counted, capped or not, so a cap set mid-month starts from what the month already spent.
 */
import type { Clock } from '../kernel/clock.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import './errors.ts';
import { logger } from '../kernel/observability.ts';
import type { SpendGuard, SpendHold } from '../kernel/ports/spend-guard.ts';
import { stagePrices } from '../kernel/prices.ts';
import { type Fee, feeOf } from '../mcp/fees.ts';
import { alertReached } from './alerts.ts';
import { money, monthOf } from './present.ts';
import type { SpendCap, SpendCounter, SpendHoldStore, SpendReservation } from './store-port.ts';

/** Fee entries are timed to the second, up to a purchase's run after its hold: look this far back. */
const FEE_LOOKBACK_MS = 5 * 60_000;

/**
 * What the fee entries of `requestId` (by default the request that took the hold) came to on the
 * ledger since the hold, in cents; null while there is none.
 */
export const ledgerFeesOf = (
  store: SpendHoldStore,
  held: SpendReservation,
  requestId = held.requestId,
): Promise<number | null> =>
  store.feesOfRequest(
    held.accountId,
    held.environment,
    requestId,
    toTimestamp(new Date(Date.parse(held.reservedAt) - FEE_LOOKBACK_MS)),
  );

/** `spend_cap_exceeded`: which cap, what its scope spent this month, what the purchase would cost. */
export function capExceeded(cap: SpendCap, counter: SpendCounter, fee: Fee, month: string): ApiError {
  const whose = cap.scope.kind === 'account' ? "the account's" : `key ${cap.scope.keyId}'s`;
  return new ApiError('spend_cap_exceeded', {
    message: `This purchase (${fee.maxPossible ? 'at most ' : ''}${money(fee.amountCents, fee.currency)}) would pass ${whose} monthly spend cap of ${money(cap.amountCents, fee.currency)}: ${money(counter.spentCents, fee.currency)} is spent in ${month}.`,
    details: {
      cap: {
        scope: cap.scope.kind,
        keyId: cap.scope.kind === 'key' ? cap.scope.keyId : null,
        amountCents: cap.amountCents,
      },
      month,
      currency: fee.currency,
      spentCents: counter.spentCents,
      purchaseCents: fee.amountCents,
      maxPossible: fee.maxPossible,
    },
  });
}

export function createSpendGuard(ports: { spendCaps: SpendHoldStore; clock: Clock }): SpendGuard {
  const store = ports.spendCaps;
  return {
    async hold(purchase): Promise<SpendHold> {
      const now = ports.clock.now();
      const at = toTimestamp(now);
      const month = monthOf(now);
      const { accountId, environment, keyId } = purchase.auth;
      const fee = feeOf(
        stagePrices(),
        purchase.route,
        { path: purchase.path, body: purchase.body },
        { at, billed: environment === 'live' },
      );
      const caps = await store.capsOf(accountId, environment, keyId);
      const reservation: SpendReservation = {
        key: purchase.key ?? purchase.requestId,
        accountId,
        environment,
        keyId,
        month,
        amountCents: fee.amountCents,
        requestId: purchase.requestId,
        reservedAt: at,
      };
      // A fee above a cap passes it whatever was spent (the counter's condition allows a first spend).
      const tooDear = [caps.account, caps.key].find((cap) => cap && fee.amountCents > cap.amountCents);
      const outcome = tooDear
        ? { outcome: 'refused' as const, scope: tooDear.scope.kind }
        : await store.reserve(reservation, {
            account: caps.account?.amountCents,
            key: caps.key?.amountCents,
          });
      if (outcome.outcome === 'refused') {
        const cap = (outcome.scope === 'account' ? caps.account : caps.key) as SpendCap;
        throw capExceeded(cap, await store.counter(accountId, environment, cap.scope, month), fee, month);
      }
      const held = outcome.outcome === 'held_before' ? outcome.reservation : reservation;
      const capped = [caps.account, caps.key].filter((cap): cap is SpendCap => cap !== undefined);
      return {
        // The purchase is done: a failure here leaves the hold open, for the sweeper (sweep.ts).
        settle: async () => {
          try {
            await store.settle(held, (await ledgerFeesOf(store, held, purchase.requestId)) ?? 0);
            for (const cap of capped) await alertReached(store, cap, held.month, ports.clock.now());
          } catch (error) {
            logger.error('spend hold not settled', { key: held.requestId, error });
          }
        },
        release: async () => {
          await store.settle(held, 0);
        },
      };
    },
  };
}
