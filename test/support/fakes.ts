/**
 * In-memory fakes of the ports the purchase and order use cases depend on, for fast unit tests
 * (no DynamoDB, no HTTP). They keep the promises the ports make — a commit is all or nothing and
 * writes one fee however often it is repeated, a batch's extracts are invisible until their fees
 * exist, a record settles with its commit — and they can fail on purpose.
 */

import type { Registry } from '../../shared/app/registry.ts';
import { RegistryUnreachable } from '../../shared/composition/registry/http-registry.ts';
import type { RegistryPurchaseOutcome } from '../../shared/extracts/registry-port.ts';
import type {
  Draft,
  ExtractHeader,
  ExtractKind,
  ExtractListPage,
  ExtractPurchases,
  HeldExtracts,
  ListedExtract,
  ListPage,
  PagedList,
  PurchaseRecord,
  PurchaseRecords,
  StoredExtract,
  UsageLedger,
} from '../../shared/extracts/store-port.ts';
import type { ApiKeyRecord, Environment } from '../../shared/kernel/api-keys.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import type { ApiKeyRepository } from '../../shared/kernel/ports/api-keys.ts';
import type { FeeEntry } from '../../shared/kernel/ports/fee-ledger.ts';
import type { IdempotencyRunner, IdempotentCall } from '../../shared/kernel/ports/idempotency.ts';
import type { Acquisition, LimiterStore } from '../../shared/kernel/ports/limiter.ts';
import type { RequestLog, RequestRecord } from '../../shared/kernel/ports/request-log.ts';
import type { SpendGuard } from '../../shared/kernel/ports/spend-guard.ts';
import type { ConsoleMemberRecord, ConsoleSessionRecord } from '../../shared/kernel/sessions.ts';
import type {
  FulfilmentMessage,
  FulfilmentQueue,
  OrderRecord,
  OrderStore,
} from '../../shared/orders/store-port.ts';
import type { PeopleSearch, PeopleSearchStore, SearchedPerson } from '../../shared/people/store-port.ts';

const copy = <T>(value: T): T => structuredClone(value);
const recordKey = (record: { key: string; slot: string }) => `${record.key}\u0000${record.slot}`;

export class MemoryExtractStore implements HeldExtracts, ExtractPurchases, PurchaseRecords, UsageLedger {
  /** Committed extracts only. */
  readonly headers = new Map<string, ExtractHeader>();
  readonly sections = new Map<string, Record<string, unknown>>();
  readonly fees = new Map<string, FeeEntry>();
  readonly records = new Map<string, { record: PurchaseRecord; settled: boolean }>();
  /** How many of the next commits (single or batch) fail before writing anything. */
  failCommits = 0;

  async startPurchase(record: PurchaseRecord): Promise<PurchaseRecord> {
    const known = this.records.get(recordKey(record));
    if (known) return copy(known.record);
    this.records.set(recordKey(record), { record: copy(record), settled: false });
    return record;
  }

  async startPurchases(records: readonly PurchaseRecord[]): Promise<PurchaseRecord[]> {
    return Promise.all(records.map((record) => this.startPurchase(record)));
  }

  async saveSections(
    id: string,
    sections: Record<string, unknown>,
    _expiresAt: string,
    record: PurchaseRecord,
  ) {
    this.sections.set(id, copy(sections));
    const known = this.records.get(recordKey(record));
    this.records.set(recordKey(record), { record: copy(record), settled: known?.settled ?? false });
  }

  private draftOf(entry: { record: PurchaseRecord } | undefined, now: string): Draft | undefined {
    if (!entry || entry.record.validUntil <= now || !entry.record.answer) return undefined;
    const sections = this.sections.get(entry.record.extractId);
    return sections
      ? { id: entry.record.extractId, sections: copy(sections), record: copy(entry.record) }
      : undefined;
  }

  async findDraft(key: string, now: string): Promise<Draft | undefined> {
    return this.draftOf(this.records.get(recordKey({ key, slot: 'single' })), now);
  }

