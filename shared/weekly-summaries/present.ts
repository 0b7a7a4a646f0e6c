/**
 * Weekly summary extracts as the API shows them (spec document 1, 2.7): the stored summary (the
 * extract without its items), one page of items read from the paged list, and the postcode totals.
 */

import { coded, presentCompanySummary, presentParty } from '../companies/present.ts';
import type { ExtractHeader, HeldExtracts } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import type { CursorCodec, CursorScope } from '../kernel/cursor.ts';
import type { RegistryWeeklySummaryItem } from './registry-port.ts';

/** The paged list holding a weekly summary's items. */
export const WEEKLY_ITEMS = 'items';
/** The route whose cursors page through a summary's items (the purchase and GET /v1/extracts/{id} issue them too). */
export const WEEKLY_ITEMS_ROUTE = 'GetWeeklySummary';
/** Items on a purchase's response and on GET /v1/extracts/{id}. */
export const FIRST_PAGE_ITEMS = 20;

export type PostcodeTotals = { postcode: string; count: number }[] | null;

/** The scope of a cursor over one summary's items, with or without a postcode. */
export const itemsCursorScope = (id: string, postcode: string | undefined, owner: Owner): CursorScope => ({
  route: WEEKLY_ITEMS_ROUTE,
  filters: { id, postcode },
  owner: { accountId: owner.accountId, environment: owner.environment },
});

/** One item as stored and shown: only the fields its type populates are non-null. */
export function presentWeeklySummaryItem(item: RegistryWeeklySummaryItem) {
  return {
    object: 'weeklySummaryItem' as const,
    subType: coded('weekly-summary-sub-types', item.subType),
    date: item.date,
    postcode: item.postcode,
    documentNumber: item.documentNumber,
    subject: item.subject ? presentParty(item.subject) : null,
    newName: item.newName,
    licenceNumber: item.licenceNumber,
    company: item.company
      ? {
          ...presentCompanySummary(item.company),
          class: item.company.class === null ? null : coded('organisation-classes', item.company.class),
          subClass:
            item.company.subClass === null ? null : coded('organisation-sub-classes', item.company.subClass),
        }
      : null,
  };
}

export interface ItemsRange {
  postcode: string | undefined;
  offset: number;
  limit: number;
  /** The cursor of the page after this one. */
  encodeNext(offset: number): Promise<string>;
}

/** The extract with one page of items (filtered by postcode when given). */
export async function presentWeeklySummary(
  store: Pick<HeldExtracts, 'readPage'>,
  extract: Pick<ExtractHeader, 'id' | 'summary'>,
  range: ItemsRange,
) {
  const page = await store.readPage(extract.id, WEEKLY_ITEMS, {
    offset: range.offset,
    limit: range.limit,
    ...(range.postcode === undefined ? {} : { key: range.postcode }),
  });
  if (!page) throw new Error(`the items of weekly summary ${extract.id} are missing`);
  const next = range.offset + page.items.length;
  const hasMore = next < page.total;
  const totals = page.attachment as PostcodeTotals;
  return {
    ...(extract.summary as Record<string, unknown>),
    postcode: range.postcode ?? null,
    items: {
      object: 'list' as const,
      data: page.items,
      hasMore,
      nextCursor: hasMore ? await range.encodeNext(next) : null,
      totalCount: page.total,
    },
    postcodeTotals:
      totals && range.postcode !== undefined
        ? totals.filter((total) => total.postcode === range.postcode)
        : totals,
  };
}

/**
 * The extract with its first page of items, never the whole list (a purchase, its replay and
 * GET /v1/extracts/{id}); the cursor continues on GET /v1/weekly-summaries/{id}.
 */
export const presentFirstItemsPage = (
  read: { store: Pick<HeldExtracts, 'readPage'>; cursors: CursorCodec; owner: Owner },
  extract: { id: string; summary: Record<string, unknown> },
) =>
  presentWeeklySummary(read.store, extract, {
    postcode: undefined,
    offset: 0,
    limit: FIRST_PAGE_ITEMS,
    encodeNext: (next) => read.cursors.encode(itemsCursorScope(extract.id, undefined, read.owner), next),
  });
