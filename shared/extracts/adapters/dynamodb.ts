/**
 * Extracts in the main table.
 *
 *   EXT#<id>        HEAD                     header: owner, kind, dates, summary (never expires)
 *   EXT#<id>        SEC#<name>#<nnn>         gzip'd JSON of one section, split in 300 KB chunks
 *   EXT#<id>        SECMAN                   which sections and how many chunks; written last
 *   EXTP#<id>#<name>  META                   a paged list's count, counts per key, attachment (gzip'd JSON)
 *   EXTP#<id>#<name>  P#<nnnnnn>             items n*100 … n*100+99 of the list (gzip'd JSON array)
 *   EXTP#<id>#<name>  K#<key>#<nnnnnn>       the same for the items filed under one key (a postcode)
 *   HELD#<acct>#<env>#<kind>#<subject>   <purchasedAt>#<ms>#<id>   extracts of one subject
 *   EXTS#<acct>#<env>[#<kind>]           <purchasedAt>#<ms>#<id>   the account's extracts
 *   USAGE#<acct>#<env>                   <at>#<ms>#<requestId>   fee entries
 *   USAGE#<acct>#<env>                   <at>#<extractId>        fee entries of a batch purchase
 *   DRAFT#<purchaseKey>                  single | <slot>         a purchase's record (see PurchaseRecord)
 *   gsi1: UNSETTLED_PURCHASES#<shard> / <purchasedAt>#<key>#<slot>   records not yet committed, for the
 *         sweeper (shard: shared/adapters/dynamodb/sharded-index.ts, of `<key>#<slot>`)
 *
 * A purchase is recorded before the registry is asked, and its answer's sections are written
 * before the header, so a purchase whose final transaction fails leaves a complete draft that a
 * retry (or the sweeper) commits without asking the registry again. The commit settles the record
 * (off the sweeper's index, expiring with the Idempotency-Key window). Sections and index
 * entries carry a TTL a day past expiry; the header stays so an expired id answers 410.
 *
 * A batch purchase (up to 100 extracts) cannot fit headers, indexes and fees in one transaction
 * (100 items at most), so each extract's header and indexes are written with its sections,
 * carrying `commitPk`/`commitSk`, the key of its fee entry; the fees then go in one transaction.
 * Reads treat an item that carries a commit key as absent until that fee entry exists; once the
 * fees are in, the items are rewritten without it, so the check costs a read only in that window
 * or for an abandoned batch.
 *
 * A paged list (a weekly summary's items) lives in a partition of its own, so reading the extract's
 * header or sections never touches it: 100 items a page, each page well under 400 KB, and every
 * item filed a second time in its key's pages. Reading items o … o+limit (limit ≤ 100) of the list,
 * or of one key, is one BatchGetItem of the index and at most two pages, whatever o and the
 * list's size. Pages are written before the extract's commit and only read through it.
 */

import {
  batchGet,
  deleteItem,
  getItem,
  type Item,
  putAll,
  putItem,
  type QueryInput,
  query,
  SharedBatchPuts,
  transactWrite,
  updateItem,
} from '../../adapters/dynamodb/document.ts';
import {
  cancellationReasons,
  cancelledByCondition,
  entryOrder,
  feeEntryItem,
  usagePk,
} from '../../adapters/dynamodb/ledger.ts';
import { queryEveryShard, shardKey } from '../../adapters/dynamodb/sharded-index.ts';
import type { Environment } from '../../kernel/api-keys.ts';
import type { FeeEntry } from '../../kernel/ports/fee-ledger.ts';
import {
  type Draft,
  type ExtractHeader,
  type ExtractKind,
  type ExtractListOptions,
  type ExtractListPage,
  type ExtractPurchases,
  type HeldExtractRef,
  type HeldExtracts,
  type ListedExtract,
  type ListPage,
  type PagedList,
  type PurchaseRecord,
  type PurchaseRecords,
  SINGLE_PURCHASE,
  type StoredExtract,
  type UsageLedger,
} from '../store-port.ts';

/**
 * zlib is loaded on first use: every function builds this store, and most (the free reference
 * reads among them) never pack a section, so they do not pay for loading zlib at cold start.
 */
const zlib = () => process.getBuiltinModule('node:zlib');

const CHUNK_BYTES = 300_000;
/** Items per stored page of a paged list (weekly summary items: ~70 KB of JSON, ~10 KB gzip'd). */
export const LIST_PAGE_ITEMS = 100;
/** The most items one `readPage` returns: it then touches at most two pages. */
const MAX_PAGE_READ = LIST_PAGE_ITEMS;
const TTL_GRACE_SECONDS = 24 * 3600;

