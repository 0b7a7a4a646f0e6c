/**
 * The monitor list as CSV (`GET /v1/monitors` with `Accept: text/csv`): the same page, filters
 * and cursor as the JSON list, one monitor a line. RFC 4180: CRLF line ends, a field quoted when
 * it holds a comma, a quote or a line break, quotes doubled. Safe to open in a spreadsheet: a cell
 * that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so no
 * cell is taken for a formula (and so is one where apostrophes come before such a start, so that
 * `fromCsvCell` can tell the prefix from a name's own apostrophe). The first five columns are the
 * import's and the import ignores the others, so a list exported this way imports again as it is.
 */
import { csvCell } from '../kernel/csv.ts';

import type { MonitorRecord } from './store-port.ts';

/** The columns an import reads. */
export const IMPORT_CSV_COLUMNS = ['company', 'familyName', 'givenNames', 'birthDate', 'eventTypes'] as const;

export const MONITOR_CSV_COLUMNS = [
  ...IMPORT_CSV_COLUMNS,
  'id',
  'kind',
  'companyName',
  'companyStatus',
  'sequence',
  'livemode',
  'createdAt',
  'updatedAt',
] as const;

/** What each column holds, for the contract and the guide. */
export const MONITOR_CSV_DESCRIPTION =
  "With `Accept: text/csv` (preferred over application/json by its q value): the same page as the JSON list (same `company`, `limit` and `cursor`), one monitor a line after a header line naming the columns company (the watched ACN, ARBN or ARSN), familyName, givenNames (space-separated), birthDate, eventTypes (`|`-separated), id, kind, companyName and companyStatus (as the last check saw them; empty before an imported monitor's first check), sequence, livemode, createdAt, updatedAt. RFC 4180 quoting with CRLF line ends; a cell starting with =, +, -, @, a tab or a carriage return (or with apostrophes before one) is prefixed with ' (no spreadsheet formula). POST /v1/monitors/imports takes this CSV as it is: it ignores the columns after eventTypes and takes off the ' prefix. The next page's cursor is in the `X-Next-Cursor` header (absent on the last page), the list's size in `X-Total-Count`.";

export function monitorCsvRow(monitor: MonitorRecord): string[] {
  return [
    monitor.kind === 'company' ? monitor.subjectKey : '',
    monitor.person?.familyName ?? '',
    monitor.person?.givenNames.join(' ') ?? '',
    monitor.person?.birthDate ?? '',
    monitor.eventTypes.join('|'),
    monitor.id,
    monitor.kind,
    monitor.company?.name ?? '',
    monitor.company?.status ?? '',
    String(monitor.sequence),
    String(monitor.environment === 'live'),
    monitor.createdAt,
    monitor.updatedAt,
  ];
}

export function monitorsCsv(monitors: readonly MonitorRecord[]): string {
  const lines = [[...MONITOR_CSV_COLUMNS], ...monitors.map(monitorCsvRow)];
  return lines.map((fields) => `${fields.map(csvCell).join(',')}\r\n`).join('');
}

/**
 * Whether the `Accept` header prefers text/csv to application/json (RFC 9110 quality values;
 * the more specific range wins a tie, JSON wins an exact tie, and no header means JSON).
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const quality = (type: string) => {
    let best = -1;
    let specificity = -1;
    for (const part of accept.split(',')) {
      const [range = '', ...params] = part.trim().toLowerCase().split(';');
      const [main, sub] = range.trim().split('/');
      const [wantMain, wantSub] = type.split('/');
      const level =
        main === wantMain && sub === wantSub
          ? 2
          : main === wantMain && sub === '*'
            ? 1
            : main === '*'
              ? 0
              : -1;
      if (level < specificity || level === -1) continue;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const value = q === undefined ? 1 : Number(q.slice(2));
      if (level > specificity || value > best) {
        specificity = level;
        best = Number.isFinite(value) ? value : 0;
      }
    }
    return best;
  };
  const csv = quality('text/csv');
  return csv > 0 && csv > quality('application/json');
}
