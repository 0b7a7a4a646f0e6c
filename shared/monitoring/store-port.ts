/**
 * Company monitoring's store: monitors (a company or a person watched by an account in one
 * environment), the subjects the jobs check (each distinct company once per run) and the
 * monitoring feed (every monitoring event of an owner, oldest first, kept 90 days).
 */
import { createHash } from 'node:crypto';
import type { Environment, Owner } from '../kernel/api-keys.ts';
import type { FeeEntry } from '../kernel/ports/fee-ledger.ts';
import type { EventRecord, MonitoringEventType } from '../webhooks/event-port.ts';

/** What a company check compares: the fields a change event reports, and the newest document. */
export interface CompanySnapshot {
  status: string;
  name: string;
  type: string;
  /** The newest lodged document; null when the type has no document list or none is lodged. */
  latestDocument: { documentNumber: string; formCode: string; receivedAt: string } | null;
  /** When the registry was read. */
  at: string;
}

/** The company as events and monitors show it (the registry's summary fields). */
export interface MonitoredCompany {
  number: string;
  numberType: string;
  name: string;
  type: string;
  status: string;
  abn: string | null;
  registeredCharity: boolean;
  schemeCategories: string[];
}

/** A watched person: matched on the normalised names and the exact birth date (person-match.ts). */
export interface MonitoredPerson {
  familyName: string;
  givenNames: string[];
  birthDate: string;
}

export type MonitorKind = 'company' | 'person';

