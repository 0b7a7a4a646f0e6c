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
}

export interface ConsoleSessionStore {
  /** Stores a new link by its token's hash. */
  createLink(linkHash: string, link: SignInLinkRecord): Promise<void>;
  /** The link, if it is stored (it may have expired: the caller compares times). */
  findLink(linkHash: string): Promise<SignInLinkRecord | undefined>;
  /**
   * Deletes the link and stores the session with its audit record, all or nothing: `used` when the
   * link is gone (another request opened it first), so a link opens one session at most.
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
