/**
 * Bulk import of monitors: up to 100,000 rows as JSON (`rows`) or CSV (`csv`). Every row is
 * checked without the registry (identifier shape and check digits, person names, event types),
 * then against the file (a company or person twice), the account's monitors (already watched)
 * and the cap (the rows past it). `dryRun` answers each row's outcome and creates nothing. A
 * commit is stored as an import (`mimp_…`) of 500-row chunks: up to SYNC_IMPORT_ROWS rows it runs
 * within the request and answers its outcome; larger ones answer 202 at once and the monitoring
 * worker runs a chunk per queue message (GET /v1/monitors/imports/{importId} follows it). A chunk
 * run twice, or killed half-way and run again, creates nothing twice and loses no row (the store's
 * `runImportChunk`). Imported company monitors get their baseline at the next daily check
 * (reading 100,000 baselines would take the registry half an hour), which records it without an
 * event. A commit sent again creates nothing twice: with the same Idempotency-Key it is the same
 * import, without one its rows are already watched.
 */
// The codes this module throws (defineErrors).
import './errors.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { isSameOwner, type Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { fromCsvCell } from '../kernel/csv.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { check } from '../kernel/http/request.ts';
import type { MonitoringEventType } from '../webhooks/event-port.ts';
import { IMPORT_CSV_COLUMNS, MONITOR_CSV_COLUMNS } from './csv.ts';
import { checkMonitorRequest, type MonitorRequest } from './monitors.ts';
import { personSubjectKey } from './person-match.ts';
import { importRowPerson, type monitorImportSchema } from './schemas.ts';
import { IMPORT_CHUNK_ROWS, MAX_IMPORT_ROWS, MONITOR_CAP, SYNC_IMPORT_ROWS } from './settings.ts';
import type {
  ImportCandidate,
  ImportChunk,
  ImportChunkOutcome,
  ImportProblem,
  ImportRecord,
  MonitoringQueue,
  MonitorStore,
} from './store-port.ts';

export type RowOutcome =
  | 'created'
  | 'would_create'
  | 'already_watched'
  | 'invalid'
  | 'duplicate'
  | 'over_cap';

const CSV_COLUMNS: readonly string[] = MONITOR_CSV_COLUMNS;
const MAX_CSV_FIELD = 200;

/** Splits one CSV line (RFC 4180 quoting, no line breaks inside a field) of at most `most` fields. */
function csvFields(line: string, row: number, most: number): string[] {
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
    if (fields.length > most) throw csvError(row, `more than ${most} fields`);
  }
  return fields;
}

const csvError = (row: number, what: string) =>
  new ApiError('validation_error', { param: 'csv', message: `CSV line ${row + 1} has ${what}.` });

/**
 * The rows of a CSV file: a header naming its columns (company, familyName, givenNames, birthDate,
 * eventTypes; givenNames separated by spaces, eventTypes by `|`), then a row per line. The other
 * columns of the CSV export (id, kind, …) are allowed and ignored, and a cell's formula-safety
 * `'` is taken off (`fromCsvCell`), so an exported list imports as it is.
 */
