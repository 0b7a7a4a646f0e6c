/**
 * What the console's sign-in and members need of storage: links, sessions and members, each change
 * with its audit record.
 */
import type { KeyAuditRecord } from '../kernel/key-admin.ts';
import type { ConsoleMemberRecord, ConsoleRole, ConsoleSessionRecord } from '../kernel/sessions.ts';

/**
 * A sign-in link: what the session it opens will stand for, until `expiresAt`, once: a key (the
 * key-exchange link, `keyId` and `keyHash`) or a member (an invitation or an emailed link, `memberId`).
 */
export interface SignInLinkRecord {
  accountId: ConsoleSessionRecord['accountId'];
  environment: ConsoleSessionRecord['environment'];
  keyId?: string;
  keyHash?: string;
  memberId?: string;
  /** A member's link: its invitation, or a sign-in link the member asked for by email. */
  purpose?: 'invitation' | 'email';
  createdAt: string;
  expiresAt: string;
  /** When it opened its session; the record stays (`LINK_RECORD_LIFETIME_MS`), so a used link is told from an unknown one. */
  usedAt?: string;
}

export interface ConsoleSessionStore {
  /** Stores a new link by its token's hash. */
  createLink(linkHash: string, link: SignInLinkRecord): Promise<void>;
  /** The link, if it is stored (it may have expired or been used: the caller compares). */
  findLink(linkHash: string): Promise<SignInLinkRecord | undefined>;
  /**
   * Marks the link used and stores the session with its audit record, all or nothing: `used` when
   * the link was used already (another request opened it first), so a link opens one session at most.
   */
  openSession(input: {
    linkHash: string;
    sessionHash: string;
    session: ConsoleSessionRecord;
    audit: KeyAuditRecord;
    /**
     * A member's link: the member as read (`generation`), marked active with its first sign-in; the
     * session opens only if the member is still that one.
     */
    member?: Pick<ConsoleMemberRecord, 'accountId' | 'memberId' | 'generation'>;
  }): Promise<'opened' | 'used'>;
  /** Ends the session (with its audit record); false when it had ended already. */
  endSession(sessionHash: string, at: Date, audit: KeyAuditRecord): Promise<boolean>;
}

/** Where a member's address is a member: its account, environment and member id. */
export interface Membership {
  accountId: string;
  environment: ConsoleMemberRecord['environment'];
  memberId: string;
}

/** What a member's emailed sign-in needs: where the address is a member, and a link (nothing else is written). */
export interface MemberSignInLinks {
  find(accountId: string, memberId: string): Promise<ConsoleMemberRecord | undefined>;
  /** Where an address is a member (for its emailed sign-in link). */
  membershipsOf(email: string): Promise<Membership[]>;
  /** A link the member asked for by email (with no audit record: the sign-in it opens has one). */
  createLink(linkHash: string, link: SignInLinkRecord): Promise<void>;
  /**
   * Counts one request for links by `subject` (an address's or a source address's hash, with its
   * kind) in the window that ends at `windowEnd`, unless `limit` are counted there already: false
   * then, and nothing counted. Atomic, however many requests arrive at once.
   */
  countLinkRequest(subject: string, windowEnd: Date, limit: number): Promise<boolean>;
}

export interface ConsoleMemberStore {
  /** The account's members in one environment. */
  list(accountId: string, environment: ConsoleMemberRecord['environment']): Promise<ConsoleMemberRecord[]>;
  find(accountId: string, memberId: string): Promise<ConsoleMemberRecord | undefined>;
  /**
   * Stores the member, its address's claim in the account and environment, and its invitation
   * link, with the audit record, all or nothing: `exists` when the address is a member there already.
   */
  invite(input: {
    member: ConsoleMemberRecord;
    linkHash: string;
    link: SignInLinkRecord;
    audit: KeyAuditRecord;
  }): Promise<'invited' | 'exists'>;
  /**
   * A new role, and one more `generation` (which ends the member's sessions), if the member is as
   * read (`generation`): `gone` when it was removed or changed meanwhile.
   */
  changeRole(input: {
    member: ConsoleMemberRecord;
    role: ConsoleRole;
    audit: KeyAuditRecord;
    keepingAdmin?: string;
  }): Promise<MemberChange>;
  /** Deletes the member and its address's claim (its sessions end with it): `gone` when it had gone. */
  remove(input: {
    member: ConsoleMemberRecord;
    audit: KeyAuditRecord;
    keepingAdmin?: string;
  }): Promise<MemberChange>;
}

/**
 * What became of a change of a member: `done`; `gone`, the member was removed or changed meanwhile;
 * `contended`, the change named `keepingAdmin` (the id of another active admin, which the change
 * checks in the same transaction, so the account keeps an admin however many changes race) and
 * that member is no longer one, or another change of the same members was under way: read again.
 */
export type MemberChange = 'done' | 'gone' | 'contended';
