/**
 * Spend caps' storage (docs/usage.md, "Spend caps"): the caps an account sets on itself and on
 * its keys, one spend counter per account and per key per calendar month (UTC), and the holds a
 * purchase takes on them before the registry is asked.
 */
import type { Environment } from '../kernel/api-keys.ts';
import type { SpendGuard } from '../kernel/ports/spend-guard.ts';
import type { ConsoleMemberRecord } from '../kernel/sessions.ts';
import type { EventRecord } from '../webhooks/event-port.ts';

/** What a cap applies to: the whole account (in one environment), or one of its keys. */
export type CapScope = { kind: 'account' } | { kind: 'key'; keyId: string };

export interface SpendCap {
  accountId: string;
  environment: Environment;
  scope: CapScope;
  /** The most the scope may spend in a calendar month, in cents of the stage's currency. */
  amountCents: number;
  /** Account caps: who gets the alert emails besides the account's billing recipients. */
  alertEmails: readonly string[];
  updatedAt: string;
}

/** What a scope spent in a month: fees settled plus holds still open, and the alerts sent. */
export interface SpendCounter {
  spentCents: number;
  /** Thresholds (percent of the cap) whose alert was sent this month. */
  alerted: readonly number[];
}

/** A purchase's hold: reserved before the registry is asked, keyed by the purchase. */
export interface SpendReservation {
  /** The purchase's key (Idempotency-Key's recovery key, else the request id), hashed by the store. */
  key: string;
  accountId: string;
  environment: Environment;
  /** The key that buys; null for a charge of the account's own (monitoring's daily charge, charges.ts). */
  keyId: string | null;
  /** The calendar month (`YYYY-MM`, UTC) the hold counts in. */
  month: string;
  amountCents: number;
  requestId: string;
  reservedAt: string;
}

/** What `reserve` did: held; held before (a retry: not counted again); refused by a cap. */
export type ReserveOutcome =
  | { outcome: 'held' }
  | { outcome: 'held_before'; reservation: SpendReservation }
  | { outcome: 'refused'; scope: CapScope['kind'] };

/** The caps, counters and holds: what the spend guard and the alerts use. */
export interface SpendHoldStore {
  /** The account's cap and its key's (absent where none is set). */
  capsOf(
    accountId: string,
    environment: Environment,
    keyId: string,
  ): Promise<{ account?: SpendCap; key?: SpendCap }>;
  /** Every cap of the account in the environment: the account's, then its keys'. */
  listCaps(accountId: string, environment: Environment): Promise<SpendCap[]>;
  /**
   * Writes the cap; with `onlyLowering`, only where none is set or the stored amount is at least
   * the new one (false, nothing written, otherwise).
   */
  putCap(cap: SpendCap, options?: { onlyLowering?: boolean }): Promise<boolean>;
  deleteCap(accountId: string, environment: Environment, scope: CapScope): Promise<void>;
  counter(accountId: string, environment: Environment, scope: CapScope, month: string): Promise<SpendCounter>;
  /**
   * In one transaction: puts the hold (unless one with its key exists) and adds its amount to the
   * account's and the key's counters, each on condition it stays within the cap given (none: no
   * condition). Nothing is written when any condition fails.
   */
  reserve(reservation: SpendReservation, limits: { account?: number; key?: number }): Promise<ReserveOutcome>;
  /**
   * Sets an open hold to `actualCents` (0: released), moving both counters by the difference; false
   * (nothing written) when it was settled already, by a retry or a sweep.
   */
  settle(reservation: SpendReservation, actualCents: number): Promise<boolean>;
  /** Open holds reserved before `reservedBefore`, oldest first, at most `limit`. */
  openHolds(reservedBefore: string, limit: number): Promise<SpendReservation[]>;
  /** The hold of a purchase key, if any. */
  reservation(key: string): Promise<SpendReservation | undefined>;
  /** What the request's fee entries came to (cents), written at `since` or later; null for none. */
  feesOfRequest(
    accountId: string,
    environment: Environment,
    requestId: string,
    since: string,
  ): Promise<number | null>;
  /**
   * Marks `threshold` alerted on the scope's counter of `month` and records `event`, in one
   * transaction; false (nothing written) when it was alerted already.
   */
  alert(
    ref: { accountId: string; environment: Environment; scope: CapScope; month: string },
    threshold: number,
    event: EventRecord,
  ): Promise<boolean>;
}

/**
 * Also the key lookup that setting a key's cap needs (the cap routes): apart, so that the guard in
 * every billable function does not bundle the key store.
 */
export interface SpendCapStore extends SpendHoldStore {
  /** Whether the account has a key with this id in the environment. */
  hasKey(accountId: string, environment: Environment, keyId: string): Promise<boolean>;
}

/**
 * Who gets an account's billing emails (the spend alerts): its console members with the `billing` or
 * `admin` role (`billingRecipientsOf`, alerts.ts), and the account cap's `alertEmails`.
 */
export interface BillingRecipients {
  recipientsOf(accountId: string, environment: Environment): Promise<string[]>;
}

declare module '../kernel/capability-ports.ts' {
  interface CapabilityOwnPorts {
    /** Monthly spend caps, their counters and the purchases' holds on them. */
    spendCaps: SpendCapStore;
    /** Every billable route: its purchase held against the spend caps before it runs (the pipeline's port, kernel/ports/spend-guard.ts). */
    spendGuard: SpendGuard;
    /** Who is mailed an account's spend alerts (workers only: the sweeper). */
    billingRecipients: BillingRecipients;
  }
}

/** The account's console members in an environment (the keys table's `MEMBER#` items). */
export interface MemberDirectory {
  list(
    accountId: string,
    environment: Environment,
  ): Promise<readonly Pick<ConsoleMemberRecord, 'email' | 'role'>[]>;
}