  async findDrafts(key: string, now: string): Promise<Map<string, Draft>> {
    const drafts = new Map<string, Draft>();
    for (const entry of this.records.values()) {
      if (entry.record.key !== key) continue;
      const draft = this.draftOf(entry, now);
      if (draft) drafts.set(entry.record.slot, draft);
    }
    return drafts;
  }

  private failIfAsked() {
    if (this.failCommits > 0) {
      this.failCommits -= 1;
      throw new Error('injected fault: the commit failed');
    }
  }

  private settle(record: PurchaseRecord | undefined) {
    if (!record) return;
    const known = this.records.get(recordKey(record));
    if (known) known.settled = true;
  }

  async commit(header: ExtractHeader, fee: FeeEntry, settles?: PurchaseRecord): Promise<boolean> {
    this.failIfAsked();
    const fresh = !this.headers.has(header.id);
    if (fresh) {
      this.headers.set(header.id, copy(header));
      this.fees.set(header.id, copy(fee));
    }
    this.settle(settles);
    return fresh;
  }

  /** Paged lists by extract id and name, kept whole (the store's paging is DynamoDB's concern). */
  readonly pagedLists = new Map<string, { items: unknown[]; keys: (string | null)[]; attachment: unknown }>();

  async savePagedList(id: string, name: string, list: PagedList, _expiresAt: string): Promise<void> {
    this.pagedLists.set(`${id}#${name}`, {
      items: copy([...list.items]),
      keys: list.items.map((item) => list.keyOf?.(item) ?? null),
      attachment: copy(list.attachment ?? null),
    });
  }

  async readPage(
    id: string,
    name: string,
    range: { offset: number; limit: number; key?: string },
  ): Promise<ListPage | undefined> {
    const list = this.pagedLists.get(`${id}#${name}`);
    if (!list) return undefined;
    const items =
      range.key === undefined ? list.items : list.items.filter((_, index) => list.keys[index] === range.key);
    return {
      items: copy(items.slice(range.offset, range.offset + Math.min(range.limit, 100))),
      total: items.length,
      attachment: copy(list.attachment),
    };
  }

  async commitBatch(
    purchases: readonly { header: ExtractHeader; fee: FeeEntry; settles?: PurchaseRecord }[],
  ): Promise<void> {
    this.failIfAsked();
    for (const { header, fee, settles } of purchases) {
      if (!this.fees.has(header.id)) this.fees.set(header.id, copy(fee));
      this.headers.set(header.id, copy(header));
      this.settle(settles);
    }
  }

  async unsettledPurchases(before: string, limit: number): Promise<PurchaseRecord[]> {
    return [...this.records.values()]
      .filter((entry) => !entry.settled && entry.record.purchasedAt < before)
      .slice(0, limit)
      .map((entry) => copy(entry.record));
  }

  async forgetPurchase(record: PurchaseRecord): Promise<void> {
    this.records.delete(recordKey(record));
  }

  async getHeader(id: string): Promise<ExtractHeader | undefined> {
    const header = this.headers.get(id);
    return header && copy(header);
  }

  async getExtract(id: string): Promise<StoredExtract | undefined> {
    const header = this.headers.get(id);
    return header && { header: copy(header), sections: copy(this.sections.get(id) ?? {}) };
  }

  async getSection(id: string, name: string): Promise<unknown> {
    return copy(this.sections.get(id)?.[name]);
  }

  private listed(filter: (header: ExtractHeader) => boolean): ListedExtract[] {
    return [...this.headers.values()]
      .filter(filter)
      .sort((a, b) => b.purchasedAt.localeCompare(a.purchasedAt))
      .map(({ id, kind, type, purchasedAt, asOf, expiresAt, summary }) => ({
        id,
        kind,
        type,
        purchasedAt,
        asOf,
        expiresAt,
        summary: copy(summary),
      }));
  }

  async heldForSubject(accountId: string, environment: Environment, kind: ExtractKind, subjectKey: string) {
    return this.listed(
      (h) =>
        h.accountId === accountId &&
        h.environment === environment &&
        h.kind === kind &&
        h.subjectKey === subjectKey,
    );
  }

