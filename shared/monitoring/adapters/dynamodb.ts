/**
 * Company monitoring in the main table (shared/monitoring/store-port.ts).
 *
 *   MON#<id>                     MONITOR               the monitor (baseline, known state, sequence, version)
 *     gsi1: MONW#<env>#<subjectKey> / <acct>#<id>      the watchers of a company or person (the jobs' fan-out)
 *   MONOWN#<acct>#<env>          S#<subjectKey>        the owner's monitor of a subject (one per subject)
 *   MONOWN#<acct>#<env>          C#<createdAt>#<id>    the owner's monitors, newest first (id only)
 *   MONCOUNT#<acct>#<env>        COUNT                 the owner's monitors (`n`, at most the cap)
 *   MONCO#<env>#<number>         COMPANY               a watched company (`watchers`)
 *     gsi1: MONCHECK#<env>#<shard> / <number>          what the daily check reads, shard by shard
 *   MONWN#<env>#<namesKey>       <acct>#<id>           person monitors by names alone (licence items)
 *   MONFEED#<acct>#<env>         <createdAt>#<ms>#<id> the owner's monitoring events, a full copy each
 *   MONFEED#<acct>#<env>#S#<subjectKey>   (same)      ... of one company or person
 *   MONRUN#<job>#<runId>         <part>                a job run's finished parts
 *   MONIMP#<importId>            IMPORT                a committed import (owner, rows, chunks)
 *   MONIMP#<importId>            O#<chunk>             a chunk's outcome, written once when it is done
 *   MONIMPC#<importId>#<chunk>   CHUNK                 a chunk's rows (500), and how its cap is held
 *
 * No key is written by every request: the owner's keys take that owner's creates (an import
 * writes them at most 1,000 a second, one partition's limit), a company's key the creates and
 * deletes of its watchers, and the check index is spread over 16 shards. Feed items expire (TTL)
 * a day after the 90 days they are kept.
 */
import { createHash } from 'node:crypto';
import {
  batchGet,
  getItem,
  type Item,
  putAll,
  putItem,
  query,
  type TransactItem,
  transactWrite,
  updateItem,
} from '../../adapters/dynamodb/document.ts';
import { eventFields, eventPuts, toEvent } from '../../adapters/dynamodb/events.ts';
import { cancellationReasons, entryOrder, feeEntryItem } from '../../adapters/dynamodb/ledger.ts';
import type { Environment, Owner } from '../../kernel/api-keys.ts';
import type { FeeEntry } from '../../kernel/ports/fee-ledger.ts';
import type { EventRecord, EventType, MonitoringEventType } from '../../webhooks/event-port.ts';
import { personNamesSubjectKey } from '../person-match.ts';
import { MONITORING_EVENT_RETENTION_MS } from '../settings.ts';
import {
  type CreateOutcome,
  type FeedPage,
  type ImportChunk,
  type ImportChunkOutcome,
  type ImportRecord,
  importedMonitorId,
  MONITOR_SHARDS,
  type MonitorChange,
  type MonitoringRuns,
  type MonitorPage,
  type MonitorRecord,
  type MonitorStore,
} from '../store-port.ts';

const monitorKey = (id: string) => ({ pk: `MON#${id}`, sk: 'MONITOR' });
const ownerPk = (owner: Owner) => `MONOWN#${owner.accountId}#${owner.environment}`;
const subjectKeyOf = (owner: Owner, subjectKey: string) => ({ pk: ownerPk(owner), sk: `S#${subjectKey}` });
const countKey = (owner: Owner) => ({ pk: `MONCOUNT#${owner.accountId}#${owner.environment}`, sk: 'COUNT' });
const companyKey = (environment: Environment, number: string) => ({
  pk: `MONCO#${environment}#${number}`,
  sk: 'COMPANY',
});
const watchersPk = (environment: Environment, subjectKey: string) => `MONW#${environment}#${subjectKey}`;
const namesPk = (environment: Environment, namesKey: string) => `MONWN#${environment}#${namesKey}`;
const feedPk = (owner: Owner, subjectKey?: string) =>
  `MONFEED#${owner.accountId}#${owner.environment}${subjectKey ? `#S#${subjectKey}` : ''}`;

/** The check index's shard of a company: spread by a hash of its number. */
export const companyShard = (number: string) =>
  createHash('sha256').update(number).digest().readUInt16BE(0) % MONITOR_SHARDS;
