/**
 * Bulk import of monitors: up to 100,000 rows as JSON (`rows`) or CSV (`csv`). Every row is
 * checked without the registry (identifier shape and check digits, person names, event types),
 * then against the file (a company or person twice), the account's monitors (already watched)
 * and the cap (the rows past it). `dryRun` answers each row's outcome and creates nothing; the
 * commit creates the rest, many to a transaction. Imported company monitors get their baseline
 * at the next daily check (reading 100,000 baselines would take the registry half an hour), which
 * records it without an event. A commit sent again creates nothing twice: with the same
 * Idempotency-Key it is answered as before, without one its rows are already watched.
 */
import type { Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { MonitoringEventType } from '../webhooks/event-port.ts';
import { checkMonitorRequest, type MonitorRequest, newMonitorId } from './monitors.ts';
import { personSubjectKey } from './person-match.ts';
import { MAX_IMPORT_ROWS, MONITOR_CAP } from './settings.ts';
import type { MonitorRecord, MonitorStore } from './store-port.ts';

export type RowOutcome =
  | 'created'
  | 'would_create'
  | 'already_watched'
  | 'invalid'
  | 'duplicate'
  | 'over_cap';

export interface RowReport {
  /** 1-based, as a spreadsheet counts the rows after the header. */
  row: number;
  outcome: RowOutcome;
  monitorId?: string;
  /** The row that named the same company or person first (`duplicate`). */
  duplicateOf?: number;
  error?: { code: string; param: string | null; message: string };
}

const CSV_COLUMNS = ['company', 'familyName', 'givenNames', 'birthDate', 'eventTypes'] as const;
const MAX_CSV_FIELD = 200;

/** Splits one CSV line (RFC 4180 quoting, no line breaks inside a field). */
function csvFields(line: string, row: number): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        if (i >= line.length) throw csvError(row, 'an unterminated quoted field');
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        value += line[i];
        i += 1;
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') throw csvError(row, 'text after a quoted field');
      i += 1;
    } else {
      const end = line.indexOf(',', i);
      const stop = end === -1 ? line.length : end;
      fields.push(line.slice(i, stop));
      i = stop + 1;
    }
    if (fields.length > CSV_COLUMNS.length) throw csvError(row, `more than ${CSV_COLUMNS.length} fields`);
  }
  return fields;
}

const csvError = (row: number, what: string) =>
  new ApiError('validation_error', { param: 'csv', message: `CSV line ${row + 1} has ${what}.` });

/**
 * The rows of a CSV file: a header naming its columns (company, familyName, givenNames, birthDate,
 * eventTypes; givenNames separated by spaces, eventTypes by `|`), then a row per line.
 */