  async list(
    accountId: string,
    environment: Environment,
    options: {
      kind?: ExtractKind;
      limit: number;
      now: string;
      subject?: { prefix?: string; contains?: string };
    },
  ): Promise<ExtractListPage> {
    const items = this.listed(
      (h) =>
        h.accountId === accountId &&
        h.environment === environment &&
        (!options.kind || h.kind === options.kind) &&
        h.expiresAt > options.now &&
        h.subjectKey.startsWith(options.subject?.prefix ?? '') &&
        h.subjectKey.includes(options.subject?.contains ?? ''),
    );
    return { items: items.slice(0, options.limit), next: undefined };
  }

  async entries(accountId: string, environment: Environment, from: string, to: string): Promise<FeeEntry[]> {
    return [...this.fees.values()]
      .filter((f) => f.accountId === accountId && f.environment === environment && f.at >= from && f.at < to)
      .map(copy);
  }
}

/** One store in each of the extract store's roles, as the DynamoDB adapter serves all three. */
export const extractRoles = (store: MemoryExtractStore) => ({
  heldExtracts: store,
  extractPurchases: store,
  purchaseRecords: store,
});

export class MemoryPeopleSearchStore implements PeopleSearchStore {
  readonly searches = new Map<string, PeopleSearch>();

  async save(search: PeopleSearch): Promise<void> {
    this.searches.set(search.id, copy(search));
  }

  async get(searchId: string): Promise<PeopleSearch | undefined> {
    const search = this.searches.get(searchId);
    return search && copy(search);
  }

  async getPerson(personId: string): Promise<SearchedPerson | undefined> {
    for (const search of this.searches.values()) {
      const person = search.people.find((p) => p.id === personId);
      if (person) {
        return {
          ...copy(person),
          searchId: search.id,
          accountId: search.accountId,
          environment: search.environment,
          searchExpiresAt: search.expiresAt,
        };
      }
    }
    return undefined;
  }
}

const billableMethods = {
  purchaseCompanyExtract: 'company.extract',
  purchasePersonExtract: 'person.extract',
  searchCompaniesOffline: 'search.offline',
  purchaseWeeklySummary: 'weekly.summary',
  purchaseRegisterExtract: 'register.extract',
} as const;

/**
 * The registry live keys reach, in memory: an in-process registry (the sandbox) behind the
 * protocol's promises for keyed calls. The first call with a client key does the work and is
 * billed; a repeat gets the first result, unbilled. `loseAnswers` makes the next billable answers
 * get lost after the work is done (billed, outcome unknown to the caller).
 */
export class KeyedRegistry {
  readonly billed: { operation: string; clientKey: string }[] = [];
  readonly calls: { operation: string; clientKey: string }[] = [];
  private readonly outcomes = new Map<string, { operation: string; result: unknown }>();
  loseAnswers = 0;
  readonly registry: Registry;

  constructor(inner: Registry) {
    this.registry = new Proxy(inner, {
      get: (target, property, receiver) => {
        if (property === 'findPurchase') {
          return async (clientKey: string): Promise<RegistryPurchaseOutcome> => {
            const known = this.outcomes.get(clientKey);
            return known ? { state: 'completed', ...copy(known) } : { state: 'none' };
          };
        }
        const operation = billableMethods[property as keyof typeof billableMethods];
        const value = Reflect.get(target, property, receiver);
        if (!operation || typeof value !== 'function')
          return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          const clientKey = args.at(-1) as string;
          this.calls.push({ operation, clientKey });
          let known = this.outcomes.get(clientKey);
          if (!known) {
            known = { operation, result: await value.apply(target, args) };
            this.outcomes.set(clientKey, known);
            this.billed.push({ operation, clientKey });
          }
          if (this.loseAnswers > 0) {
            this.loseAnswers -= 1;
            throw new RegistryUnreachable(operation as never, 'connection', 'answer lost', {
              outcomeUnknown: true,
            });
          }
          return copy(known.result);
        };
      },
    });
  }
}

export class MemoryOrderStore implements Pick<OrderStore, 'create' | 'get'> {
  readonly orders = new Map<string, OrderRecord>();

