/**
 * The registry simulator's weekly summaries: generated, deterministic for a type and week, and
 * relative to the simulator's clock (documented in docs/sandbox.md, "Weekly summaries"):
 *
 * - every completed week of the registry's 52-week window has every summary, with 25 to 45 items
 *   (the same items whenever the week is asked for);
 * - two weeks ago (`WEEKLY_CASES.largeWeeksAgo`): new-registrations holds 20,000 items across 400
 *   postcodes, a fifth of them in the first one, 2000 (the other types stay small);
 * - three weeks ago (`WEEKLY_CASES.emptyWeeksAgo`): every summary is empty (a purchase, totalCount 0);
 * - six weeks ago (`WEEKLY_CASES.unpublishedWeeksAgo`): no summary was produced (WS51), as for
 *   the current week, which is never complete.
 *
 * Last week's new-registrations starts with an item of the sub-type `RENX`, which the code tables
 * do not know (shown with label = code).
 */

import type { IsoDate, RegistryParty } from '../shared/kernel/registry-port.ts';
import type { SourceWeek, WeeklySummarySource } from '../shared/weekly-summaries/adapters/sandbox.ts';
import type {
  RegistryWeeklyCompany,
  RegistryWeeklySummaryItem,
  WeeklySummaryType,
} from '../shared/weekly-summaries/registry-port.ts';
import { isoDateOf, weeksAgo } from '../shared/weekly-summaries/weeks.ts';
import { mulberry32 } from './generated-data.ts';

export const WEEKLY_CASES = {
  largeWeeksAgo: 2,
  largeType: 'new-registrations' as WeeklySummaryType,
  largeCount: 20_000,
  largePostcodes: 400,
  emptyWeeksAgo: 3,
  unpublishedWeeksAgo: 6,
  /** Sub-type of the first item of last week's new-registrations, unknown to the code tables. */
  unknownSubType: 'RENX',
} as const;

const SUB_TYPES: Record<WeeklySummaryType, readonly string[]> = {
  'new-registrations': ['REGN', 'REGN', 'REGN', 'REIN', 'DRGD', 'CHGT'],
  'name-changes': ['NAME'],
  'external-administrations': ['EXAC', 'EXAD', 'EXAL', 'EXCQ', 'EXRQ', 'EXRC', 'EXMN', 'DRGD'],
  'licences-granted': ['LCRA', 'LCRQ', 'LCOQ', 'LCFL', 'LCSD', 'LCIA', 'LCFB', 'LCFD'],
  'disqualified-directors': ['DISQ'],
  'new-schemes': ['MISM'],
};

const WORDS = ['ACACIA', 'BASALT', 'CORAL', 'DINGO', 'EMU', 'FERN', 'GUM', 'HARBOUR', 'IRONBARK', 'JARRAH'];
const ENDINGS = ['HOLDINGS', 'PROPERTY', 'TRADING', 'SERVICES', 'CAPITAL', 'LOGISTICS'];
const FAMILY = ['NGUYEN', 'WILLIAMS', 'BROWN', 'WILSON', 'TAYLOR', 'MARTIN', 'ANDERSON', 'THOMPSON'];
const GIVEN = ['ALEX', 'JORDAN', 'SAM', 'CHRIS', 'TAYLOR', 'JAMIE', 'ROBIN', 'MORGAN'];
const LOCALITIES = ['SYDNEY', 'MELBOURNE', 'HOBART', 'PERTH', 'DARWIN', 'ADELAIDE'];

const hash = (text: string) => {
  let h = 2_166_136_261;
  for (const char of text) h = Math.imul(h ^ char.charCodeAt(0), 16_777_619) >>> 0;
  return h;
};