export interface MonitorRecord extends Owner {
  id: string;
  kind: MonitorKind;
  /** The company's number, or the person's match key: what the jobs look monitors up by. */
  subjectKey: string;
  company: MonitoredCompany | null;
  person: MonitoredPerson | null;
  eventTypes: MonitoringEventType[];
  /** Company monitors: the state recorded at creation. */
  baseline: CompanySnapshot | null;
  /** Company monitors: the state the last check saw (changes are diffs against it). */
  known: CompanySnapshot | null;
  /** Events emitted for this monitor so far: the last one's `sequence` (0 before any). */
  sequence: number;
  /** Changed by every write; a job's write is conditional on the version it read. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export type CreateOutcome =
  | { created: true }
  | { created: false; reason: 'exists'; monitorId: string }
  | {
      created: false;
      reason: 'limit';
    };

/** A check's changes for one monitor: the state to keep, and the events it emits, in order. */
export interface MonitorChange {
  known: CompanySnapshot | null;
  /** Set once, by the first check of a monitor created without one (an import). */
  baseline?: CompanySnapshot;
  /** Set once with the baseline: the company as the registry names it. */
  company?: MonitoredCompany;
  /** Each with `data.sequence` = the monitor's sequence + 1, + 2, … */
  events: EventRecord[];
}

export interface MonitorPage {
  items: MonitorRecord[];
  next: string | undefined;
}

export interface FeedPage {
  items: EventRecord[];
  /** The position of the last event given; undefined when none was. */
  next: string | undefined;
  /** More settled events follow. */
  hasMore: boolean;
}

/** A row of a committed import that passed the checks: what its monitor will be made of. */
export interface ImportCandidate {
  /** 1-based row of the file. */
  row: number;
  kind: MonitorKind;
  subjectKey: string;
  person: MonitoredPerson | null;
  eventTypes: MonitoringEventType[];
}

/** A problem row of an import: why it is not (or would not be) created. */
export interface ImportProblem {
  row: number;
  outcome: 'already_watched' | 'invalid' | 'duplicate' | 'over_cap';
  monitorId?: string;
  duplicateOf?: number;
  error?: { code: string; param: string | null; message: string };
}

/**
 * The id of the monitor an import's row creates: derived from the import and the row, so a chunk
 * processed twice names the same monitor and recognises it as its own.
 */
export const importedMonitorId = (importId: string, row: number) =>
  `mon_${createHash('sha256').update(`${importId}#${row}`).digest('hex').slice(0, 24)}`;

/** A committed import: its rows are processed a chunk at a time (store-port `runImportChunk`). */
export interface ImportRecord extends Owner {
  id: string;
  rows: number;
  chunks: number;
  createdAt: string;
}

/** One chunk of an import's rows as accepted: the rows to create and the rows refused at once. */
export interface ImportChunk {
  chunk: number;
  candidates: ImportCandidate[];
  problems: ImportProblem[];
}

/** What a chunk's processing did; written once, when the chunk is done. */
export interface ImportChunkOutcome {
  chunk: number;
  created: number;
  /** Rows not created, the chunk's refusals at acceptance included, in row order. */
  problems: ImportProblem[];
  finishedAt: string;
}

export interface MonitorStore {
  /**
   * Creates the monitor unless the owner already watches its subject, or would go over `cap`
   * monitors in the environment (both checked in the write, so they hold under concurrent
   * creates).
   */
  create(monitor: MonitorRecord, cap: number): Promise<CreateOutcome>;
  /** Creates many monitors (an import) with the same rules, many to a transaction; outcomes in order. */
  createMany(monitors: readonly MonitorRecord[], cap: number): Promise<CreateOutcome[]>;
  /** Stores a committed import and its chunks (before any chunk is processed). */
  saveImport(record: ImportRecord, chunks: readonly ImportChunk[]): Promise<void>;
  /** The import and the outcomes of its finished chunks, in chunk order. */
  getImport(id: string): Promise<{ record: ImportRecord; outcomes: ImportChunkOutcome[] } | undefined>;
  /**
   * Creates the monitors of one chunk, once: a chunk processed again (a retried or repeated
   * message, a crash half-way) creates nothing twice and loses no row, the monitor ids being
   * derived from the import and the row, the cap's count reserved and given back once per chunk,
   * and the outcome written with the count's give-back in one transaction. `crashAfter` (tests)
   * stops it after that many rows' claims, as a killed function would.
   */
  runImportChunk(
    record: ImportRecord,
    chunk: number,
    cap: number,
    options?: { crashAfter?: number; now?: string },
  ): Promise<ImportChunkOutcome>;
  get(id: string): Promise<MonitorRecord | undefined>;
  /** The owner's monitor of a subject, if any. */
  findBySubject(owner: Owner, subjectKey: string): Promise<MonitorRecord | undefined>;
  /** The owner's monitors of several subjects at once (bulk import). */
  findSubjects(owner: Owner, subjectKeys: readonly string[]): Promise<Map<string, string>>;
  /** The owner's monitors, newest first. */
  list(owner: Owner, options: { limit: number; after?: string }): Promise<MonitorPage>;
  /** Monitors in the owner's environment (the cap's count). */
  count(owner: Owner): Promise<number>;
  updateEventTypes(
    monitor: MonitorRecord,
    eventTypes: MonitoringEventType[],
    at: string,
  ): Promise<MonitorRecord>;
  /** Deletes the monitor; false when it was already gone. */
  delete(monitor: MonitorRecord): Promise<boolean>;
  /** Every monitor of a subject in an environment, whatever its account (the jobs' fan-out). */
  watchers(environment: Environment, subjectKey: string): Promise<MonitorRecord[]>;
  /** The watched companies of one shard of an environment, in number order, a page at a time. */
  companies(
    environment: Environment,
    shard: number,
    options: { limit: number; after?: string },
  ): Promise<{ numbers: string[]; next: string | undefined }>;
  /**
   * Records a check's change of one monitor: the new state, the sequence and the events, in one
   * transaction, on condition that the monitor is still at the version read and that no event is
   * written yet. `stale` when the monitor changed (re-read and diff again); `gone` when it was
   * deleted; `duplicate` when an event of the change was recorded before (nothing is written).
   */
  apply(monitor: MonitorRecord, change: MonitorChange): Promise<'applied' | 'stale' | 'gone' | 'duplicate'>;
  /** The owners with monitors in one shard of an environment, with how many each holds. */
  accounts(environment: Environment, shard: number): Promise<{ accountId: string; monitors: number }[]>;
  /** Records a day's monitoring on the owner's usage ledger, once (false when it already was). */
  recordUsage(fee: FeeEntry): Promise<boolean>;
  /** The owner's monitoring events after `after`, oldest first, written before `before`. */
  feed(
    owner: Owner,
    options: { limit: number; after?: string; before: string; since: string; subjectKey?: string },
  ): Promise<FeedPage>;
}

/** The jobs' run records: when each run of a job started and finished (missed and late runs are alarmed). */
export interface MonitoringRuns {
  /** Records that the run's part (a shard) is done; true the first time. */
  finishPart(job: string, runId: string, part: string, at: string): Promise<boolean>;
  /** Whether a job's run already handled something (a weekly summary, for example). */
  isDone(job: string, runId: string, part: string): Promise<boolean>;
}

/** How many shards the watched companies are spread over (the daily check's fan-out). */
export const MONITOR_SHARDS = 16;

/** A message of the monitoring fan-out queue. */
export type MonitoringMessage =
  | {
      job: 'daily';
      environment: Environment;
      shard: number;
      runId: string;
      /** Where the previous message of this shard stopped (a shard is checked a page per message). */
      after?: string;
      /** When the schedule started the run (for the run-age metric its finished parts write). */
      startedAt?: string;
    }
  | { job: 'weekly'; type: string; weekStarting: string; runId: string; startedAt?: string }
  | { job: 'billing'; day: string }
  /** One chunk of a committed import (import.ts). */
  | { job: 'import'; importId: string; chunk: number }
  /** A sandbox event fired on demand for a test-key monitor (sandbox.ts). */
  | { job: 'sandbox'; monitorId: string; type: MonitoringEventType; key: string };

export interface MonitoringQueue {
  send(messages: readonly MonitoringMessage[]): Promise<void>;
}

declare module '../kernel/capability-ports.ts' {
  interface CapabilityOwnPorts {
    /** Company monitoring: monitors, their subjects and the monitoring feed. */
    monitors: MonitorStore;
    /** The monitoring jobs' run records (workers only). */
    monitoringRuns: MonitoringRuns;
    /** The monitoring fan-out queue (workers only). */
    monitoringQueue: MonitoringQueue;
  }
}

declare module '../kernel/http/route.ts' {
  interface RouteUses {
    /** Sends an import's chunks and sandbox events to the monitoring fan-out queue. */
    monitoringQueue: true;
  }
}
