/**
 * What every kind of extract supplies to what spans the kinds: `store` and `reconcile` for the
 * sweeper (reconcile-purchases.ts), `present` for `GET /v1/extracts/{id}` (present-extract.ts).
 * Each of those modules holds one role for every kind and is checked against `ExtractKindParts`,
 * so a function bundles only the role it runs; extract-kinds.ts joins them into the one record
 * of every kind, so a kind without one of its parts does not compile.
 */
import type {
  ExtractKind,
  ExtractPurchases,
  HeldExtracts,
  PurchaseRecord,
  PurchaseRecords,
  StoredExtract,
} from '../extracts/store-port.ts';
import type { Owner } from '../kernel/api-keys.ts';
import type { CursorCodec } from '../kernel/cursor.ts';
import type { Registry } from './registry.ts';

/** What presenting a held extract may read: a weekly summary shows its first page of items, with a cursor. */
export interface HeldExtractRead {
  store: HeldExtracts;
  cursors: CursorCodec;
  owner: Owner;
}

/** What settling an unsettled purchase uses: the purchase's writes and records, and the registry of its environment (built when asked). */
export interface SettleDeps {
  extractPurchases: ExtractPurchases;
  purchaseRecords: PurchaseRecords;
  registry(): Registry;
}

/** Where a sweep leaves a purchase: committed, dropped (the registry never made it) or left for the next sweep. */
export type SettleOutcome = 'committed' | 'forgotten' | 'waiting';

export interface ExtractKindPart {
  /** Stores a registry answer to a purchase of this kind as the purchase itself does; returns the answered record. */
  store(answer: unknown, record: PurchaseRecord, deps: SettleDeps): Promise<PurchaseRecord>;
  /** The held extract as `GET /v1/extracts/{id}` shows it. */
  present(stored: StoredExtract, read: HeldExtractRead): Promise<Record<string, unknown>>;
  /** Settles a purchase of this kind that its request left unsettled. */
  reconcile(record: PurchaseRecord, deps: SettleDeps): Promise<SettleOutcome>;
}

/** Every kind of extract with every part. */
export type ExtractKindParts = { readonly [K in ExtractKind]: ExtractKindPart };

/** Some of the parts (one role), for every kind. */
export type ExtractKindRole<P extends keyof ExtractKindPart> = {
  readonly [K in ExtractKind]: Pick<ExtractKindParts[K], P>;
};