/** A nine-digit number with a valid ACN check digit, from a serial. */
function acnOf(serial: number): string {
  const body = String(serial % 100_000_000).padStart(8, '0');
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (8 - index), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

class Week {
  readonly random: () => number;
  constructor(
    readonly type: WeeklySummaryType,
    readonly monday: IsoDate,
  ) {
    this.random = mulberry32(hash(`${type}#${monday}`));
  }
  int(min: number, max: number) {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)] as T;
  }
  day(): IsoDate {
    return isoDateOf(new Date(Date.parse(`${this.monday}T00:00:00Z`) + this.int(0, 6) * 86_400_000));
  }
  documentNumber(): string {
    return `${this.int(1, 9)}${String(this.int(0, 99_999_999)).padStart(8, '0')}`;
  }
  person(birth: boolean): RegistryParty {
    return {
      type: 'person',
      person: { familyName: this.pick(FAMILY), givenNames: [this.pick(GIVEN)] },
      birth: birth
        ? {
            date: `19${this.int(50, 99)}-0${this.int(1, 9)}-1${this.int(0, 9)}`,
            locality: this.pick(LOCALITIES),
            stateOrCountry: 'NSW',
          }
        : null,
      organisation: null,
    };
  }
  company(serial: number, scheme = false): RegistryWeeklyCompany {
    const name = `${this.pick(WORDS)} ${this.pick(ENDINGS)} ${scheme ? 'FUND' : 'PTY LTD'}`;
    return {
      number: acnOf(hash(`${this.monday}#${serial}`)),
      numberType: scheme ? 'ARSN' : 'ACN',
      name,
      type: scheme ? 'MISM' : this.pick(['APTY', 'APTY', 'APUB']),
      class: scheme ? this.pick(['EQUT', 'PROP']) : 'LMSH',
      subClass: scheme ? null : this.pick(['PROP', 'PROP', 'ULST']),
      status: 'REGD',
      abn: null,
      registeredCharity: false,
      schemeCategories: scheme ? [this.pick(['MTGE', 'REAL', 'OTHR'])] : [],
    };
  }
}

const blank = (subType: string, date: IsoDate): RegistryWeeklySummaryItem => ({
  subType,
  date,
  postcode: null,
  documentNumber: null,
  subject: null,
  newName: null,
  licenceNumber: null,
  company: null,
});

function itemOf(week: Week, index: number, postcodes: readonly string[]): RegistryWeeklySummaryItem {
  const item = blank(week.pick(SUB_TYPES[week.type]), week.day());
  switch (week.type) {
    case 'new-registrations':
      return {
        ...item,
        company: week.company(index),
        // A fifth of them in the first postcode: the busiest one spans many pages.
        postcode: week.random() < 0.2 ? (postcodes[0] as string) : week.pick(postcodes),
        documentNumber: week.documentNumber(),
      };
    case 'name-changes': {
      const company = week.company(index);
      return {
        ...item,
        company,
        subject: {
          type: 'organisation',
          person: null,
          birth: null,
          organisation: { number: company.number, numberType: 'ACN', name: company.name, abn: null },
        },
        newName: `${week.pick(WORDS)} ${week.pick(WORDS)} PTY LTD`,
        documentNumber: week.documentNumber(),
      };
    }
    case 'external-administrations':
      return {
        ...item,
        company: week.company(index),
        subject: week.person(false),
        documentNumber: week.documentNumber(),
      };
    case 'licences-granted':
      return { ...item, subject: week.person(false), licenceNumber: String(week.int(100_000, 999_999)) };
    case 'disqualified-directors':
      return { ...item, subject: week.person(true), documentNumber: week.documentNumber() };
    case 'new-schemes':
      return { ...item, company: week.company(index, true), postcode: week.pick(postcodes) };
  }
}

/** Postcodes 2000, 2003, 2006… (several hundred when asked for). */
const postcodeList = (count: number, week: Week) =>
  Array.from({ length: count }, (_, i) => String(2000 + i * 3 + (week.type === 'new-schemes' ? 1 : 0)));

export function generateWeek(
  type: WeeklySummaryType,
  monday: IsoDate,
  now: Date,
): SourceWeek | 'unpublished' {
  const ago = weeksAgo(monday, now);
  if (ago === WEEKLY_CASES.unpublishedWeeksAgo) return 'unpublished';
  const week = new Week(type, monday);
  const large = ago === WEEKLY_CASES.largeWeeksAgo && type === WEEKLY_CASES.largeType;
  const count = ago === WEEKLY_CASES.emptyWeeksAgo ? 0 : large ? WEEKLY_CASES.largeCount : week.int(25, 45);
  const postcodes = postcodeList(large ? WEEKLY_CASES.largePostcodes : 8, week);
  const items = Array.from({ length: count }, (_, index) => itemOf(week, index, postcodes));
  if (large) {
    // Every postcode appears at least once.
    items.forEach((item, index) => {
      if (index < postcodes.length) item.postcode = postcodes[index] as string;
    });
  }
  if (ago === 1 && type === 'new-registrations' && items[0]) items[0].subType = WEEKLY_CASES.unknownSubType;
  let postcodeTotals: SourceWeek['postcodeTotals'] = null;
  if (type === 'new-registrations') {
    const counts = new Map<string, number>();
    for (const item of items)
      counts.set(item.postcode as string, (counts.get(item.postcode as string) ?? 0) + 1);
    postcodeTotals = [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([postcode, total]) => ({ postcode, count: total }));
  }
  return { items, postcodeTotals };
}

/** The simulator's source of weekly summaries. */
export const simulatorWeeklySummaries: WeeklySummarySource = { week: generateWeek };
