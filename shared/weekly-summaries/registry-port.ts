/**
 * The weekly-summaries capability (WS): the registry's weekly reports of new registrations, name
 * changes, external administrations, licences granted, disqualified directors and new schemes
 * (spec document 1, 2.7; document 2, 4.10).
 *
 * A summary can hold tens of thousands of items, so the purchase answers with the summary's
 * header, its first page of items and a continuation; the rest is read with the free
 * `weeklySummaryItems` (docs/registry-protocol.md, "Weekly summaries").
 */
import {
  type IsoDate,
  type IsoTimestamp,
  methodsOf,
  type RegistryCaller,
  type RegistryCompany,
  type RegistryParty,
} from '../kernel/registry-port.ts';

export const weeklySummaryTypes = [
  'new-registrations',
  'name-changes',
  'external-administrations',
  'licences-granted',
  'disqualified-directors',
  'new-schemes',
] as const;
export type WeeklySummaryType = (typeof weeklySummaryTypes)[number];

export const isWeeklySummaryType = (value: unknown): value is WeeklySummaryType =>
  (weeklySummaryTypes as readonly unknown[]).includes(value);

/** The weekly-summary-types code of each slug. */
export const weeklySummaryTypeCodes = {
  'new-registrations': 'RE',
  'name-changes': 'NA',
  'external-administrations': 'EX',
  'licences-granted': 'LC',
  'disqualified-directors': 'DI',
  'new-schemes': 'MI',
} as const satisfies Record<WeeklySummaryType, string>;

/** The company of a weekly summary item: the summary fields plus class and sub-class. */
export type RegistryWeeklyCompany = Pick<
  RegistryCompany,
  | 'number'
  | 'numberType'
  | 'name'
  | 'type'
  | 'class'
  | 'subClass'
  | 'status'
  | 'abn'
  | 'registeredCharity'
  | 'schemeCategories'
>;

/** One item as the registry sends it; fields a slug does not populate are null. */
export interface RegistryWeeklySummaryItem {
  /** weekly-summary-sub-types code (an unknown one is shown with label = code). */
  subType: string;
  date: IsoDate;
  postcode: string | null;
  documentNumber: string | null;
  subject: RegistryParty | null;
  newName: string | null;
  licenceNumber: string | null;
  company: RegistryWeeklyCompany | null;
}

/** A page of a summary's items and where the next one starts (null after the last). */
export interface RegistryWeeklySummaryPage {
  items: RegistryWeeklySummaryItem[];
  continuation: string | null;
}

export interface RegistryWeeklySummary extends RegistryWeeklySummaryPage {
  type: WeeklySummaryType;
  weekStarting: IsoDate;
  weekEnding: IsoDate;
  asOf: IsoTimestamp;
  /** Every item of the summary, across all pages. */
  totalCount: number;
  /** new-registrations only: items per postcode, in the registry's order. */
  postcodeTotals: { postcode: string; count: number }[] | null;
}

/** The weekly-summaries capability (WS). */
export interface WeeklySummaryRegistry {
  /**
   * Billable purchase of one weekly summary (fee 930A, B, D, E, F or G by type): its header and
   * first page of items. Rejects WS01 (type), WS02 (not the Monday of a completed week within the
   * registry's 52-week window) and WS51 (not produced); an empty week is a summary without items
   * (WS52 is never thrown). The sandbox rejects ZZ54: it serves no weekly summaries.
   */
  purchaseWeeklySummary(
    query: { type: WeeklySummaryType; weekStarting: IsoDate },
    caller: RegistryCaller,
    clientKey: string,
  ): Promise<RegistryWeeklySummary>;
  /** Free. The next page of a purchased summary's items, from the continuation of the previous one. */
  weeklySummaryItems(continuation: string, caller: RegistryCaller): Promise<RegistryWeeklySummaryPage>;
}

export const weeklySummaryRegistryMethods = methodsOf<WeeklySummaryRegistry>()([
  'purchaseWeeklySummary',
  'weeklySummaryItems',
]);

/** This capability's part of the registry port (shared/app/registry.ts). */
declare module '../kernel/registry-port.ts' {
  interface RegistryParts {
    weeklySummaries: WeeklySummaryRegistry;
  }
}
