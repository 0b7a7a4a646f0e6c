/**
 * The weekly job: each published weekly summary bought once for the platform (its fee is on the
 * platform's own ledger, `USAGE#platform#live`, never on a customer's: the purchase is the weekly
 * summaries capability's, exactly once, and a repeat returns the held summary without a fee),
 * then every item matched to the monitors of its company or person with one indexed read per
 * item. A run killed half-way is run again: the summary is held, and an item already matched
 * gives an event whose id exists, so nothing is written twice and the sequences stay gap-free.
 */
import { coded } from '../companies/present.ts';
import type { ExtractPurchases, HeldExtracts, PurchaseRecords } from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import { WEEKLY_ITEMS } from '../weekly-summaries/present.ts';
import { purchaseWeeklySummary } from '../weekly-summaries/purchase.ts';
import type { WeeklySummaryRegistry, WeeklySummaryType } from '../weekly-summaries/registry-port.ts';
import { type ApplyPorts, type FoundChange, recordChanges } from './changes.ts';
import { personNamesSubjectKey, personSubjectKey } from './person-match.ts';
import type { MonitoredCompany, MonitorRecord } from './store-port.ts';

/** Whose ledger the summaries' fees go on: the platform's, in the live environment. */
export const PLATFORM_OWNER: Owner = { accountId: 'platform', environment: 'live' };

/** The summaries the weekly job buys (new schemes add nothing a monitor watches). */
export const MONITORED_SUMMARIES: readonly WeeklySummaryType[] = [
  'new-registrations',
  'name-changes',
  'external-administrations',
  'licences-granted',
  'disqualified-directors',
];

export interface WeeklyJobPorts extends ApplyPorts {
  registry: WeeklySummaryRegistry;
  heldExtracts: HeldExtracts;
  extractPurchases: ExtractPurchases;
  purchaseRecords: PurchaseRecords;
}

/** A weekly summary item as the held summary stores it (presentWeeklySummaryItem). */
interface HeldItem {
  subType: { code: string; label: string };
  date: string;
  documentNumber: string | null;
  subject: {
    type: string;
    person: { familyName: string; givenNames: string[]; formatted: string } | null;
    birth: { date: string | null } | null;
  } | null;
  newName: string | null;
  licenceNumber: string | null;
  company:
    | (Record<string, unknown> & { acn: string | null; id?: string; name: string; type: { code: string } })
    | null;
}

const companyNumberOf = (item: HeldItem) => item.company?.acn ?? item.company?.id ?? null;

const monitoredFrom = (company: NonNullable<HeldItem['company']>, number: string): MonitoredCompany => ({
  number,
  numberType: (company.numberType as { code: string }).code,
  name: company.name,
  type: company.type.code,
  status: (company.status as { code: string }).code,
  abn: (company.abn as string | null) ?? null,
  registeredCharity: company.registeredCharity === true,
  schemeCategories: ((company.schemeCategories as { code: string }[] | undefined) ?? []).map((c) => c.code),
});

/** The change an item makes for a company monitor, or none. */
function companyItemChange(
  monitor: MonitorRecord,
  item: HeldItem,
  key: string,
  source: Record<string, unknown>,
): FoundChange | null {
  const code = item.subType.code;
  const known = monitor.known;
  const common = { key, knownAfter: known };
  const detail = { date: item.date, source };
  if (code === 'DRGD') return { ...common, type: 'company.deregistered', detail };
  if (code === 'REIN') return { ...common, type: 'company.reinstated', detail };
  if (code.startsWith('EX')) {
    return {
      ...common,
      type: 'company.external_administration',
      detail: { ...detail, appointee: item.subject },
    };
  }
  if (code === 'NAME' && item.newName !== null) {
    // The daily check may have seen it already: then there is nothing new.
    if (known && known.name === item.newName) return null;
    return {
      key,
      type: 'company.name_changed',
      detail: { ...detail, before: known?.name ?? item.company?.name ?? null, after: item.newName },
      knownAfter: known ? { ...known, name: item.newName } : null,
    };
  }
  if (code === 'CHGT' && item.company) {
    const after = item.company.type.code;
    if (known && known.type === after) return null;
    return {
      key,
      type: 'company.type_changed',
      detail: {
        ...detail,
        before: known ? coded('organisation-types', known.type) : null,
        after: coded('organisation-types', after),
      },
      knownAfter: known ? { ...known, type: after } : null,
    };
  }
  return null;
}