const extractPk = (id: string) => `EXT#${id}`;
const heldPk = (accountId: string, env: Environment, kind: ExtractKind, subject: string) =>
  `HELD#${accountId}#${env}#${kind}#${subject}`;
const listPk = (accountId: string, env: Environment, kind?: ExtractKind) =>
  kind ? `EXTS#${accountId}#${env}#${kind}` : `EXTS#${accountId}#${env}`;
const pagedPk = (id: string, name: string) => `EXTP#${id}#${name}`;
const pageSk = (index: number, key?: string) =>
  `${key === undefined ? 'P' : `K#${encodeURIComponent(key)}`}#${String(index).padStart(6, '0')}`;
const chunkSk = (name: string, index: number) => `SEC#${name}#${String(index).padStart(3, '0')}`;
const purchaseKey = (record: { key: string; slot: string }) => ({
  pk: `DRAFT#${record.key}`,
  sk: record.slot,
});
const UNSETTLED = 'UNSETTLED_PURCHASES';

const ttlOf = (expiresAt: string) => Math.floor(Date.parse(expiresAt) / 1000) + TTL_GRACE_SECONDS;

const refOf = (header: ExtractHeader): HeldExtractRef => ({
  id: header.id,
  kind: header.kind,
  type: header.type,
  purchasedAt: header.purchasedAt,
  asOf: header.asOf,
  expiresAt: header.expiresAt,
});

const toRef = (item: Item): HeldExtractRef => ({
  id: item.id,
  kind: item.kind,
  type: item.type,
  purchasedAt: item.purchasedAt,
  asOf: item.asOf,
  expiresAt: item.expiresAt,
});

// The summary is stored as JSON text: a DynamoDB map would not keep the field order clients see.
const toListed = (item: Item): ListedExtract => ({ ...toRef(item), summary: JSON.parse(item.summary) });

const toHeader = ({
  pk: _pk,
  sk: _sk,
  commitPk: _cpk,
  commitSk: _csk,
  summary,
  ...rest
}: Item): ExtractHeader => ({ ...rest, summary: JSON.parse(summary) }) as ExtractHeader;

function encodeSection(value: unknown): Uint8Array[] {
  const packed = zlib().gzipSync(Buffer.from(JSON.stringify(value)));
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < packed.length; offset += CHUNK_BYTES) {
    chunks.push(packed.subarray(offset, offset + CHUNK_BYTES));
  }
  return chunks.length > 0 ? chunks : [packed];
}

const pack = (value: unknown) => zlib().gzipSync(Buffer.from(JSON.stringify(value)));
const unpack = (data: Uint8Array): unknown => JSON.parse(zlib().gunzipSync(data).toString('utf8'));

const decodeSection = (chunks: Uint8Array[]): unknown =>
  JSON.parse(zlib().gunzipSync(Buffer.concat(chunks)).toString('utf8'));

/**
 * Reassembles the sections from an extract partition's items (they arrive in key order), or
 * undefined when the manifest is missing or a section lacks a chunk.
 */
function sectionsOf(items: Item[]): Record<string, unknown> | undefined {
  const manifest = items.find((item) => item.sk === 'SECMAN')?.manifest as Record<string, number> | undefined;
  if (!manifest) return undefined;
  const byName = new Map<string, Uint8Array[]>();
  for (const item of items) {
    const [, name] = /^SEC#(.+)#\d{3}$/.exec(item.sk as string) ?? [];
    if (!name) continue;
    const chunks = byName.get(name) ?? [];
    chunks.push(item.data as Uint8Array);
    byName.set(name, chunks);
  }
  const sections: Record<string, unknown> = {};
  for (const [name, count] of Object.entries(manifest)) {
    const chunks = byName.get(name) ?? [];
    if (chunks.length !== count) return undefined;
    sections[name] = decodeSection(chunks);
  }
  return sections;
}

async function queryAll(input: QueryInput): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await query({ ...input, ExclusiveStartKey: start });
    items.push(...page.Items);
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Sections never change once stored (an extract is a fixed snapshot), so a warm function keeps
 * the last few it decoded: paging through a large section costs one query, not one per page.
 * Callers check ownership and expiry on the header or index first; the cache only saves the read.
 */
const SECTION_CACHE_ENTRIES = 16;

