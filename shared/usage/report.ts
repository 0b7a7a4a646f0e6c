/** The usage report: the fee ledger of the caller's key environment over a period of whole days. */
import type { FeeEntry, UsageLedger } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { type CursorCodec, pageOfArray } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import { MONITORING_PRICE_CENTS_PER_COMPANY_DAY, MONITORING_PRODUCT } from '../monitoring/settings.ts';
import { usageRoutes } from './routes.ts';

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

/** What a total of our own products costs: unit price and amount in cents (registry fees have none). */
export interface UsagePrice {
  unit: 'monitor_day';
  unitAmountCents: number;
  amountCents: number;
}

export interface UsageTotal {
  product: string;
  feeCode: string | null;
  billable: boolean;
  quantity: number;
  entries: number;
  price?: UsagePrice;
}

/**
 * The price of a total: monitoring (our product) at its named setting per monitored company-day,
 * for billable (live) entries only; a test key's monitoring and the registry's fees carry none.
 */
function priceOf(total: UsageTotal): UsagePrice | undefined {
  if (total.product !== MONITORING_PRODUCT || !total.billable) return undefined;
  return {
    unit: 'monitor_day',
    unitAmountCents: MONITORING_PRICE_CENTS_PER_COMPANY_DAY,
    amountCents: total.quantity * MONITORING_PRICE_CENTS_PER_COMPANY_DAY,
  };
}

/** Fees grouped by product, fee code and billability, in first-seen order; monitoring with its price. */
export function usageTotals(entries: readonly FeeEntry[]): UsageTotal[] {
  const totals = new Map<string, UsageTotal>();
  for (const entry of entries) {
    const key = `${entry.product}#${entry.feeCode}#${entry.billable}`;
    const total = totals.get(key) ?? {
      product: entry.product,
      feeCode: entry.feeCode,
      billable: entry.billable,
      quantity: 0,
      entries: 0,
    };
    total.quantity += entry.quantity;
    total.entries += 1;
    totals.set(key, total);
  }
  return [...totals.values()].map((total) => {
    const price = priceOf(total);
    return price === undefined ? total : { ...total, price };
  });
}

/** From the first of this month to today (UTC) unless given; `from` may not be later than `to`. */
export function usagePeriod(query: { from?: string | undefined; to?: string | undefined }, now: Date) {
  const today = now.toISOString().slice(0, 10);
  const from = query.from ?? `${today.slice(0, 8)}01`;
  const to = query.to ?? today;
  if (from > to) throw new ApiError('validation_error', { param: 'from', message: 'from is later than to.' });
  return { from, to };
}

export interface UsageRequest {
  ledger: UsageLedger;
  cursors: CursorCodec;
  owner: Owner;
  now: Date;
  query: {
    from?: string | undefined;
    to?: string | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  };
}

/** One page of the period's fee entries, with the period and the totals of all of them. */
export async function usageReport({ ledger, cursors, owner, now, query }: UsageRequest) {
  const { from, to } = usagePeriod(query, now);
  const entries = await ledger.entries(
    owner.accountId,
    owner.environment,
    `${from}T00:00:00.000Z`,
    dayAfter(to),
  );
  const page = await pageOfArray(
    entries,
    pageRequest({ cursors }, usageRoutes.getUsage, owner, query, { from, to }),
  );
  return { page, from, to, totals: usageTotals(entries) };
}