const checkPk = (environment: Environment, shard: number) =>
  `MONCHECK#${environment}#${String(shard).padStart(2, '0')}`;

/** The accounts index of the count item: `MONACCTS#<env>#<shard>` / `<acct>` (the daily usage reads it). */
const accountIndex = (owner: Owner) => ({
  ':g': `MONACCTS#${owner.environment}#${String(companyShard(owner.accountId)).padStart(2, '0')}`,
  ':acct': owner.accountId,
});

const importKey = (id: string) => ({ pk: `MONIMP#${id}`, sk: 'IMPORT' });
const chunkName = (chunk: number) => String(chunk).padStart(5, '0');
const importChunkKey = (id: string, chunk: number) => ({
  pk: `MONIMPC#${id}#${chunkName(chunk)}`,
  sk: 'CHUNK',
});
const importOutcomeKey = (id: string, chunk: number) => ({ pk: `MONIMP#${id}`, sk: `O#${chunkName(chunk)}` });
/** Imports and their chunks are kept 30 days (the import resource's life). */
const importExpiry = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + 30 * 86_400;

const feedExpiry = (createdAt: string) =>
  Math.floor((Date.parse(createdAt) + MONITORING_EVENT_RETENTION_MS + 24 * 3600_000) / 1000);

/** Monitors an import reserves the cap for at once. */
const IMPORT_CHUNK = 500;
/**
 * Import transactions in flight at once. The owner's partition (`MONOWN#…`) takes two items per
 * row, each two write units in a transaction: about 250 rows a second at DynamoDB's 1,000 units
 * per partition (docs/decisions/0066-monitoring-imports.md).
 */
const IMPORT_PARALLEL = 16;