/**
 * The held extracts over the main table: what the free reads of an extract and its sections use,
 * apart from a purchase's writes so that a read's function does not bundle them.
 */
export class DynamoHeldExtracts implements HeldExtracts {
  private readonly sections = new Map<string, unknown>();

  constructor(protected readonly tableName: string) {}

  async readPage(
    id: string,
    name: string,
    range: { offset: number; limit: number; key?: string },
  ): Promise<ListPage | undefined> {
    const limit = Math.min(range.limit, MAX_PAGE_READ);
    const pk = pagedPk(id, name);
    const first = Math.floor(range.offset / LIST_PAGE_ITEMS);
    const last = Math.floor((range.offset + limit - 1) / LIST_PAGE_ITEMS);
    const wanted = [{ pk, sk: 'META' }];
    for (let index = first; index <= last; index++) wanted.push({ pk, sk: pageSk(index, range.key) });
    const found = new Map<string, Uint8Array>();
    let keys: Item[] = wanted;
    for (let attempt = 0; keys.length > 0; attempt++) {
      if (attempt > 5) throw new Error(`could not read the pages of ${id} ${name}`);
      if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** attempt));
      const result = await batchGet(this.tableName, keys, {
        ProjectionExpression: 'sk, #d',
        ExpressionAttributeNames: { '#d': 'data' },
      });
      for (const item of result.items) found.set(item.sk as string, item.data as Uint8Array);
      keys = result.unprocessed;
    }
    const metaData = found.get('META');
    if (!metaData) return undefined;
    const meta = unpack(metaData) as { count: number; counts: Record<string, number>; attachment: unknown };
    const pageItems: unknown[] = [];
    for (let index = first; index <= last; index++) {
      const data = found.get(pageSk(index, range.key));
      if (data) pageItems.push(...(unpack(data) as unknown[]));
    }
    const skip = range.offset - first * LIST_PAGE_ITEMS;
    return {
      items: pageItems.slice(skip, skip + limit),
      total: range.key === undefined ? meta.count : (meta.counts[range.key] ?? 0),
      attachment: meta.attachment,
    };
  }

  async getHeader(id: string): Promise<ExtractHeader | undefined> {
    const item = await getItem(this.tableName, { pk: extractPk(id), sk: 'HEAD' });
    const [head] = item ? await this.committed([item]) : [];
    return head ? toHeader(head) : undefined;
  }

  async getExtract(id: string): Promise<StoredExtract | undefined> {
    const items = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': extractPk(id) },
    });
    const found = items.find((item) => item.sk === 'HEAD');
    const [head] = found ? await this.committed([found]) : [];
    if (!head) return undefined;
    return { header: toHeader(head), sections: sectionsOf(items) ?? {} };
  }

  async getSection(id: string, name: string): Promise<unknown> {
    const cacheKey = `${id}#${name}`;
    const cached = this.sections.get(cacheKey);
    if (cached !== undefined) {
      this.sections.delete(cacheKey);
      this.sections.set(cacheKey, cached);
      return cached;
    }
    const items = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': extractPk(id), ':prefix': `SEC#${name}#` },
    });
    if (items.length === 0) return undefined;
    const section = decodeSection(items.map((item) => item.data as Uint8Array));
    this.sections.set(cacheKey, section);
    if (this.sections.size > SECTION_CACHE_ENTRIES) {
      this.sections.delete(this.sections.keys().next().value as string);
    }
    return section;
  }

  async heldForSubject(
    accountId: string,
    environment: Environment,
    kind: ExtractKind,
    subjectKey: string,
  ): Promise<ListedExtract[]> {
    const items = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': heldPk(accountId, environment, kind, subjectKey) },
      ScanIndexForward: false,
    });
    return (await this.committed(items)).map(toListed);
  }

  async list(
    accountId: string,
    environment: Environment,
    options: ExtractListOptions,
  ): Promise<ExtractListPage> {
    const pk = listPk(accountId, environment, options.kind);
    const subjectFilters = [
      ...(options.subject?.prefix !== undefined ? ['begins_with(subjectKey, :prefix)'] : []),
      ...(options.subject?.contains !== undefined ? ['contains(subjectKey, :contains)'] : []),
    ];
    const subjectValues = {
      ...(options.subject?.prefix !== undefined ? { ':prefix': options.subject.prefix } : {}),
      ...(options.subject?.contains !== undefined ? { ':contains': options.subject.contains } : {}),
    };
    const found: Item[] = [];
    let start: Item | undefined = options.after ? { pk, sk: options.after } : undefined;
    // Expired entries are filtered out; keep reading until the page is full or the list ends.
    do {
      const page = await query({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: ['expiresAt > :now', ...subjectFilters].join(' AND '),
        ExpressionAttributeValues: { ':pk': pk, ':now': options.now, ...subjectValues },
        ScanIndexForward: false,
        Limit: options.limit + 1 - found.length,
        ExclusiveStartKey: start,
      });
      found.push(...page.Items);
      start = page.LastEvaluatedKey;
    } while (start && found.length <= options.limit);
    const visible = await this.committed(found);
    const pageItems = visible.slice(0, options.limit);
    const more = found.length > options.limit;
    return {
      items: pageItems.map(toListed),
      next: more ? (pageItems.at(-1)?.sk as string) : undefined,
    };
  }

  /** Items of a batch whose fees are not written yet are left out. */
  private async committed(items: Item[]): Promise<Item[]> {
    const checks = await Promise.all(
      items.map(async (item) => {
        if (item.commitPk === undefined) return true;
        const fee = await getItem(
          this.tableName,
          { pk: item.commitPk, sk: item.commitSk },
          { ProjectionExpression: 'pk' },
        );
        return fee !== undefined;
      }),
    );
    return items.filter((_, index) => checks[index]);
  }
}