export interface WeeklyRunOptions {
  /** Test hook: stop (throw) once this many events are written, as a run killed half-way would. */
  crashAfter?: number;
}

export interface WeeklyRunOutcome {
  summaryId: string;
  /** True only when this run bought the summary (a re-run reads the held one). */
  bought: boolean;
  items: number;
  /** Index reads made to find monitors (at most one per item). */
  lookups: number;
  events: number;
}

/** Buys (once) and matches one weekly summary. */
export async function runWeeklySummary(
  ports: WeeklyJobPorts,
  type: WeeklySummaryType,
  weekStarting: string,
  options: WeeklyRunOptions = {},
): Promise<WeeklyRunOutcome> {
  const now = ports.now();
  const purchase = await purchaseWeeklySummary({
    owner: PLATFORM_OWNER,
    requestId: `mon_weekly_${type}_${weekStarting}`,
    clientReference: 'monitoring',
    recoveryKey: undefined,
    now,
    registry: ports.registry,
    heldExtracts: ports.heldExtracts,
    extractPurchases: ports.extractPurchases,
    purchaseRecords: ports.purchaseRecords,
    type,
    weekStarting,
    refresh: false,
  });
  const crashPoint = () => {
    if (options.crashAfter !== undefined && outcome.events >= options.crashAfter) {
      throw new Error(`weekly job stopped after ${outcome.events} events (test hook)`);
    }
  };
  const outcome: WeeklyRunOutcome = {
    summaryId: purchase.id,
    bought: purchase.billable,
    items: 0,
    lookups: 0,
    events: 0,
  };
  const source = (item: HeldItem) => ({
    kind: 'weekly_summary',
    summaryType: type,
    subType: item.subType,
    weekStarting,
    documentNumber: item.documentNumber,
  });
  for (let offset = 0; ; ) {
    const page = await ports.heldExtracts.readPage(purchase.id, WEEKLY_ITEMS, { offset, limit: 1000 });
    if (!page) throw new Error(`the items of weekly summary ${purchase.id} are missing`);
    const items = page.items as HeldItem[];
    for (const [i, item] of items.entries()) {
      const index = offset + i;
      const key = `weekly#${type}#${weekStarting}#${index}#${item.subType.code}`;
      outcome.items += 1;
      const number = companyNumberOf(item);
      if (item.company && number) {
        const code = item.subType.code;
        if (code === 'REGN' || code === 'MISM') continue;
        outcome.lookups += 1;
        const watchers = await ports.monitors.watchers('live', number);
        const company = monitoredFrom(item.company, number);
        for (const monitor of watchers) {
          const emitted = await recordChanges(
            ports,
            monitor,
            (current) => {
              const change = companyItemChange(current, item, key, source(item));
              return change ? [change] : [];
            },
            company,
            true,
          );
          outcome.events += emitted.length;
          crashPoint();
        }
        continue;
      }
      const person = item.subject?.person;
      if (!person) continue;
      const code = item.subType.code;
      const disqualified = code === 'DISQ';
      if (!disqualified && !code.startsWith('LC')) continue;
      const birthDate = item.subject?.birth?.date ?? null;
      outcome.lookups += 1;
      const watchers = await ports.monitors.watchers(
        'live',
        birthDate
          ? personSubjectKey({ familyName: person.familyName, givenNames: person.givenNames, birthDate })
          : personNamesSubjectKey(person.familyName, person.givenNames),
      );
      for (const monitor of watchers) {
        const emitted = await recordChanges(
          ports,
          monitor,
          () => [
            {
              key,
              type: disqualified ? 'person.disqualified' : 'person.licence_granted',
              detail: {
                date: item.date,
                match: birthDate ? 'names_and_birth_date' : 'names',
                ...(disqualified ? {} : { licenceNumber: item.licenceNumber }),
                source: source(item),
              },
              knownAfter: null,
            },
          ],
          null,
          true,
        );
        outcome.events += emitted.length;
        crashPoint();
      }
    }
    offset += items.length;
    if (items.length === 0 || offset >= page.total) break;
  }
  return outcome;
}
