/**
 * The weekly-summaries capability over the dataset: the registry's rules (WS01, WS02, WS51, an
 * empty week, pages of items with a continuation). The summaries themselves come from a
 * `WeeklySummarySource`: the simulator's generated weeks (local/generated-weekly-summaries.ts).
 * The sandbox has none, so for test keys every call is ZZ54 (`sandbox_product_unavailable`).
 */

import { type DatasetContext, DatasetPart } from '../../adapters/sandbox/lookups.ts';
import { toTimestamp } from '../../kernel/clock.ts';
import { type IsoDate, type RegistryCaller, RegistryRejection } from '../../kernel/registry-port.ts';
import {
  isWeeklySummaryType,
  type RegistryWeeklySummary,
  type RegistryWeeklySummaryItem,
  type RegistryWeeklySummaryPage,
  type WeeklySummaryRegistry,
  type WeeklySummaryType,
} from '../registry-port.ts';
import { isMonday, weekEndingOf, weeksAgo } from '../weeks.ts';

/** A produced summary's items (in the registry's order) and, for new registrations, its postcode totals. */
export interface SourceWeek {
  items: readonly RegistryWeeklySummaryItem[];
  postcodeTotals: { postcode: string; count: number }[] | null;
}

/** Where the registry's weekly summaries come from: a week it did not produce is `unpublished`. */
export interface WeeklySummarySource {
  week(type: WeeklySummaryType, weekStarting: IsoDate, now: Date): SourceWeek | 'unpublished';
  /** Changes when the source's weeks do (the simulator's register changes): weeks asked before are built again. */
  version?(): number;
}

/** Items per page of the registry's answers (the purchase's first page and each continuation). */
export const REGISTRY_WEEKLY_PAGE = 5_000;
/** The registry keeps the last 52 completed weeks. */
export const REGISTRY_WEEKLY_WINDOW_WEEKS = 52;

interface Continuation {
  type: WeeklySummaryType;
  weekStarting: IsoDate;
  offset: number;
}

const encodeContinuation = (value: Continuation) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decodeContinuation(token: string): Continuation {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Continuation;
    if (isWeeklySummaryType(value.type) && isMonday(value.weekStarting) && Number.isInteger(value.offset)) {
      return value;
    }
  } catch {}
  throw new RegistryRejection('WS53', 'The continuation is not one this registry issued.');
}

export class DatasetWeeklySummaries extends DatasetPart implements WeeklySummaryRegistry {
  /** The last weeks asked for: paging through a large week does not rebuild it per page. */
  private readonly recent = new Map<string, SourceWeek | 'unpublished'>();

  constructor(
    context: DatasetContext,
    private readonly source: WeeklySummarySource | undefined,
  ) {
    super(context);
  }

  async purchaseWeeklySummary(
    query: { type: WeeklySummaryType; weekStarting: IsoDate },
    _caller: RegistryCaller,
    _clientKey: string,
  ): Promise<RegistryWeeklySummary> {
    const week = this.weekOf(query.type, query.weekStarting);
    return {
      type: query.type,
      weekStarting: query.weekStarting,
      weekEnding: weekEndingOf(query.weekStarting),
      asOf: toTimestamp(this.now()),
      totalCount: week.items.length,
      postcodeTotals: week.postcodeTotals ? week.postcodeTotals.map((total) => ({ ...total })) : null,
      ...pageOf(week, { type: query.type, weekStarting: query.weekStarting, offset: 0 }),
    };
  }

  async weeklySummaryItems(
    continuation: string,
    _caller: RegistryCaller,
  ): Promise<RegistryWeeklySummaryPage> {
    const position = decodeContinuation(continuation);
    return pageOf(this.weekOf(position.type, position.weekStarting), position);
  }

  private weekOf(type: unknown, weekStarting: unknown): SourceWeek {
    if (!this.source) {
      throw new RegistryRejection('ZZ54', 'The sandbox does not serve weekly summaries; use a live key.');
    }
    if (!isWeeklySummaryType(type)) throw new RegistryRejection('WS01', 'Unknown weekly summary type.');
    const now = this.now();
    if (typeof weekStarting !== 'string' || !isMonday(weekStarting)) {
      throw new RegistryRejection('WS02', 'weekStarting must be a Monday.');
    }
    const ago = weeksAgo(weekStarting, now);
    if (ago < 0) throw new RegistryRejection('WS02', 'That week has not started.');
    if (ago > REGISTRY_WEEKLY_WINDOW_WEEKS) {
      throw new RegistryRejection('WS02', 'The registry keeps the last 52 weeks of summaries.');
    }
    // The current week is not complete, so not produced yet.
    if (ago === 0)
      throw new RegistryRejection('WS51', 'The summary of the current week is not produced yet.');
    const key = `${type}#${weekStarting}#${this.source.version?.() ?? 0}`;
    let week = this.recent.get(key);
    if (!week) {
      week = this.source.week(type, weekStarting, now);
      this.recent.set(key, week);
      if (this.recent.size > 4) this.recent.delete(this.recent.keys().next().value as string);
    }
    if (week === 'unpublished') {
      throw new RegistryRejection(
        'WS51',
        `The ${type} summary of the week of ${weekStarting} was not produced.`,
      );
    }
    return week;
  }
}

function pageOf(week: SourceWeek, position: Continuation): RegistryWeeklySummaryPage {
  const end = position.offset + REGISTRY_WEEKLY_PAGE;
  return {
    items: week.items.slice(position.offset, end).map((item) => structuredClone(item)),
    continuation: end < week.items.length ? encodeContinuation({ ...position, offset: end }) : null,
  };
}
