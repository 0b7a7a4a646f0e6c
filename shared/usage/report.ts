/** The usage report: the fee ledger of the caller's key environment over a period of whole days. */
import type { UsageLedger } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { type CursorCodec, pageOfArray } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import type { FeeEntry } from '../kernel/ports/fee-ledger.ts';
import { type PriceSchedule, priceAt, stagePrices } from '../kernel/prices.ts';
import { MONITORING_PRODUCT } from '../monitoring/settings.ts';
import { PRODUCT_NAMES } from './prices.ts';
import * as usageRoutes from './routes.ts';

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

/** A fee entry with what it cost (or, on a test key, would have cost); null where no price is known. */
export interface PricedEntry extends Omit<FeeEntry, 'unitAmountCents' | 'priceVersion'> {
  unitAmountCents: number | null;
  amountCents: number | null;
  priceVersion: string | null;
}

/**
 * The entry's price: the one it recorded when written, else (entries written before prices were
 * recorded) the schedule's price in force at its time, which needs its fee code (test keys' old
 * entries have none, so only our own products are priced).
 */
export function priceEntry(entry: FeeEntry, schedule: PriceSchedule): PricedEntry {
  const price =
    entry.unitAmountCents !== undefined && entry.priceVersion !== undefined
      ? { unitAmountCents: entry.unitAmountCents, priceVersion: entry.priceVersion }
      : priceAt(schedule, entry.product, entry.feeCode, entry.at);
  return {
    ...entry,
    unitAmountCents: price?.unitAmountCents ?? null,
    amountCents: price === undefined ? null : price.unitAmountCents * entry.quantity,
    priceVersion: price?.priceVersion ?? null,
  };
}

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
  /** The sum of its entries' amounts; null when any of them has no price. */
  amountCents: number | null;
  price?: UsagePrice;
}

const addAmount = (sum: number | null, amount: number | null) =>
  sum === null || amount === null ? null : sum + amount;

/**
 * The monitoring price of a total (kept from before every product had one): its unit price as the
 * last entry recorded it, for billable (live) entries only.
 */
function monitoringPriceOf(total: UsageTotal, unitAmountCents: number | null): UsagePrice | undefined {
  if (total.product !== MONITORING_PRODUCT || !total.billable || unitAmountCents === null) return undefined;
  return { unit: 'monitor_day', unitAmountCents, amountCents: total.amountCents ?? 0 };
}

/** Fees grouped by product, fee code and billability, in first-seen order, with their amounts. */
export function usageTotals(entries: readonly PricedEntry[]): UsageTotal[] {
  const totals = new Map<string, { total: UsageTotal; unit: number | null }>();
  for (const entry of entries) {
    const key = `${entry.product}#${entry.feeCode}#${entry.billable}`;
    const slot = totals.get(key) ?? {
      total: {
        product: entry.product,
        feeCode: entry.feeCode,
        billable: entry.billable,
        quantity: 0,
        entries: 0,
        amountCents: 0,
      },
      unit: null,
    };
    slot.total.quantity += entry.quantity;
    slot.total.entries += 1;
    slot.total.amountCents = addAmount(slot.total.amountCents, entry.amountCents);
    slot.unit = entry.unitAmountCents;
    totals.set(key, slot);
  }
  return [...totals.values()].map(({ total, unit }) => {
    const price = monitoringPriceOf(total, unit);
    return price === undefined ? total : { ...total, price };
  });
}

/**
 * The period's amounts: in the schedule's currency, per product (with its name) and in total.
 * `billed` is false on test keys: the amounts are what the same use would have cost.
 */
export function usageAmounts(entries: readonly PricedEntry[], schedule: PriceSchedule, billed: boolean) {
  const products = new Map<
    string,
    { product: string; name: string; quantity: number; entries: number; amountCents: number }
  >();
  let totalCents = 0;
  let unpricedEntries = 0;
  for (const entry of entries) {
    const sum = products.get(entry.product) ?? {
      product: entry.product,
      name: PRODUCT_NAMES[entry.product] ?? entry.product,
      quantity: 0,
      entries: 0,
      amountCents: 0,
    };
    sum.quantity += entry.quantity;
    sum.entries += 1;
    if (entry.amountCents === null) unpricedEntries += 1;
    else {
      sum.amountCents += entry.amountCents;
      totalCents += entry.amountCents;
    }
    products.set(entry.product, sum);
  }
  return {
    currency: schedule.currency,
    examplePrices: schedule.example,
    billed,
    totalCents,
    unpricedEntries,
    products: [...products.values()],
  };
}

/** One UTC day of the period with its entries: how many, their quantity and their priced amount. */
export interface UsageDay {
  date: string;
  entries: number;
  quantity: number;
  /** The day's priced entries, in cents (those with no known price left out, as in `totalCents`). */
  amountCents: number;
}

/**
 * The period's entries summed per UTC day, oldest first, only days that have entries: a chart of
 * the period is one request, however many entries it holds.
 */
export function usageDays(entries: readonly PricedEntry[]): UsageDay[] {
  const days = new Map<string, UsageDay>();
  for (const entry of entries) {
    const date = entry.at.slice(0, 10);
    const day = days.get(date) ?? { date, entries: 0, quantity: 0, amountCents: 0 };
    day.entries += 1;
    day.quantity += entry.quantity;
    day.amountCents += entry.amountCents ?? 0;
    days.set(date, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
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

/** One page of the period's fee entries, with the period and the totals of all of them, also per day. */
export async function usageReport({ ledger, cursors, owner, now, query }: UsageRequest) {
  const { from, to } = usagePeriod(query, now);
  const entries = await ledger.entries(
    owner.accountId,
    owner.environment,
    `${from}T00:00:00.000Z`,
    dayAfter(to),
  );
  const schedule = stagePrices();
  const priced = entries.map((entry) => priceEntry(entry, schedule));
  const page = await pageOfArray(
    priced,
    pageRequest({ cursors }, usageRoutes.getUsage, owner, query, { from, to }),
  );
  return {
    page,
    from,
    to,
    totals: usageTotals(priced),
    days: usageDays(priced),
    amounts: usageAmounts(priced, schedule, owner.environment === 'live'),
  };
}