/** `work` over `items`, at most `parallel` at a time; results in order. */
async function inPool<T, R>(
  items: readonly T[],
  parallel: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

const toMonitor = ({ pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, ...rest }: Item) => rest as MonitorRecord;

const isConditionFailure = (error: unknown) =>
  (error as { name?: string }).name === 'ConditionalCheckFailedException';

/** The feed's items of an event: the owner's copy and the subject's copy. */
function feedPuts(tableName: string, subjectKey: string, event: EventRecord): TransactItem[] {
  // The sequence keeps a monitor's events of one write in order (they share a millisecond).
  const sk = `${event.createdAt}#${entryOrder()}#${String(event.data.sequence ?? 0).padStart(10, '0')}#${event.id}`;
  const item = { sk, ...eventFields(event, feedExpiry(event.createdAt)) };

  return [feedPk(event), feedPk(event, subjectKey)].map((pk) => ({
    Put: { TableName: tableName, Item: { pk, ...item } },
  }));
}

const toChunkOutcome = (item: Item): ImportChunkOutcome => ({
  chunk: Number((item.sk as string).slice(2)),
  created: item.created as number,
  problems: JSON.parse(item.problems as string),
  finishedAt: item.finishedAt as string,
});

export class DynamoMonitorStore implements MonitorStore {
  constructor(private readonly tableName: string) {}

  private subjectWrites(monitor: MonitorRecord, delta: 1 | -1): TransactItem[] {
    if (monitor.kind === 'company') {
      const shard = companyShard(monitor.subjectKey);
      return [
        {
          Update: {
            TableName: this.tableName,
            Key: companyKey(monitor.environment, monitor.subjectKey),
            UpdateExpression: 'ADD watchers :d SET gsi1pk = :g, gsi1sk = :n',
            ExpressionAttributeValues: {
              ':d': delta,
              ':g': checkPk(monitor.environment, shard),
              ':n': monitor.subjectKey,
            },
          },
        },
      ];
    }
    const person = monitor.person;
    if (!person) return [];
    const key = {
      pk: namesPk(monitor.environment, personNamesSubjectKey(person.familyName, person.givenNames)),
      sk: `${monitor.accountId}#${monitor.id}`,
    };
    return [
      delta === 1
        ? { Put: { TableName: this.tableName, Item: { ...key, monitorId: monitor.id } } }
        : { Delete: { TableName: this.tableName, Key: key } },
    ];
  }

  private monitorWrites(monitor: MonitorRecord): TransactItem[] {
    return [
      {
        Put: {
          TableName: this.tableName,
          Item: {
            ...monitorKey(monitor.id),
            ...monitor,
            gsi1pk: watchersPk(monitor.environment, monitor.subjectKey),
            gsi1sk: `${monitor.accountId}#${monitor.id}`,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { ...subjectKeyOf(monitor, monitor.subjectKey), monitorId: monitor.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { pk: ownerPk(monitor), sk: `C#${monitor.createdAt}#${monitor.id}`, monitorId: monitor.id },
        },
      },
      ...this.subjectWrites(monitor, 1),
    ];
  }

  /**
   * An import's creates without transactions (a transaction's writes cost twice, and an import
   * would spend its time on them): the cap is reserved for a chunk in one write, each row claims
   * its subject with a conditional put (the uniqueness holds as in `create`), the claimed rows'
   * items are batch-written, and what was reserved but not claimed is given back. A claim left
   * without its monitor (a run stopped in between) is taken over by the next create of the subject.
   */
  async createMany(monitors: readonly MonitorRecord[], cap: number): Promise<CreateOutcome[]> {
    const outcomes: CreateOutcome[] = new Array(monitors.length);
    for (let start = 0; start < monitors.length; start += IMPORT_CHUNK) {
      const chunk = monitors.slice(start, start + IMPORT_CHUNK);
      const owner = chunk[0] as MonitorRecord;
      try {
        await updateItem({
          TableName: this.tableName,
          Key: countKey(owner),
          UpdateExpression: 'ADD n :k SET gsi1pk = :g, gsi1sk = :acct',
          ConditionExpression: 'attribute_not_exists(n) OR n <= :room',
          ExpressionAttributeValues: {
            ':k': chunk.length,
            ':room': cap - chunk.length,
            ...accountIndex(owner),
          },
        });
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // Not room for the whole chunk: row by row, up to the cap.
        for (const [i, monitor] of chunk.entries()) outcomes[start + i] = await this.create(monitor, cap);
        continue;
      }
      const claims = await inPool(chunk, IMPORT_PARALLEL, (monitor) => this.claim(monitor));
      const claimed = chunk.filter((_, i) => claims[i] === true);
      await this.writeClaimed(claimed);
      const unclaimed = chunk.length - claimed.length;
      if (unclaimed > 0) {
        await updateItem({
          TableName: this.tableName,
          Key: countKey(owner),
          UpdateExpression: 'ADD n :minus',
          ExpressionAttributeValues: { ':minus': -unclaimed },
        });
      }
      chunk.forEach((_, i) => {
        const claim = claims[i];
        outcomes[start + i] =
          claim === true
            ? { created: true }
            : { created: false, reason: 'exists', monitorId: claim as string };
      });
    }
    return outcomes;
  }

  async saveImport(record: ImportRecord, chunks: readonly ImportChunk[]): Promise<void> {
    const expiresAtEpoch = importExpiry(record.createdAt);
    // Each chunk in its own partition: a 100,000-row import's 200 chunks are written in parallel.
    await putAll(
      this.tableName,
      chunks.map((chunk) => ({
        ...importChunkKey(record.id, chunk.chunk),
        candidates: JSON.stringify(chunk.candidates),
        problems: JSON.stringify(chunk.problems),
        expiresAtEpoch,
      })),
      'import chunks',
    );
    await putItem({
      TableName: this.tableName,
      Item: { ...importKey(record.id), ...record, expiresAtEpoch },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  }

  async getImport(id: string): Promise<{ record: ImportRecord; outcomes: ImportChunkOutcome[] } | undefined> {
    const items = await this.queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `MONIMP#${id}` },
    });
    const header = items.find((item) => item.sk === 'IMPORT');
    if (!header) return undefined;
    const { pk: _pk, sk: _sk, expiresAtEpoch: _e, ...record } = header;
    return {
      record: record as ImportRecord,
      outcomes: items.filter((item) => (item.sk as string).startsWith('O#')).map(toChunkOutcome),
    };
  }

  async runImportChunk(
    record: ImportRecord,
    chunk: number,
    cap: number,
    options: { crashAfter?: number; now?: string } = {},
  ): Promise<ImportChunkOutcome> {
    const done = await getItem(this.tableName, importOutcomeKey(record.id, chunk));
    if (done) return toChunkOutcome(done);
    const stored = await getItem(this.tableName, importChunkKey(record.id, chunk));
    if (!stored) throw new Error(`import ${record.id} has no chunk ${chunk}`);
    const candidates = JSON.parse(stored.candidates as string) as ImportChunk['candidates'];
    const problems = JSON.parse(stored.problems as string) as ImportChunk['problems'];
    const monitors = candidates.map(
      (c): MonitorRecord => ({
        id: importedMonitorId(record.id, c.row),
        accountId: record.accountId,
        environment: record.environment,
        kind: c.kind,
        subjectKey: c.subjectKey,
        company: null,
        person: c.person,
        eventTypes: c.eventTypes,
        baseline: null,
        known: null,
        sequence: 0,
        version: 1,
        createdAt: record.createdAt,
        updatedAt: record.createdAt,
      }),
    );
    const mode =
      (stored.mode as 'reserved' | 'single' | undefined) ??
      (await this.holdCap(record, chunk, monitors.length, cap));
    let outcomes: CreateOutcome[];
    let giveBack = 0;
    if (mode === 'reserved') {
      const claims = await inPool(monitors, IMPORT_PARALLEL, async (monitor, i) => {
        if (options.crashAfter !== undefined && i >= options.crashAfter) {
          throw new Error(`import chunk stopped after ${options.crashAfter} rows (test hook)`);
        }
        return this.claim(monitor);
      });
      const claimed = monitors.filter((_, i) => claims[i] === true);
      await this.writeClaimed(claimed);
      giveBack = monitors.length - claimed.length;
      outcomes = claims.map((claim) =>
        claim === true ? { created: true } : { created: false, reason: 'exists', monitorId: claim },
      );
    } else {
      // Not room for the whole chunk: row by row, each create holding the cap itself.
      outcomes = [];
      for (const monitor of monitors) {
        const outcome = await this.create(monitor, cap);
        outcomes.push(
          !outcome.created && outcome.reason === 'exists' && outcome.monitorId === monitor.id
            ? { created: true }
            : outcome,
        );
      }
    }
    const rows: ImportChunkOutcome['problems'] = [...problems];
    outcomes.forEach((outcome, i) => {
      const row = (candidates[i] as ImportChunk['candidates'][number]).row;
      if (outcome.created) return;
      rows.push(
        outcome.reason === 'exists'
          ? { row, outcome: 'already_watched', monitorId: outcome.monitorId }
          : { row, outcome: 'over_cap' },
      );
    });
    rows.sort((x, y) => x.row - y.row);
    const outcome: ImportChunkOutcome = {
      chunk,
      created: outcomes.filter((o) => o.created).length,
      problems: rows,
      finishedAt: options.now ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    try {
      // The outcome and the cap's give-back together, once: a second run of the chunk gives none.
      await transactWrite([
        {
          Put: {
            TableName: this.tableName,
            Item: {
              ...importOutcomeKey(record.id, chunk),
              created: outcome.created,
              problems: JSON.stringify(outcome.problems),
              finishedAt: outcome.finishedAt,
              expiresAtEpoch: importExpiry(record.createdAt),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...(giveBack > 0
          ? [
              {
                Update: {
                  TableName: this.tableName,
                  Key: countKey(record),
                  UpdateExpression: 'ADD n :minus',
                  ExpressionAttributeValues: { ':minus': -giveBack },
                },
              },
            ]
          : []),
      ]);
      return outcome;
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.Code !== 'ConditionalCheckFailed') throw error;
      // Another run of the chunk finished first: its outcome stands.
      return toChunkOutcome((await getItem(this.tableName, importOutcomeKey(record.id, chunk))) as Item);
    }
  }

  /**
   * Holds the cap for a whole chunk in one write, recorded on the chunk in the same transaction
   * (`reserved`), or, when there is no room for all of it, marks the chunk to be created row by
   * row (`single`). Decided once per chunk: a run after a crash finds the mode and keeps it.
   */
  private async holdCap(
    record: ImportRecord,
    chunk: number,
    rows: number,
    cap: number,
  ): Promise<'reserved' | 'single'> {
    if (rows === 0) return 'single';
    const key = importChunkKey(record.id, chunk);
    try {
      await transactWrite([
        {
          Update: {
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET #mode = :reserved',
            ConditionExpression: 'attribute_not_exists(#mode)',
            ExpressionAttributeNames: { '#mode': 'mode' },
            ExpressionAttributeValues: { ':reserved': 'reserved' },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: countKey(record),
            UpdateExpression: 'ADD n :k SET gsi1pk = :g, gsi1sk = :acct',
            ConditionExpression: 'attribute_not_exists(n) OR n <= :room',
            ExpressionAttributeValues: { ':k': rows, ':room': cap - rows, ...accountIndex(record) },
          },
        },
      ]);
      return 'reserved';
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      if (reasons[0]?.Code !== 'ConditionalCheckFailed') {
        try {
          await updateItem({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET #mode = :single',
            ConditionExpression: 'attribute_not_exists(#mode)',
            ExpressionAttributeNames: { '#mode': 'mode' },
            ExpressionAttributeValues: { ':single': 'single' },
          });
          return 'single';
        } catch (inner) {
          if (!isConditionFailure(inner)) throw inner;
        }
      }
      // Another run of the chunk decided first.
      return (await getItem(this.tableName, key))?.mode as 'reserved' | 'single';
    }
  }

  /** The items of claimed monitors: the monitor, the owner's list entry and the subject's watcher. */
  private async writeClaimed(claimed: readonly MonitorRecord[]) {
    await putAll(
      this.tableName,
      claimed.flatMap((monitor) => [
        {
          ...monitorKey(monitor.id),
          ...monitor,
          gsi1pk: watchersPk(monitor.environment, monitor.subjectKey),
          gsi1sk: `${monitor.accountId}#${monitor.id}`,
        },
        { pk: ownerPk(monitor), sk: `C#${monitor.createdAt}#${monitor.id}`, monitorId: monitor.id },
      ]),
      'imported monitors',
    );
    await inPool(claimed, IMPORT_PARALLEL, async (monitor) => {
      for (const write of this.subjectWrites(monitor, 1)) {
        if ('Update' in write) await updateItem(write.Update);
        else if ('Put' in write) await putItem(write.Put);
      }
    });
  }

  /** Claims the owner's subject for the monitor: true, or the id of the monitor that holds it. */
  private async claim(monitor: MonitorRecord): Promise<true | string> {
    const key = subjectKeyOf(monitor, monitor.subjectKey);
    for (let tries = 0; tries < 3; tries++) {
      const holder =
        tries === 0 ? undefined : ((await getItem(this.tableName, key))?.monitorId as string | undefined);
      // The monitor's own claim (a chunk processed again) is its claim.
      if (holder === monitor.id) return true;
      if (holder !== undefined && (await getItem(this.tableName, monitorKey(holder)))) return holder;
      try {
        await putItem({
          TableName: this.tableName,
          Item: { ...key, monitorId: monitor.id },
          ConditionExpression: holder === undefined ? 'attribute_not_exists(pk)' : 'monitorId = :stale',
          ...(holder === undefined ? {} : { ExpressionAttributeValues: { ':stale': holder } }),
        });
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    return ((await getItem(this.tableName, key))?.monitorId as string | undefined) ?? '';
  }

  async create(monitor: MonitorRecord, cap: number): Promise<CreateOutcome> {
    try {
      await transactWrite([
        ...this.monitorWrites(monitor),
        {
          Update: {
            TableName: this.tableName,
            Key: countKey(monitor),
            UpdateExpression: 'ADD n :one SET gsi1pk = :g, gsi1sk = :acct',
            ConditionExpression: 'attribute_not_exists(n) OR n < :cap',
            ExpressionAttributeValues: { ':one': 1, ':cap': cap, ...accountIndex(monitor) },
          },
        },
      ]);
      return { created: true };
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      // The subject's claim (second item) or the count (last).
      if (reasons[1]?.Code === 'ConditionalCheckFailed') {
        const existing = await getItem(this.tableName, subjectKeyOf(monitor, monitor.subjectKey));
        return { created: false, reason: 'exists', monitorId: (existing?.monitorId as string) ?? '' };
      }
      if (reasons.at(-1)?.Code === 'ConditionalCheckFailed') return { created: false, reason: 'limit' };
      throw error;
    }
  }

  async get(id: string): Promise<MonitorRecord | undefined> {
    const item = await getItem(this.tableName, monitorKey(id));
    return item ? toMonitor(item) : undefined;
  }

  async findBySubject(owner: Owner, subjectKey: string): Promise<MonitorRecord | undefined> {
    const pointer = await getItem(this.tableName, subjectKeyOf(owner, subjectKey));
    return pointer ? this.get(pointer.monitorId as string) : undefined;
  }

  async findSubjects(owner: Owner, subjectKeys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const unique = [...new Set(subjectKeys)];
    const groups: string[][] = [];
    for (let i = 0; i < unique.length; i += 100) groups.push(unique.slice(i, i + 100));
    await Promise.all(
      groups.map(async (group) => {
        let keys = group.map((subjectKey) => subjectKeyOf(owner, subjectKey));
        for (let attempt = 0; keys.length > 0; attempt++) {
          if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** Math.min(attempt, 5)));
          const { items, unprocessed } = await batchGet(this.tableName, keys);
          for (const item of items) found.set((item.sk as string).slice(2), item.monitorId as string);
          keys = unprocessed as typeof keys;
        }
      }),
    );
    return found;
  }

  async list(owner: Owner, options: { limit: number; after?: string }): Promise<MonitorPage> {
    const pk = ownerPk(owner);
    const { Items } = await query({
      TableName: this.tableName,
      KeyConditionExpression: options.after
        ? 'pk = :pk AND sk BETWEEN :c AND :after'
        : 'pk = :pk AND begins_with(sk, :c)',
      ExpressionAttributeValues: {
        ':pk': pk,
        ':c': 'C#',
        ...(options.after ? { ':after': options.after } : {}),
      },
      ScanIndexForward: false,
      Limit: options.limit + 2,
    });
    const rest = options.after ? Items.filter((item) => item.sk !== options.after) : Items;
    const listed = rest.slice(0, options.limit);
    const monitors = await this.getMany(listed.map((item) => item.monitorId as string));
    return {
      items: listed.flatMap((item) => monitors.get(item.monitorId as string) ?? []),
      next: rest.length > options.limit ? (listed.at(-1)?.sk as string) : undefined,
    };
  }

  private async getMany(ids: readonly string[]): Promise<Map<string, MonitorRecord>> {
    const found = new Map<string, MonitorRecord>();
    let keys = ids.map(monitorKey);
    for (let attempt = 0; keys.length > 0; attempt++) {
      if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** Math.min(attempt, 5)));
      const { items, unprocessed } = await batchGet(this.tableName, keys);
      for (const item of items) found.set(item.id as string, toMonitor(item));
      keys = unprocessed as typeof keys;
    }
    return found;
  }

  async count(owner: Owner): Promise<number> {
    const item = await getItem(this.tableName, countKey(owner));
    return (item?.n as number | undefined) ?? 0;
  }

  async updateEventTypes(
    monitor: MonitorRecord,
    eventTypes: MonitoringEventType[],
    at: string,
  ): Promise<MonitorRecord> {
    const { Attributes } = await updateItem({
      TableName: this.tableName,
      Key: monitorKey(monitor.id),
      UpdateExpression: 'SET eventTypes = :t, updatedAt = :at, version = version + :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':t': eventTypes, ':at': at, ':one': 1 },
      ReturnValues: 'ALL_NEW',
    });
    return toMonitor(Attributes ?? {});
  }

  async delete(monitor: MonitorRecord): Promise<boolean> {
    try {
      await transactWrite([
        {
          Delete: {
            TableName: this.tableName,
            Key: monitorKey(monitor.id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        { Delete: { TableName: this.tableName, Key: subjectKeyOf(monitor, monitor.subjectKey) } },
        {
          Delete: {
            TableName: this.tableName,
            Key: { pk: ownerPk(monitor), sk: `C#${monitor.createdAt}#${monitor.id}` },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: countKey(monitor),
            UpdateExpression: 'ADD n :minus',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
        ...this.subjectWrites(monitor, -1),
      ]);
      return true;
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  async watchers(environment: Environment, subjectKey: string): Promise<MonitorRecord[]> {
    const monitors: MonitorRecord[] = [];
    if (subjectKey.startsWith('PN#')) {
      const pointers = await this.queryAll({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': namesPk(environment, subjectKey) },
      });
      const found = await this.getMany(pointers.map((item) => item.monitorId as string));
      return [...found.values()];
    }
    const items = await this.queryAll({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': watchersPk(environment, subjectKey) },
    });
    for (const item of items) monitors.push(toMonitor(item));
    return monitors;
  }

  private async queryAll(input: Parameters<typeof query>[0]): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await query({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) });
      items.push(...page.Items);
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }

  async companies(
    environment: Environment,
    shard: number,
    options: { limit: number; after?: string },
  ): Promise<{ numbers: string[]; next: string | undefined }> {
    const pk = checkPk(environment, shard);
    const { Items } = await query({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: options.after ? 'gsi1pk = :pk AND gsi1sk > :after' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': pk, ...(options.after ? { ':after': options.after } : {}) },
      Limit: options.limit,
    });
    const numbers = Items.filter((item) => ((item.watchers as number) ?? 0) > 0).map(
      (item) => item.gsi1sk as string,
    );
    const last = Items.at(-1)?.gsi1sk as string | undefined;
    return { numbers, next: Items.length === options.limit ? last : undefined };
  }

  async apply(
    monitor: MonitorRecord,
    change: MonitorChange,
  ): Promise<'applied' | 'stale' | 'gone' | 'duplicate'> {
    const last = change.events.at(-1);
    const sequence = last ? (last.data.sequence as number) : monitor.sequence;
    try {
      await transactWrite([
        {
          Update: {
            TableName: this.tableName,
            Key: monitorKey(monitor.id),
            UpdateExpression: `SET known = :known, #seq = :seq, version = :next${
              change.baseline ? ', baseline = :baseline, company = :company' : ''
            }`,
            ConditionExpression: 'version = :read',
            ExpressionAttributeNames: { '#seq': 'sequence' },
            ExpressionAttributeValues: {
              ':known': change.known,
              ':seq': sequence,
              ':next': monitor.version + 1,
              ':read': monitor.version,
              ...(change.baseline
                ? { ':baseline': change.baseline, ':company': change.company ?? null }
                : {}),
            },
          },
        },
        ...change.events.flatMap((event) => [
          ...eventPuts(this.tableName, event),
          ...feedPuts(this.tableName, monitor.subjectKey, event),
        ]),
      ]);
      return 'applied';
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons?.some((reason) => reason.Code === 'ConditionalCheckFailed')) throw error;
      // The monitor is as read, but an event of the change is already written: recorded before.
      if (reasons[0]?.Code !== 'ConditionalCheckFailed') return 'duplicate';
      return (await this.get(monitor.id)) ? 'stale' : 'gone';
    }
  }

  async accounts(
    environment: Environment,
    shard: number,
  ): Promise<{ accountId: string; monitors: number }[]> {
    const items = await this.queryAll({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `MONACCTS#${environment}#${String(shard).padStart(2, '0')}` },
    });
    return items
      .map((item) => ({ accountId: item.gsi1sk as string, monitors: (item.n as number | undefined) ?? 0 }))
      .filter((account) => account.monitors > 0);
  }

  async recordUsage(fee: FeeEntry): Promise<boolean> {
    try {
      await putItem({
        TableName: this.tableName,
        Item: feeEntryItem(fee, '0'.repeat(15)),
        ConditionExpression: 'attribute_not_exists(pk)',
      });
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async feed(
    owner: Owner,
    options: { limit: number; after?: string; before: string; since: string; subjectKey?: string },
  ): Promise<FeedPage> {
    const pk = feedPk(owner, options.subjectKey);
    const from = options.after && options.after > options.since ? options.after : options.since;
    const { Items } = await query({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :before',
      ExpressionAttributeValues: { ':pk': pk, ':from': from, ':before': options.before },
      Limit: options.limit + 2,
    });
    const rest = Items.filter((item) => item.sk !== options.after);
    const listed = rest.slice(0, options.limit);
    return {
      items: listed.map(toEvent<EventType>),
      next: (listed.at(-1)?.sk as string | undefined) ?? undefined,
      hasMore: rest.length > options.limit,
    };
  }
}

export class DynamoMonitoringRuns implements MonitoringRuns {
  constructor(private readonly tableName: string) {}

  async finishPart(job: string, runId: string, part: string, at: string): Promise<boolean> {
    try {
      await putItem({
        TableName: this.tableName,
        Item: {
          pk: `MONRUN#${job}#${runId}`,
          sk: part,
          finishedAt: at,
          expiresAtEpoch: Math.floor(Date.parse(at) / 1000) + 400 * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      });
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async isDone(job: string, runId: string, part: string): Promise<boolean> {
    return (await getItem(this.tableName, { pk: `MONRUN#${job}#${runId}`, sk: part })) !== undefined;
  }
}