/** Every role of the extract store over the main table: the reads, a purchase's writes, purchase records, and the ledger. */
export class DynamoExtractStore
  extends DynamoHeldExtracts
  implements ExtractPurchases, PurchaseRecords, UsageLedger
{
  /** A batch purchase saves its answers as they arrive: those that arrive together share writes. */
  private readonly draftWrites: SharedBatchPuts;

  constructor(tableName: string) {
    super(tableName);
    this.draftWrites = new SharedBatchPuts(tableName);
  }

  async startPurchase(record: PurchaseRecord): Promise<PurchaseRecord> {
    try {
      await putItem({
        TableName: this.tableName,
        Item: unsettledItem(record),
        ConditionExpression: 'attribute_not_exists(pk)',
      });
      return record;
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      const item = await getItem(this.tableName, purchaseKey(record));
      return item?.record ? (JSON.parse(item.record) as PurchaseRecord) : record;
    }
  }

  async startPurchases(records: readonly PurchaseRecord[]): Promise<PurchaseRecord[]> {
    if (records.length > 100) throw new Error('a batch records at most 100 purchases');
    const started = new Map<string, PurchaseRecord>();
    const slotOf = (record: PurchaseRecord) => record.slot;
    let unwritten = [...records];
    while (unwritten.length > 0) {
      try {
        await transactWrite(
          unwritten.map((record) => ({
            Put: {
              TableName: this.tableName,
              Item: unsettledItem(record),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          })),
        );
        for (const record of unwritten) started.set(slotOf(record), record);
        break;
      } catch (error) {
        // Records already there (an earlier attempt's) are kept and read; the others are written again.
        const reasons = cancellationReasons(error);
        if (!reasons || !cancelledByCondition(error)) throw error;
        const existing = unwritten.filter((_, index) => reasons[index]?.Code === 'ConditionalCheckFailed');
        for (const record of await this.recordsOf(existing)) started.set(slotOf(record), record);
        unwritten = unwritten.filter((_, index) => reasons[index]?.Code !== 'ConditionalCheckFailed');
      }
    }
    return records.map((record) => started.get(slotOf(record)) ?? record);
  }

  /** The stored records of these purchases (those found). */
  private async recordsOf(records: readonly PurchaseRecord[]): Promise<PurchaseRecord[]> {
    const found: PurchaseRecord[] = [];
    let keys: Item[] = records.map(purchaseKey);
    for (let attempt = 0; keys.length > 0; attempt++) {
      if (attempt > 5) throw new Error('could not read the records of a purchase');
      if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** attempt));
      const result = await batchGet(this.tableName, keys);
      for (const item of result.items) found.push(JSON.parse(item.record) as PurchaseRecord);
      keys = result.unprocessed;
    }
    return found;
  }

  async unsettledPurchases(before: string, limit: number): Promise<PurchaseRecord[]> {
    const items = await queryEveryShard({
      tableName: this.tableName,
      base: UNSETTLED,
      below: { bound: before },
      limit,
    });
    return items.map((item) => JSON.parse(item.record) as PurchaseRecord);
  }

  async forgetPurchase(record: PurchaseRecord): Promise<void> {
    await deleteItem(this.tableName, purchaseKey(record));
  }

  async saveSections(
    id: string,
    sections: Record<string, unknown>,
    expiresAt: string,
    record: PurchaseRecord,
  ): Promise<void> {
    const ttl = ttlOf(expiresAt);
    const manifest: Record<string, number> = {};
    const items: Item[] = [];
    for (const [name, value] of Object.entries(sections)) {
      const chunks = encodeSection(value);
      manifest[name] = chunks.length;
      for (const [index, data] of chunks.entries()) {
        items.push({ pk: extractPk(id), sk: chunkSk(name, index), data, expiresAtEpoch: ttl });
      }
    }
    // A reader trusts the manifest only when every chunk it counts is there.
    items.push({ pk: extractPk(id), sk: 'SECMAN', manifest, expiresAtEpoch: ttl });
    items.push(unsettledItem(record));
    const staged = record.answer?.batch ? record.answer.header : undefined;
    if (staged) {
      const { pk: commitPk, sk: commitSk } = batchFeeKey(staged);
      for (const item of this.itemsOf(staged, batchOrder(staged)))
        items.push({ ...item, commitPk, commitSk });
    }
    await this.draftWrites.put(items, `the sections of ${id}`);
  }

  async savePagedList(id: string, name: string, list: PagedList, expiresAt: string): Promise<void> {
    const ttl = ttlOf(expiresAt);
    const pk = pagedPk(id, name);
    const byKey = new Map<string, unknown[]>();
    if (list.keyOf) {
      for (const item of list.items) {
        const key = list.keyOf(item);
        if (key === null) continue;
        const filed = byKey.get(key) ?? [];
        filed.push(item);
        byKey.set(key, filed);
      }
    }
    const items: Item[] = [];
    const pagesOf = (all: readonly unknown[], key?: string) => {
      for (let start = 0, index = 0; start < all.length; start += LIST_PAGE_ITEMS, index++) {
        items.push({
          pk,
          sk: pageSk(index, key),
          data: pack(all.slice(start, start + LIST_PAGE_ITEMS)),
          expiresAtEpoch: ttl,
        });
      }
    };
    pagesOf(list.items);
    for (const [key, filed] of byKey) pagesOf(filed, key);
    const counts = Object.fromEntries([...byKey].map(([key, filed]) => [key, filed.length]));
    const meta = { count: list.items.length, counts, attachment: list.attachment ?? null };
    items.push({ pk, sk: 'META', data: pack(meta), expiresAtEpoch: ttl });
    await putAll(this.tableName, items, `the pages of ${id} ${name}`);
  }

  async findDraft(key: string, now: string): Promise<Draft | undefined> {
    const pointer = await getItem(this.tableName, purchaseKey({ key, slot: SINGLE_PURCHASE }));
    if (!pointer || pointer.validUntil <= now) return undefined;
    return this.draftOf(pointer);
  }

  async findDrafts(key: string, now: string): Promise<Map<string, Draft>> {
    const pointers = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `DRAFT#${key}` },
    });
    const drafts = new Map<string, Draft>();
    await Promise.all(
      pointers
        .filter((pointer) => pointer.validUntil > now)
        .map(async (pointer) => {
          const draft = await this.draftOf(pointer);
          if (draft) drafts.set(pointer.sk as string, draft);
        }),
    );
    return drafts;
  }

  /** The stored answer a purchase's record points to, once there is one. */
  private async draftOf(pointer: Item): Promise<Draft | undefined> {
    if (typeof pointer.record !== 'string') return undefined;
    const record = JSON.parse(pointer.record) as PurchaseRecord;
    if (!record.answer) return undefined;
    const items = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sec)',
      ExpressionAttributeValues: { ':pk': extractPk(record.extractId), ':sec': 'SEC' },
    });
    const sections = sectionsOf(items);
    return sections ? { id: record.extractId, sections, record } : undefined;
  }

  /** The header item and its three index items (held-by-subject, all extracts, extracts of the kind). */
  private itemsOf(header: ExtractHeader, order: string): Item[] {
    const summary = JSON.stringify(header.summary);
    const ref = {
      ...refOf(header),
      subjectKey: header.subjectKey,
      summary,
      expiresAtEpoch: ttlOf(header.expiresAt),
    };
    const indexSk = `${header.purchasedAt}#${order}#${header.id}`;
    const { accountId, environment, kind } = header;
    return [
      { pk: extractPk(header.id), sk: 'HEAD', ...header, summary },
      ...[
        heldPk(accountId, environment, kind, header.subjectKey),
        listPk(accountId, environment),
        listPk(accountId, environment, kind),
      ].map((pk) => ({ pk, sk: indexSk, ...ref })),
    ];
  }

  async commit(header: ExtractHeader, fee: FeeEntry, settles?: PurchaseRecord): Promise<boolean> {
    const order = entryOrder();
    const [head, ...indexes] = this.itemsOf(header, order) as [Item, ...Item[]];
    const put = (Item: Item, ConditionExpression?: string) => ({
      Put: { TableName: this.tableName, Item, ...(ConditionExpression ? { ConditionExpression } : {}) },
    });
    try {
      await transactWrite([
        put(head, 'attribute_not_exists(pk)'),
        ...indexes.map((item) => put(item)),
        put(feeEntryItem(fee, order)),
        ...(settles ? [{ Update: this.settleUpdate(settles) }] : []),
      ]);
      return true;
    } catch (error) {
      // A header already there means an earlier attempt committed: only the record may be left.
      if (!cancelledByCondition(error)) throw error;
      if (settles) await updateItem(this.settleUpdate(settles));
      return false;
    }
  }

  /** Takes a committed purchase's record off the sweeper's index; it expires with its recovery window. */
  private settleUpdate(record: PurchaseRecord) {
    return {
      TableName: this.tableName,
      Key: purchaseKey(record),
      UpdateExpression: 'SET expiresAtEpoch = :ttl REMOVE gsi1pk, gsi1sk',
      ExpressionAttributeValues: { ':ttl': ttlOf(record.validUntil) },
    };
  }

  async commitBatch(
    purchases: readonly { header: ExtractHeader; fee: FeeEntry; settles?: PurchaseRecord }[],
  ): Promise<void> {
    if (purchases.length > 100) throw new Error('a batch commits at most 100 extracts');
    let unwritten = purchases.map(({ header, fee }) => ({ ...batchFeeKey(header), ...fee }));
    while (unwritten.length > 0) {
      try {
        await transactWrite(
          unwritten.map((Item) => ({
            Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' },
          })),
        );
        break;
      } catch (error) {
        // Fees already there were committed before (by an earlier attempt, or one by one by the
        // sweeper): write the others.
        const reasons = cancellationReasons(error);
        if (!reasons) throw error;
        unwritten = unwritten.filter((_, index) => reasons[index]?.Code !== 'ConditionalCheckFailed');
      }
    }
    // Committed. Rewriting the items without their commit key spares later reads the fee check
    // (and restores any the staging write lost), and settling the records takes them off the
    // sweeper's index; a failure here leaves work the sweeper repeats harmlessly.
    const settled = purchases.flatMap(({ header, settles }) => [
      ...this.itemsOf(header, batchOrder(header)),
      ...(settles ? [settledItem(settles)] : []),
    ]);
    await putAll(this.tableName, settled, 'the extracts of a batch').catch(() => undefined);
  }

  async entries(accountId: string, environment: Environment, from: string, to: string): Promise<FeeEntry[]> {
    const items = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': usagePk(accountId, environment), ':from': from, ':to': to },
    });
    return items
      .map(({ pk: _pk, sk: _sk, ...entry }) => entry as FeeEntry)
      .filter((entry) => entry.at >= from && entry.at < to);
  }
}

/** A batch's fee entry is keyed by its extract, so a repeated commit finds it written. */
const batchFeeKey = (header: ExtractHeader) => ({
  pk: usagePk(header.accountId, header.environment),
  sk: `${header.purchasedAt}#${header.id}`,
});

/** Index order of a batch's extracts: one purchase time, then the extract id. */
const batchOrder = (header: ExtractHeader) => String(Date.parse(header.purchasedAt)).padStart(15, '0');

/** A purchase's record while it is not committed: on the sweeper's index, with no expiry. */
const unsettledItem = (record: PurchaseRecord): Item => ({
  ...purchaseKey(record),
  extractId: record.extractId,
  validUntil: record.validUntil,
  record: JSON.stringify(record),
  gsi1pk: shardKey(UNSETTLED, `${record.key}#${record.slot}`),
  gsi1sk: `${record.purchasedAt}#${record.key}#${record.slot}`,
});

const settledItem = (record: PurchaseRecord): Item => {
  const { gsi1pk: _pk, gsi1sk: _sk, ...item } = unsettledItem(record);
  return { ...item, expiresAtEpoch: ttlOf(record.validUntil) };
};