export function rowsOfCsv(csv: string): MonitorRequest[] {
  const lines = csv.split(/\r?\n/);
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  const header = csvFields(lines[0] ?? '', 0, CSV_COLUMNS.length).map((name) => name.trim());
  const unknown = header.find((name) => !CSV_COLUMNS.includes(name));
  if (header.length === 0 || header[0] === '' || unknown !== undefined) {
    throw new ApiError('validation_error', {
      param: 'csv',
      message: `The first CSV line must name the columns, among ${IMPORT_CSV_COLUMNS.join(', ')} (and the export's other columns, ignored)${unknown ? `; not ${unknown}` : ''}.`,
    });
  }
  if (lines.length - 1 > MAX_IMPORT_ROWS) {
    throw new ApiError('validation_error', {
      param: 'csv',
      message: `An import takes at most ${MAX_IMPORT_ROWS} rows (this one has ${lines.length - 1}).`,
    });
  }
  return lines.slice(1).map((line, index) => {
    const fields = csvFields(line, index + 1, header.length);
    const value = (name: (typeof IMPORT_CSV_COLUMNS)[number]) => {
      const at = header.indexOf(name);
      const cell = at === -1 ? undefined : fields[at]?.trim();
      const field = cell === undefined ? undefined : fromCsvCell(cell);
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

export interface ImportRequest {
  monitors: MonitorStore;
  owner: Owner;
  now: Date;
  body: { dryRun?: boolean | undefined; rows?: unknown[] | undefined; csv?: string | undefined };
  /** The commit's chunks go to the worker through it (commits over SYNC_IMPORT_ROWS rows). */
  queue?: MonitoringQueue;
  /** The request's `Idempotency-Key` (its recovery key): a retried commit is the same import. */
  recoveryKey?: string | undefined;
  cap?: number;
}

export const IMPORT_ID_PATTERN = /^mimp_[0-9a-f]{24}$/;

/** A commit's id: derived from its Idempotency-Key when it has one, so a retry finds the same import. */
const importIdOf = (owner: Owner, recoveryKey: string | undefined) =>
  recoveryKey === undefined
    ? `mimp_${randomBytes(12).toString('hex')}`
    : `mimp_${createHash('sha256').update(`${owner.accountId}#${owner.environment}#${recoveryKey}`).digest('hex').slice(0, 24)}`;

/** An import's answer: its status, totals and every row not created (`problems`), in row order. */
export type ImportReport = Omit<z.output<typeof monitorImportSchema>, 'meta'>;

const totalsOf = (problems: readonly ImportProblem[], created: number, wouldCreate: number) => {
  const count = (outcome: RowOutcome) => problems.filter((r) => r.outcome === outcome).length;
  return {
    created,
    wouldCreate,
    alreadyWatched: count('already_watched'),
    invalid: count('invalid'),
    duplicate: count('duplicate'),
    overCap: count('over_cap'),
  };
};

/** The report of a committed import from its finished chunks. */
export function presentImport(record: ImportRecord, outcomes: readonly ImportChunkOutcome[]): ImportReport {
  const sorted = [...outcomes].sort((x, y) => x.chunk - y.chunk);
  const done = sorted.length === record.chunks;
  const problems = sorted.flatMap((o) => o.problems);
  const processedRows = sorted.reduce(
    (sum, o) => sum + Math.min(IMPORT_CHUNK_ROWS, record.rows - o.chunk * IMPORT_CHUNK_ROWS),
    0,
  );
  return {
    object: 'monitorImport',
    id: record.id,
    status: done ? 'succeeded' : 'processing',
    dryRun: false,
    rows: record.rows,
    processedRows,
    totals: totalsOf(
      problems,
      sorted.reduce((sum, o) => sum + o.created, 0),
      0,
    ),
    problems,
    createdAt: record.createdAt,
    completedAt: done ? sorted.reduce((last, o) => (o.finishedAt > last ? o.finishedAt : last), '') : null,
  };
}

/** The owner's import `id`, with its outcome so far. */
export async function readImport(monitors: MonitorStore, owner: Owner, id: string): Promise<ImportReport> {
  const found = IMPORT_ID_PATTERN.test(id) ? await monitors.getImport(id) : undefined;
  if (!found) {
    throw new ApiError('monitor_import_not_found', { param: 'importId', message: 'No import has this id.' });
  }
  if (!isSameOwner(found.record, owner)) {
    throw new ApiError('monitor_import_owner_mismatch', {
      param: 'importId',
      message:
        found.record.accountId !== owner.accountId
          ? 'This import belongs to another account.'
          : `This import belongs to the ${found.record.environment} environment; use a ${found.record.environment} key.`,
    });
  }
  return presentImport(found.record, found.outcomes);
}

/** One chunk of a committed import, as the worker runs it from its queue message. */
export async function runImportMessage(
  monitors: MonitorStore,
  message: { importId: string; chunk: number },
  now: string,
  options: { crashAfter?: number } = {},
  cap = MONITOR_CAP,
): Promise<ImportChunkOutcome> {
  const found = await monitors.getImport(message.importId);
  if (!found) throw new Error(`no import ${message.importId}`);
  return monitors.runImportChunk(found.record, message.chunk, cap, { ...options, now });
}

/**
 * Checks every row, then: a dry run answers each row's outcome and creates nothing; a commit is
 * stored as an import of chunks of IMPORT_CHUNK_ROWS rows, run at once when it has at most
 * SYNC_IMPORT_ROWS rows (the answer is its outcome, `succeeded`), else by the monitoring worker,
 * a chunk per queue message (the answer is 202, `processing`; GET /v1/monitors/imports/{id}
 * follows it).
 */
export async function importMonitors(
  request: ImportRequest,
): Promise<{ status: 200 | 202; report: ImportReport }> {
  const { monitors, owner, now, body, cap = MONITOR_CAP } = request;
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
  const reports: ImportProblem[] = [];
  const candidates: ImportCandidate[] = [];
  const firstRow = new Map<string, number>();
  raw.forEach((request, index) => {
    const row = index + 1;
    if (typeof request === 'string') {
      reports.push({
        row,
        outcome: 'invalid',
        error: { code: 'validation_error', param: null, message: request },
      });
      return;
    }
    try {
      // A row's person meets the rules of POST /v1/monitors (a calendar birth date, say) by its schema.
      if (request.person) check(importRowPerson, { person: request.person }, 'body');
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
        kind: checked.kind,
        subjectKey,
        person: checked.kind === 'person' ? checked.person : null,
        eventTypes: checked.eventTypes,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reports.push({
        row,
        outcome: 'invalid',
        error: { code: error.code, param: error.param, message: error.message },
      });
    }
  });
  if (dryRun)
    return { status: 200, report: await dryRunReport(monitors, owner, raw.length, reports, candidates, cap) };

  const at = toTimestamp(now);
  const record: ImportRecord = {
    id: importIdOf(owner, request.recoveryKey),
    accountId: owner.accountId,
    environment: owner.environment,
    rows: raw.length,
    chunks: Math.ceil(raw.length / IMPORT_CHUNK_ROWS),
    createdAt: at,
  };
  const chunks: ImportChunk[] = Array.from({ length: record.chunks }, (_, chunk) => ({
    chunk,
    candidates: [],
    problems: [],
  }));
  const chunkOf = (row: number) => chunks[Math.floor((row - 1) / IMPORT_CHUNK_ROWS)] as ImportChunk;
  for (const c of candidates) chunkOf(c.row).candidates.push(c);
  for (const r of reports) chunkOf(r.row).problems.push(r);
  const existing = await monitors.getImport(record.id);
  const stored = existing?.record ?? record;
  if (!existing) await monitors.saveImport(record, chunks);
  if (stored.rows <= SYNC_IMPORT_ROWS) {
    const outcomes: ImportChunkOutcome[] = [];
    for (let chunk = 0; chunk < stored.chunks; chunk++) {
      outcomes.push(await monitors.runImportChunk(stored, chunk, cap, { now: at }));
    }
    return { status: 200, report: presentImport(stored, outcomes) };
  }
  if (!request.queue) throw new Error('an import over the synchronous size needs the monitoring queue');
  if (!existing) {
    await request.queue.send(
      Array.from({ length: stored.chunks }, (_, chunk) => ({
        job: 'import' as const,
        importId: stored.id,
        chunk,
      })),
    );
  }
  const found = await monitors.getImport(stored.id);
  return { status: 202, report: presentImport(stored, found?.outcomes ?? []) };
}

/** A dry run's report: each valid row against the account's monitors and the cap, nothing created. */
async function dryRunReport(
  monitors: MonitorStore,
  owner: Owner,
  rows: number,
  reports: ImportProblem[],
  candidates: readonly ImportCandidate[],
  cap: number,
): Promise<ImportReport> {
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
  reports.sort((x, y) => x.row - y.row);
  return {
    object: 'monitorImport',
    id: null,
    status: 'succeeded',
    dryRun: true,
    rows,
    processedRows: rows,
    totals: totalsOf(reports, 0, Math.min(room, fresh.length)),
    // Every row that would not be created: the others would.
    problems: reports,
    createdAt: null,
    completedAt: null,
  };
}
