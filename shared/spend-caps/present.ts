/** A spend cap as the API shows it, with what its scope spent this month. */
import type { Environment } from '../kernel/api-keys.ts';
import type { PriceSchedule } from '../kernel/prices.ts';
import type { CapScope, SpendCap, SpendCounter } from './store-port.ts';

/** Alerts go out when a scope's spend reaches these percentages of its cap, once each a month. */
export const ALERT_THRESHOLDS = [50, 80, 100] as const;

/** The calendar month (UTC) a time falls in, `YYYY-MM`: what a cap limits. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** A scope's id in events and messages: `account`, or `key:<keyId>`. */
export const scopeName = (scope: CapScope) => (scope.kind === 'account' ? 'account' : `key:${scope.keyId}`);

/** `A$12.50`-free plain money for messages: `AUD 12.50`. */
export const money = (cents: number, currency: string) => `${currency} ${(cents / 100).toFixed(2)}`;

export function presentSpendCap(
  view: {
    environment: Environment;
    scope: CapScope;
    cap: SpendCap | undefined;
    counter: SpendCounter;
    month: string;
  },
  schedule: PriceSchedule,
) {
  const { cap, counter, scope } = view;
  return {
    object: 'spendCap' as const,
    scope: scope.kind,
    keyId: scope.kind === 'key' ? scope.keyId : null,
    amountCents: cap?.amountCents ?? null,
    currency: schedule.currency,
    month: view.month,
    spentCents: counter.spentCents,
    remainingCents: cap ? Math.max(0, cap.amountCents - counter.spentCents) : null,
    alertThresholds: [...ALERT_THRESHOLDS],
    alertsSent: [...counter.alerted].sort((a, b) => a - b),
    alertEmails: [...(cap?.alertEmails ?? [])],
    billed: view.environment === 'live',
    examplePrices: schedule.example,
    updatedAt: cap?.updatedAt ?? null,
  };
}

export type SpendCapView = ReturnType<typeof presentSpendCap>;
