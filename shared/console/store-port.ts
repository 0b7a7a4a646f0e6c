/** What the console's sign-in needs of storage: links and sessions, each change with its audit record. */
import type { KeyAuditRecord } from '../kernel/key-admin.ts';
import type { ConsoleSessionRecord } from '../kernel/sessions.ts';

/** A sign-in link: what the session it opens will stand for, until `expiresAt`, once. */
export interface SignInLinkRecord {
  accountId: ConsoleSessionRecord['accountId'];
  environment: ConsoleSessionRecord['environment'];
  keyId: string;
  keyHash: string;
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
  }): Promise<'opened' | 'used'>;
  /** Ends the session (with its audit record); false when it had ended already. */
  endSession(sessionHash: string, at: Date, audit: KeyAuditRecord): Promise<boolean>;
}
