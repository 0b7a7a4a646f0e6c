/**
 * What the console's sign-in and members need of storage: links, sessions and members, each change
 * with its audit record.
 */
import type { KeyAdministration, KeyAuditRecord } from '../kernel/key-admin.ts';
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
 * A member's passkey (a WebAuthn credential, shared/console/passkeys.ts): the public key the
 * authenticator made, for one member of one account and environment.
 */
export interface PasskeyRecord {
  /** `pk_` and 20 random hex digits: names it in the console and its audit records. */
  passkeyId: string;
  accountId: string;
  environment: ConsoleMemberRecord['environment'];
  memberId: string;
  /** The credential's id (base64url), as the authenticator gave it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter as last seen (0 for authenticators that keep none). */
  counter: number;
  transports: string[];
  /** What the member called it (or the default, `Passkey of <date>`). */
  name: string;
  /** Whether it is synced between devices (`multiDevice`) or bound to one (`singleDevice`). */
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A WebAuthn challenge as issued: what for, whose (a registration), until when. */
export interface PasskeyChallengeRecord {
  purpose: 'registration' | 'authentication';
  /** A registration's member (the session's), which only that member may answer. */
  accountId?: string;
  memberId?: string;
  createdAt: string;
  expiresAt: string;
  /** When an answer spent it; the record stays until its TTL, so a replay is told from an unknown one. */
  usedAt?: string;
}

/**
 * What the options routes need (one of them public): a new challenge written, a member's passkeys
 * read; nothing else is written.
 */
export interface PasskeyChallenges {
  createChallenge(challengeHash: string, challenge: PasskeyChallengeRecord): Promise<void>;
  /** A member's passkeys (at most a few; read from the index, so a just-made one may be missing). */
  list(accountId: string, memberId: string): Promise<PasskeyRecord[]>;
}

/** What passkeys need of storage: challenges, the members' credentials and the sessions they open. */
export interface PasskeyStore extends PasskeyChallenges {
  findChallenge(challengeHash: string): Promise<PasskeyChallengeRecord | undefined>;
  findByCredentialId(credentialId: string): Promise<PasskeyRecord | undefined>;
  /**
   * Spends the challenge and stores the passkey with its audit record, all or nothing, while the
   * member is the one read (`generation`): `refused` when the challenge was spent meanwhile, the
   * member changed or was removed, or the credential is stored already.
   */
  register(input: {
    challengeHash: string;
    usedAt: string;
    passkey: PasskeyRecord;
    member: Pick<ConsoleMemberRecord, 'accountId' | 'memberId' | 'generation'>;
    audit: KeyAuditRecord;
  }): Promise<'registered' | 'refused'>;
  /**
   * Spends the challenge, moves the passkey's counter on (from the one read) and its last use, and
   * stores the session with its audit record, all or nothing, while the member is the one read:
   * `refused` when any of them changed meanwhile (a replay, a removal, a concurrent sign-in).
   */
  openSession(input: {
    challengeHash: string;
    passkey: PasskeyRecord;
    counter: number;
    sessionHash: string;
    session: ConsoleSessionRecord;
    member: Pick<ConsoleMemberRecord, 'accountId' | 'memberId' | 'generation'>;
    audit: KeyAuditRecord;
  }): Promise<'opened' | 'refused'>;
  /** Deletes the passkey with its audit record; false when it had gone. */
  remove(input: { passkey: PasskeyRecord; audit: KeyAuditRecord }): Promise<boolean>;
}

/**
 * What became of a change of a member: `done`; `gone`, the member was removed or changed meanwhile;
 * `contended`, the change named `keepingAdmin` (the id of another active admin, which the change
 * checks in the same transaction, so the account keeps an admin however many changes race) and
 * that member is no longer one, or another change of the same members was under way: read again.
 */
export type MemberChange = 'done' | 'gone' | 'contended';

declare module '../kernel/capability-ports.ts' {
  interface CapabilityOwnPorts {
    /** Console sign-in links and sessions, in the keys table. */
    consoleSessions: ConsoleSessionStore;
    /** Console members and their invitations, in the keys table (members.ts). */
    consoleMembers: ConsoleMemberStore;
    /** A member's emailed sign-in link (the public sign-in form: reads members, writes links only). */
    memberSignInLinks: MemberSignInLinks;
    /** Members' passkeys, their challenges and the sessions they open (passkeys.ts). */
    passkeys: PasskeyStore;
    /** The passkey options routes: a challenge written, the member's passkeys read. */
    passkeyChallenges: PasskeyChallenges;
    /** The account's keys: list, rotate and revoke with audit records (shared/kernel/key-admin.ts). */
    keyAdministration: KeyAdministration;
  }
}
