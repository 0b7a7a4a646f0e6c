/** The usage report: the fee ledger of the caller's key environment over a period of whole days. */
import type { FeeEntry, UsageLedger } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { type CursorCodec, pageOfArray } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import { usageRoutes } from './routes.ts';

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

/** Fees grouped by product, fee code and billability, in first-seen order. */
export function usageTotals(entries: readonly FeeEntry[]) {
  const totals = new Map<
    string,
    { product: string; feeCode: string | null; billable: boolean; quantity: number; entries: number }
  >();
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
  return [...totals.values()];
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
