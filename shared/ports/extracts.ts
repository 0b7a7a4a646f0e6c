/**
 * Purchased extracts and the fee ledger. An extract is stored as a small header (owner, kind,
 * dates: kept for ever, so an expired extract answers 410 rather than 404) and its sections
 * (the bulky part, compressed and split, dropped by TTL after expiry).
 */
import type { Environment } from '../domain/api-keys.ts';

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

/** One billable act (or, for test keys, one non-billable purchase) as the invoice shows it. */
export interface FeeEntry {
  accountId: string;
  environment: Environment;
  at: string;
  product: string;
  /** The statutory fee code; null when nothing was charged (test keys). */
  feeCode: string | null;
  quantity: number;
  billable: boolean;
  clientReference: string | null;
  requestId: string;
  /** What the fee paid for: an extract or order id. */
  resourceId: string;
}

export interface ListedExtract extends HeldExtractRef {
  summary: Record<string, unknown>;
}

export interface ExtractListPage {
  items: ListedExtract[];
  /** Opaque position to continue from; undefined on the last page. */
  next: string | undefined;
}

export interface DraftRecovery {
  /** The purchase's recovery key (from its Idempotency-Key). */
  key: string;
  validUntil: string;
  /** Which draft of the purchase this is, when a purchase buys several extracts. */
  slot?: string;
}

export interface Draft {
  id: string;
  sections: Record<string, unknown>;
}

export interface ExtractStore {
  /**
   * Stores the sections first, under the extract id. Until `commit` runs they are reachable
   * only through `findDraft` with the recovery key (a purchase's Idempotency-Key scope).
   * An extract of a batch purchase passes its header as `staged`: the header and index entries
   * are written too, invisible to every read until `commitBatch` writes the fee.
   */
  saveSections(
    id: string,
    sections: Record<string, unknown>,
    expiresAt: string,
    recovery?: DraftRecovery,
    staged?: ExtractHeader,
  ): Promise<void>;
  /** The draft an earlier attempt with this recovery key left (committed or not), if still valid at `now`. */
  findDraft(recoveryKey: string, now: string): Promise<Draft | undefined>;
  /**
   * Every draft an earlier attempt with this recovery key left, by slot (a batch purchase keeps
   * one per person), if still valid at `now`.
   */
  findDrafts(recoveryKey: string, now: string): Promise<Map<string, Draft>>;
  /** Header, indexes and fee entry in one transaction: the extract exists once this returns. */
  commit(header: ExtractHeader, fee: FeeEntry): Promise<void>;
  /**
   * A batch purchase of extracts saved with `staged` headers: the fee entries (at most 100) are
   * written in one transaction, which makes every extract visible at once. Safe to repeat with
   * the same extracts: the fees are written once.
   */
  commitBatch(purchases: readonly { header: ExtractHeader; fee: FeeEntry }[]): Promise<void>;
  /** Header only (one read). */
  getHeader(id: string): Promise<ExtractHeader | undefined>;
  /** Header and every section (one query for all but the very largest extracts). */
  getExtract(id: string): Promise<StoredExtract | undefined>;
  /** One section of an extract (one query). */
  getSection(id: string, name: string): Promise<unknown>;
  /** The account's extracts of one subject, newest first, expired ones included. */
  heldForSubject(
    accountId: string,
    environment: Environment,
    kind: ExtractKind,
    subjectKey: string,
  ): Promise<ListedExtract[]>;
  /** The account's unexpired extracts (at `now`), newest first, optionally of one kind. */
  list(
    accountId: string,
    environment: Environment,
    options: { kind?: ExtractKind; limit: number; after?: string; now: string },
  ): Promise<ExtractListPage>;
}

export interface UsageLedger {
  /** Fee entries with `from <= at < to`, oldest first. */
  entries(accountId: string, environment: Environment, from: string, to: string): Promise<FeeEntry[]>;
}