export function rowsOfCsv(csv: string): MonitorRequest[] {
  const lines = csv.split(/\r?\n/);
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  const header = csvFields(lines[0] ?? '', 0).map((name) => name.trim());
  const unknown = header.find((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (header.length === 0 || header[0] === '' || unknown !== undefined) {
    throw new ApiError('validation_error', {
      param: 'csv',
      message: `The first CSV line must name the columns, among ${CSV_COLUMNS.join(', ')}${unknown ? ` (not ${unknown})` : ''}.`,
    });
  }
  if (lines.length - 1 > MAX_IMPORT_ROWS) {
    throw new ApiError('validation_error', {
      param: 'csv',
      message: `An import takes at most ${MAX_IMPORT_ROWS} rows (this one has ${lines.length - 1}).`,
    });
  }
  return lines.slice(1).map((line, index) => {
    const fields = csvFields(line, index + 1);
    const value = (name: (typeof CSV_COLUMNS)[number]) => {
      const at = header.indexOf(name);
      const field = at === -1 ? undefined : fields[at]?.trim();
      if (field !== undefined && field.length > MAX_CSV_FIELD)
        throw csvError(index + 1, `a field over ${MAX_CSV_FIELD} characters`);
      return field === '' ? undefined : field;
    };
    const company = value('company');
    const familyName = value('familyName');
    const givenNames = value('givenNames');
    const birthDate = value('birthDate');
    const eventTypes = value('eventTypes');
    const person =
      familyName !== undefined || givenNames !== undefined || birthDate !== undefined
        ? {
            familyName: familyName ?? '',
            givenNames: (givenNames ?? '').split(/\s+/).filter(Boolean),
            birthDate: birthDate ?? '',
          }
        : undefined;
    return {
      ...(company === undefined ? {} : { company }),
      ...(person === undefined ? {} : { person }),
      ...(eventTypes === undefined ? {} : { eventTypes: eventTypes.split('|') as MonitoringEventType[] }),
    };
  });
}

/** A JSON row checked for its shape (strings where strings go) before the rules; no recursion beyond it. */
function jsonRow(value: unknown): MonitorRequest | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'each row must be an object';
  const row = value as Record<string, unknown>;
  const extra = Object.keys(row).find((key) => !['company', 'person', 'eventTypes'].includes(key));
  if (extra !== undefined) return `${extra} is not a row field (company, person, eventTypes)`;
  if (row.company !== undefined && (typeof row.company !== 'string' || row.company.length > 20)) {
    return 'company must be a string of at most 20 characters';
  }
  if (row.eventTypes !== undefined) {
    if (
      !Array.isArray(row.eventTypes) ||
      row.eventTypes.length > 9 ||
      !row.eventTypes.every((t) => typeof t === 'string')
    ) {
      return 'eventTypes must be a list of at most 9 event types';
    }
  }
  if (row.person !== undefined) {
    const person = row.person as Record<string, unknown>;
    if (
      typeof person !== 'object' ||
      person === null ||
      typeof person.familyName !== 'string' ||
      person.familyName.length > 100 ||
      !Array.isArray(person.givenNames) ||
      person.givenNames.length < 1 ||
      person.givenNames.length > 5 ||
      !person.givenNames.every((name) => typeof name === 'string' && name.length <= 100) ||
      typeof person.birthDate !== 'string' ||
      Object.keys(person).length !== 3
    ) {
      return 'person must be {familyName, givenNames (1 to 5), birthDate}';
    }
  }
  return row as MonitorRequest;
}

const BIRTH_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface ImportRequest {
  monitors: MonitorStore;
  owner: Owner;
  now: Date;
  body: { dryRun?: boolean | undefined; rows?: unknown[] | undefined; csv?: string | undefined };
  cap?: number;
}

export async function importMonitors({ monitors, owner, now, body, cap = MONITOR_CAP }: ImportRequest) {
  if ((body.rows === undefined) === (body.csv === undefined)) {
    throw new ApiError('validation_error', {
      param: 'rows',
      message: 'Give the rows as rows (JSON) or csv, one of them.',
    });
  }
  const dryRun = body.dryRun === true;
  const raw: (MonitorRequest | string)[] =
    body.csv !== undefined ? rowsOfCsv(body.csv) : (body.rows ?? []).map(jsonRow);
  if (raw.length === 0)
    throw new ApiError('validation_error', {
      param: body.csv !== undefined ? 'csv' : 'rows',
      message: 'The import has no rows.',
    });
  const reports: RowReport[] = [];
  const candidates: { row: number; subjectKey: string; monitor: Omit<MonitorRecord, 'id'> }[] = [];
  const firstRow = new Map<string, number>();
  const at = toTimestamp(now);
  raw.forEach((request, index) => {
    const row = index + 1;
    const param = (p: string | null) => (p === null ? null : p);
    if (typeof request === 'string') {
      reports.push({
        row,
        outcome: 'invalid',
        error: { code: 'validation_error', param: null, message: request },
      });
      return;
    }
    try {
      if (request.person && !BIRTH_DATE.test(request.person.birthDate)) {
        throw new ApiError('validation_error', {
          param: 'person.birthDate',
          message: 'birthDate must be a date YYYY-MM-DD.',
        });
      }
      const checked = checkMonitorRequest(request, now);
      const subjectKey =
        checked.kind === 'company' ? checked.company.number : personSubjectKey(checked.person);
      const first = firstRow.get(subjectKey);
      if (first !== undefined) {
        reports.push({ row, outcome: 'duplicate', duplicateOf: first });
        return;
      }
      firstRow.set(subjectKey, row);
      candidates.push({
        row,
        subjectKey,
        monitor: {
          accountId: owner.accountId,
          environment: owner.environment,
          kind: checked.kind,
          subjectKey,
          company: null,
          person: checked.kind === 'person' ? checked.person : null,
          eventTypes: checked.eventTypes,
          baseline: null,
          known: null,
          sequence: 0,
          version: 1,
          createdAt: at,
          updatedAt: at,
        },
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reports.push({
        row,
        outcome: 'invalid',
        error: { code: error.code, param: param(error.param), message: error.message },
      });
    }
  });
  const watched = await monitors.findSubjects(
    owner,
    candidates.map((c) => c.subjectKey),
  );
  const fresh = candidates.filter((c) => {
    const existing = watched.get(c.subjectKey);
    if (existing !== undefined) reports.push({ row: c.row, outcome: 'already_watched', monitorId: existing });
    return existing === undefined;
  });
  const room = Math.max(0, cap - (await monitors.count(owner)));
  for (const c of fresh.slice(room)) reports.push({ row: c.row, outcome: 'over_cap' });
  const creating = fresh
    .slice(0, room)
    .map((c) => ({ row: c.row, monitor: { ...c.monitor, id: newMonitorId() } }));
  let created = 0;
  if (dryRun) {
    for (const c of creating) reports.push({ row: c.row, outcome: 'would_create' });
  } else {
    const outcomes = await monitors.createMany(
      creating.map((c) => c.monitor),
      cap,
    );
    outcomes.forEach((outcome, i) => {
      const c = creating[i] as (typeof creating)[number];
      if (outcome.created) {
        created += 1;
        reports.push({ row: c.row, outcome: 'created', monitorId: c.monitor.id });
      } else if (outcome.reason === 'exists') {
        reports.push({ row: c.row, outcome: 'already_watched', monitorId: outcome.monitorId });
      } else {
        reports.push({ row: c.row, outcome: 'over_cap' });
      }
    });
  }
  reports.sort((x, y) => x.row - y.row);
  const count = (outcome: RowOutcome) => reports.filter((r) => r.outcome === outcome).length;
  return {
    object: 'monitorImport' as const,
    dryRun,
    rows: raw.length,
    totals: {
      created,
      wouldCreate: count('would_create'),
      alreadyWatched: count('already_watched'),
      invalid: count('invalid'),
      duplicate: count('duplicate'),
      overCap: count('over_cap'),
    },
    // Every row that is not created (or, in a dry run, would not be): the others are.
    problems: reports.filter((r) => r.outcome !== 'created' && r.outcome !== 'would_create'),
  };
}
