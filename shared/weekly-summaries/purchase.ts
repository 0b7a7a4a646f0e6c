/**
 * Buying a weekly summary (spec document 2, 4.10) exactly once, on the model of company extracts
 * (shared/companies/extracts.ts): the request is checked before any registry call, a held summary of
 * the same type and week is returned without a fee unless `refresh`, and otherwise the purchase is
 * recorded before the registry is asked, with a client key derived from the purchase's key.
 *
 * Without `refresh` the purchase's key is derived from the owner, type and week (not from the
 * Idempotency-Key): concurrent identical purchases, whatever their keys, share one record, one
 * client key and one extract id, so the registry bills once and one commit writes the fee; the
 * others answer the same extract with `meta.billable` false. With `refresh` the key comes from the
 * Idempotency-Key (random without one): each refresh is a purchase of its own.
 *
 * The registry answers with the first page of items and a continuation; the rest is read with the
 * free page operation before the items are stored in the extract's paged list.
 */
import './errors.ts';
import { createHash } from 'node:crypto';
import { EXTRACT_DISCLAIMER } from '../companies/extracts.ts';
import { coded } from '../companies/present.ts';
import { weeklySummaryProduct } from '../companies/products.ts';
import {
  buyOnce,
  commitWithRetries,
  extractExpiry,
  feeEntryFor,
  headerFor,
  isUnexpired,
  newPurchaseRecord,
  ownerOf,
  type PurchaseContext,
} from '../extracts/lifecycle.ts';
import type { ExtractPurchases, PurchaseRecord } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { isCalendarDate, toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { RegistryCaller } from '../kernel/registry-port.ts';
import { presentWeeklySummaryItem, WEEKLY_ITEMS } from './present.ts';
import {
  isWeeklySummaryType,
  type RegistryWeeklySummary,
  type WeeklySummaryRegistry,
  type WeeklySummaryType,
  weeklySummaryTypeCodes,
  weeklySummaryTypes,
} from './registry-port.ts';
import { isCompletedWeek, isMonday, isWithinTwelveMonths, weekEndingOf } from './weeks.ts';

/** What a weekly summary purchase asked the registry, as its record keeps it. */
interface WeeklySummaryAsked {
  type: WeeklySummaryType;
  weekStarting: string;
}

/** The key under which an account's summaries of one type and week are held. */
export const weeklySubjectKey = (type: WeeklySummaryType, weekStarting: string) => `${type}#${weekStarting}`;

/** The spec's rules on `type` and `weekStarting`, before anything is asked of anyone. */
export function checkWeeklySummaryRequest(type: string, weekStarting: string, now: Date): WeeklySummaryType {
  if (!isWeeklySummaryType(type)) {
    throw new ApiError('summary_type_invalid', {
      param: 'type',
      message: `type must be one of ${weeklySummaryTypes.join(', ')}.`,
    });
  }
  const invalid = (message: string) => new ApiError('week_start_invalid', { param: 'weekStarting', message });
  if (!isCalendarDate(weekStarting)) throw invalid('weekStarting must be a date YYYY-MM-DD.');
  if (!isMonday(weekStarting)) throw invalid(`${weekStarting} is not a Monday; weeks start on Mondays.`);
  if (!isCompletedWeek(weekStarting, now)) {
    throw invalid(
      `The week starting ${weekStarting} has not ended; summaries exist for completed weeks only.`,
    );
  }
  if (!isWithinTwelveMonths(weekStarting, now)) {
    throw invalid(`${weekStarting} is more than 12 months ago; summaries are sold for the last 12 months.`);
  }
  return type;
}

export interface WeeklySummaryPurchaseInput extends PurchaseContext<WeeklySummaryRegistry> {
  type: string;
  weekStarting: string;
  refresh: boolean;
}

export interface WeeklySummaryPurchase {
  id: string;
  summary: Record<string, unknown>;
  /** True only when this call was charged (the registry billed it and this call committed the fee). */
  billable: boolean;
}

export async function purchaseWeeklySummary(
  input: WeeklySummaryPurchaseInput,
): Promise<WeeklySummaryPurchase> {
  const { heldExtracts, extractPurchases, purchaseRecords, owner, now } = input;
  const type = checkWeeklySummaryRequest(input.type, input.weekStarting, now);
  const subjectKey = weeklySubjectKey(type, input.weekStarting);
  if (!input.refresh) {
    const held = await heldExtracts.heldForSubject(
      owner.accountId,
      owner.environment,
      'weeklySummary',
      subjectKey,
    );
    const usable = held.find((ref) => isUnexpired(ref, now));
    if (usable) return { id: usable.id, summary: usable.summary, billable: false };
  }
  const key = input.refresh ? input.recoveryKey : sharedPurchaseKey(owner, subjectKey);
  const draft = key ? await extractPurchases.findDraft(key, now.toISOString()) : undefined;
  let record = draft?.record;
  if (!record?.answer) {
    record = await purchaseRecords.startPurchase(
      newPurchaseRecord({
        key,
        kind: 'weeklySummary',
        owner,
        requestId: input.requestId,
        clientReference: input.clientReference,
        now,
        asked: { type, weekStarting: input.weekStarting } satisfies WeeklySummaryAsked,
      }),
    );
  }
  if (!record.answer) {
    const caller = callerOf(record);
    const started = record;
    const bought = await buyOnce(purchaseRecords, started, 'weekStarting', () =>
      input.registry.purchaseWeeklySummary(
        { type, weekStarting: input.weekStarting },
        caller,
        started.clientKey,
      ),
    ).catch(outsideRegistryWindow);
    record = await storeWeeklySummary(bought, started, extractPurchases, input.registry);
  }
  const { header, fee } = record.answer as NonNullable<PurchaseRecord['answer']>;
  const wrote = await commitWithRetries(() => extractPurchases.commit(header, fee, record));
  return { id: header.id, summary: header.summary, billable: wrote && fee.billable };
}

/** Our window passed but the registry's (52 weeks) did not: the summary is not there to buy. */
function outsideRegistryWindow(error: unknown): never {
  if (error instanceof ApiError && error.code === 'week_start_invalid') {
    throw new ApiError('summary_unavailable', {
      param: 'weekStarting',
      message: 'The registry no longer keeps the summary of that week.',
    });
  }
  throw error;
}

const sharedPurchaseKey = (owner: Owner, subjectKey: string) =>
  `wsum_${createHash('sha256')
    .update(`${owner.accountId}\u0000${owner.environment}\u0000${subjectKey}`)
    .digest('hex')
    .slice(0, 32)}`;

const callerOf = (record: PurchaseRecord): RegistryCaller => ({
  accountId: record.accountId,
  requestId: record.requestId,
  clientReference: record.clientReference,
});

/**
 * Reads the rest of a bought summary's items, stores them in the extract's paged list and the
 * record with what its commit writes. (The purchase and the sweeper both store it.)
 */
export async function storeWeeklySummary(
  bought: RegistryWeeklySummary,
  record: PurchaseRecord,
  extractPurchases: ExtractPurchases,
  registry: WeeklySummaryRegistry,
): Promise<PurchaseRecord> {
  const asked = record.asked as unknown as WeeklySummaryAsked;
  const items = bought.items.map(presentWeeklySummaryItem);
  for (let continuation = bought.continuation; continuation; ) {
    const page = await registry.weeklySummaryItems(continuation, callerOf(record));
    for (const item of page.items) items.push(presentWeeklySummaryItem(item));
    continuation = page.continuation;
  }
  const expiresAt = toTimestamp(extractExpiry(new Date(record.purchasedAt)));
  const summary = {
    object: 'extract',
    id: record.extractId,
    kind: 'weeklySummary',
    type: asked.type,
    subject: null,
    summaryType: coded('weekly-summary-types', weeklySummaryTypeCodes[asked.type]),
    weekStarting: asked.weekStarting,
    weekEnding: weekEndingOf(asked.weekStarting),
    purchasedAt: record.purchasedAt,
    asOf: toTimestamp(new Date(bought.asOf)),
    expiresAt,
    clientReference: record.clientReference,
    disclaimer: EXTRACT_DISCLAIMER,
  };
  await extractPurchases.savePagedList(
    record.extractId,
    WEEKLY_ITEMS,
    {
      items,
      keyOf: (item) => (item as { postcode: string | null }).postcode,
      attachment: bought.postcodeTotals,
    },
    expiresAt,
  );
  const header = headerFor(summary, {
    owner: ownerOf(record),
    requestId: record.requestId,
    kind: 'weeklySummary',
    subjectKey: weeklySubjectKey(asked.type, asked.weekStarting),
  });
  const fee = feeEntryFor(header, {
    product: weeklySummaryProduct.product,
    feeCode: weeklySummaryProduct.feeCodes[asked.type],
  });
  const answered = { ...record, answer: { header, fee, batch: false } };
  await extractPurchases.saveSections(record.extractId, {}, expiresAt, answered);
  return answered;
}