  async create(order: OrderRecord): Promise<boolean> {
    if (this.orders.has(order.id)) return false;
    this.orders.set(order.id, copy(order));
    return true;
  }

  async get(id: string): Promise<OrderRecord | undefined> {
    const order = this.orders.get(id);
    return order && copy(order);
  }
}

export class MemoryQueue implements FulfilmentQueue {
  readonly sent: FulfilmentMessage[] = [];
  /** Sends fail while true (the queue unreachable). */
  down = false;

  async send(message: FulfilmentMessage): Promise<void> {
    if (this.down) throw new Error('injected fault: the queue is unreachable');
    this.sent.push(copy(message));
  }
}

/** API keys in memory, by hash. */
export class MemoryApiKeys implements ApiKeyRepository {
  readonly records = new Map<string, ApiKeyRecord>();

  async findByHash(hash: string) {
    return this.records.get(hash);
  }
  async create(hash: string, record: ApiKeyRecord) {
    if (this.records.has(hash)) throw new Error('a key with this hash exists');
    this.records.set(hash, record);
  }
  async revoke(keyId: string, _accountId: string, at: Date) {
    for (const record of this.records.values()) {
      if (record.keyId === keyId) {
        record.status = 'revoked';
        record.revokedAt = at.toISOString();
        return true;
      }
    }
    return false;
  }
  async listByAccount(accountId: string) {
    return [...this.records.values()].filter((record) => record.accountId === accountId);
  }
  /** Every `recordUse` call, to count the writes the request path makes. */
  readonly uses: { hash: string; hour: string }[] = [];
  async recordUse(hash: string, hour: string) {
    this.uses.push({ hash, hour });
    const record = this.records.get(hash);
    if (record && (record.lastUsedHour === undefined || record.lastUsedHour < hour))
      record.lastUsedHour = hour;
  }
  readonly sessions = new Map<string, ConsoleSessionRecord>();
  /** By `<accountId>#<memberId>`. */
  readonly members = new Map<string, ConsoleMemberRecord>();
  async findMember(accountId: string, memberId: string) {
    return this.members.get(`${accountId}#${memberId}`);
  }
  async findSession(tokenHash: string) {
    return this.sessions.get(tokenHash);
  }
}

/** A limiter that admits every request (the limits have their own tests against DynamoDB Local). */
export class OpenLimiter implements LimiterStore {
  acquired = 0;
  released = 0;
  async acquire(): Promise<Acquisition> {
    this.acquired += 1;
    return { ok: true, counts: {}, slot: 0, stale: [] };
  }
  async release(): Promise<void> {
    this.released += 1;
  }
}

/** Request records in memory, by request id. */
export class MemoryRequestLog implements RequestLog {
  readonly records = new Map<string, RequestRecord>();
  async record(entry: RequestRecord): Promise<void> {
    this.records.set(entry.requestId, entry);
  }
  async find(requestId: string): Promise<RequestRecord | undefined> {
    return this.records.get(requestId);
  }
}

/** `Idempotency-Key` in memory: a key's first result is kept and returned again; another request is a conflict. */
export function memoryIdempotency(): IdempotencyRunner {
  const kept = new Map<string, { request: string; packed: unknown }>();
  return async <T>(call: IdempotentCall<T>): Promise<T> => {
    if (call.key === undefined) return call.run();
    const name = `${call.scope}#${call.key}`;
    const request = JSON.stringify(call.request);
    const known = kept.get(name);
    if (known) {
      if (known.request !== request) throw new ApiError('idempotency_conflict', { param: 'Idempotency-Key' });
      return call.replay ? call.replay.unpack(known.packed) : (known.packed as T);
    }
    const result = await call.run();
    kept.set(name, { request, packed: call.replay ? call.replay.pack(result) : result });
    return result;
  };
}

/** A spend guard that holds every purchase and counts nothing (unit tests of purchases without caps). */
export const openSpendGuard: SpendGuard = {
  hold: async () => ({ settle: async () => undefined, release: async () => undefined }),
};
