/**
 * Purchased extracts and the fee ledger. An extract is stored as a small header (owner, kind,
 * dates: kept for ever, so an expired extract answers 410 rather than 404) and its sections
 * (the bulky part, compressed and split, dropped by TTL after expiry).
 */
import type { Environment } from '../kernel/api-keys.ts';
import type { FeeEntry } from '../kernel/ports/fee-ledger.ts';

export const extractKinds = ['company', 'person', 'register', 'weeklySummary'] as const;
export type ExtractKind = (typeof extractKinds)[number];

export interface ExtractHeader {
  id: string;
  accountId: string;
  environment: Environment;
  kind: ExtractKind;
  /** current, historical or relational for companies. */
  type: string;
  /** What the extract is about, for example the company's nine-digit number. */
  subjectKey: string;
  purchasedAt: string;
  asOf: string;
  expiresAt: string;
  clientReference: string | null;
  requestId: string;
  /** The extract object without its sections, as the API shows it. */
  summary: Record<string, unknown>;
}

export interface StoredExtract {
  header: ExtractHeader;
  sections: Record<string, unknown>;
}

/** An index entry: the extracts an account holds for one subject, newest first. */
export interface HeldExtractRef {
  id: string;
  kind: ExtractKind;
  type: string;
  purchasedAt: string;
  asOf: string;
  expiresAt: string;
}

export interface ListedExtract extends HeldExtractRef {
  summary: Record<string, unknown>;
}

export interface ExtractListPage {
  items: ListedExtract[];
  /** Opaque position to continue from; undefined on the last page. */
  next: string | undefined;
}

/** The slot of a purchase of one extract (a batch names each by its person id). */
export const SINGLE_PURCHASE = 'single';

/**
 * One registry purchase, recorded before the registry is asked and settled by the commit that
 * makes its extract visible. Until then the sweeper finds it: one whose answer was stored is
 * committed, one whose answer never arrived is reconciled with the registry by its client key.
 * So whatever the registry billed ends up on the ledger, retried by the client or not.
 */
export interface PurchaseRecord {
  /** The purchase's key: from its Idempotency-Key scope when one was sent, else random. */
  key: string;
  /** `single` for a purchase of one extract; the person id within a batch. */
  slot: string;
  /** Sent with the billable registry call (derived from key and slot). */
  clientKey: string;
  /** Derived from key and slot, so every path that finishes the purchase names the same extract. */
  extractId: string;
  kind: ExtractKind;
  accountId: string;
  environment: Environment;
  requestId: string;
  clientReference: string | null;
  /** The first attempt's time: a retry or the sweeper commits with it. */
  purchasedAt: string;
  /** Until when a retry with the same Idempotency-Key may reuse the stored answer. */
  validUntil: string;
  /** What the registry was asked, in the use case's terms, so a lost answer can be rebuilt. */
  asked: Record<string, unknown>;
  /** Set once the answer's sections are stored: what the commit writes. */
  answer?: { header: ExtractHeader; fee: FeeEntry; batch: boolean };
}

/**
 * A list section stored in fixed-size pages, for lists too large to read whole (a weekly summary's
 * items): `keyOf` also files each item under its key (a postcode), so a filtered page is read
 * as directly as an unfiltered one. `attachment` is small JSON kept with the list's index (a
 * weekly summary's postcode totals).
 */
export interface PagedList {
  items: readonly unknown[];
  keyOf?: (item: unknown) => string | null;
  attachment?: unknown;
}

/** One page of a paged list: the items from `offset`, how many the (filtered) list holds, and its attachment. */
export interface ListPage {
  items: unknown[];
  total: number;
  attachment: unknown;
}

export interface Draft {
  id: string;
  sections: Record<string, unknown>;
  /** The purchase's record, with what its commit writes. */
  record: PurchaseRecord;
}

/** Which of an account's extracts a list page shows. */
export interface ExtractListOptions {
  kind?: ExtractKind;
  limit: number;
  after?: string;
  now: string;
  /** Only extracts whose subject key starts with `prefix` and contains `contains`. */
  subject?: { prefix?: string; contains?: string };
}

/** Held extracts and their items, as every read of one sees them (nothing here writes). */
export interface HeldExtracts {
  /** Header only (one read). */
  getHeader(id: string): Promise<ExtractHeader | undefined>;
  /** Header and every section (one query for all but the very largest extracts). */
  getExtract(id: string): Promise<StoredExtract | undefined>;
  /** One section of an extract (one query). */
  getSection(id: string, name: string): Promise<unknown>;
  /**
   * Items `offset` to `offset + limit` (at most 100) of a paged list, of those filed under `key`
   * when given: a constant number of reads, whatever the offset and the list's size. Undefined
   * when the extract has no such list.
   */
  readPage(
    id: string,
    name: string,
    range: { offset: number; limit: number; key?: string },
  ): Promise<ListPage | undefined>;
  /** The account's extracts of one subject, newest first, expired ones included. */
  heldForSubject(
    accountId: string,
    environment: Environment,
    kind: ExtractKind,
    subjectKey: string,
  ): Promise<ListedExtract[]>;
  /** The account's unexpired extracts (at `now`), newest first, optionally of one kind. */
  list(accountId: string, environment: Environment, options: ExtractListOptions): Promise<ExtractListPage>;
}

/**
 * The writes of a purchase: its answer stored as a draft, then committed with its fee (the commit
 * also settles the purchase's record).
 */
export interface ExtractPurchases {
  /**
   * Stores the registry's answer: the sections under the extract id, and the record with its
   * `answer`. Until the commit the sections are reachable only through `findDraft` with the
   * purchase's key. A batch purchase's answer (`answer.batch`) also writes the header and index
   * entries, invisible to every read until `commitBatch` writes the fee.
   */
  saveSections(
    id: string,
    sections: Record<string, unknown>,
    expiresAt: string,
    record: PurchaseRecord,
  ): Promise<void>;
  /**
   * Stores a list section of an extract in fixed-size pages (see `PagedList`), before the
   * purchase's `saveSections`: the list is reachable once the extract is committed. Safe to repeat.
   */
  savePagedList(id: string, name: string, list: PagedList, expiresAt: string): Promise<void>;
  /** The draft an earlier attempt with this key left (committed or not), if still valid at `now`. */
  findDraft(key: string, now: string): Promise<Draft | undefined>;
  /**
   * Every draft an earlier attempt with this key left, by slot (a batch purchase keeps one per
   * person), if still valid at `now`.
   */
  findDrafts(key: string, now: string): Promise<Map<string, Draft>>;
  /**
   * Header, indexes and fee entry in one transaction, which also settles the purchase's record:
   * the extract exists once this returns. Safe to repeat: the fee is written once. Resolves true
   * when this call wrote the header and fee, false when an earlier commit had.
   */
  commit(header: ExtractHeader, fee: FeeEntry, settles?: PurchaseRecord): Promise<boolean>;
  /**
   * A batch purchase of extracts saved with staged headers: the fee entries (at most 100) are
   * written in one transaction, which makes every extract visible at once. Safe to repeat, also
   * when some of them were committed on their own (by the sweeper): each fee is written once.
   */
  commitBatch(
    purchases: readonly { header: ExtractHeader; fee: FeeEntry; settles?: PurchaseRecord }[],
  ): Promise<void>;
}

/**
 * The records of purchases made at the registry: kept from before the registry is asked until the
 * commit settles them, so the sweeper finds the ones left unsettled.
 */
export interface PurchaseRecords {
  /**
   * Records a purchase before the registry is asked. A record already there (an earlier attempt
   * with the same key) is kept and returned, so every attempt uses the first one's time.
   */
  startPurchase(record: PurchaseRecord): Promise<PurchaseRecord>;
  /**
   * Records purchases of one batch (at most 100, one slot each) in one write, before the registry
   * is asked for them: as `startPurchase` for each, records already there are kept and returned.
   * In the order given.
   */
  startPurchases(records: readonly PurchaseRecord[]): Promise<PurchaseRecord[]>;
  /** Purchases started before `before` and not yet settled, oldest first. */
  unsettledPurchases(before: string, limit: number): Promise<PurchaseRecord[]>;
  /** Drops the record of a purchase the registry never made. */
  forgetPurchase(record: PurchaseRecord): Promise<void>;
}

export interface UsageLedger {
  /** Fee entries with `from <= at < to`, oldest first. */
  entries(accountId: string, environment: Environment, from: string, to: string): Promise<FeeEntry[]>;
}

declare module '../kernel/capability-ports.ts' {
  interface CapabilityOwnPorts {
    /** Held extracts and their items: bought, read back free for 12 months (reads only). */
    heldExtracts: HeldExtracts;
    /** A purchase's drafts and its commit with the fee. */
    extractPurchases: ExtractPurchases;
    /** Purchases recorded before the registry is asked, settled by their commit (the sweeper finishes the rest). */
    purchaseRecords: PurchaseRecords;
    /** Billing events, for the usage report. */
    ledger: UsageLedger;
  }
}
