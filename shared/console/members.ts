/**
 * The account's console members (docs/console.md, "Members and roles"): an email address with a
 * role, in the account and environment of the admin who invited it. An admin invites (the
 * invitation is a single-use link, emailed), changes a role or removes a member; each change has
 * its audit record, `by` the admin's session. A change of role or a removal ends the member's
 * sessions at once: each request of a member's session reads the member again
 * (shared/kernel/http/credential.ts).
 */
import { randomBytes } from 'node:crypto';
import { ApiError } from '../kernel/errors/api-error.ts';
import type { AuthContext } from '../kernel/http/handler-types.ts';
import { type KeyAdministration, newAuditRecord } from '../kernel/key-admin.ts';
import type { Mailer } from '../kernel/ports/mailer.ts';
import {
  type ConsoleMemberRecord,
  type ConsoleRole,
  hashToken,
  LINK_LIFETIME_MS,
  newToken,
} from '../kernel/sessions.ts';
import { consoleSessionOf } from './keys.ts';
import { SIGN_IN_PATH, SIGN_IN_TOKEN_PARAM } from './sign-in.ts';
import type { ConsoleMemberStore, MemberChange, MemberSignInLinks, SignInLinkRecord } from './store-port.ts';

/** An invitation's link works once, for 72 hours (a colleague may be away for a weekend). */
export const INVITATION_LIFETIME_MS = 72 * 60 * 60 * 1000;

const MEMBER_ID_PATTERN = /^mem_[0-9a-f]{20}$/;
export const isMemberId = (id: string): boolean => MEMBER_ID_PATTERN.test(id);
export const newMemberId = (): string => `mem_${randomBytes(10).toString('hex')}`;

/** Addresses are compared in lower case, without surrounding spaces. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
/** What the service accepts as an address: one `@`, a dot in the domain, no spaces, at most 254 characters. */
export const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;
export const isEmail = (email: string): boolean => email.length <= 254 && EMAIL_PATTERN.test(email);

export function presentMember(member: ConsoleMemberRecord) {
  return {
    object: 'consoleMember' as const,
    id: member.memberId,
    email: member.email,
    role: member.role,
    status: member.status,
    invitedAt: member.invitedAt,
    invitedBy: member.invitedBy,
    joinedAt: member.joinedAt ?? null,
  };
}

const by = (auth: AuthContext) => `console:${consoleSessionOf(auth).sessionId}`;

export async function listMembers(store: ConsoleMemberStore, auth: AuthContext) {
  consoleSessionOf(auth);
  const members = await store.list(auth.accountId, auth.environment);
  return members.sort((a, b) => a.invitedAt.localeCompare(b.invitedAt)).map(presentMember);
}

/** The message an invitation or a requested sign-in link is sent in. */
export function memberLinkMail(input: {
  to: string;
  url: string;
  purpose: 'invitation' | 'email';
  accountId: string;
  environment: string;
  role: ConsoleRole;
  expiresAt: string;
  idempotencyKey: string;
}) {
  const where = `account ${input.accountId} (${input.environment})`;
  const text =
    input.purpose === 'invitation'
      ? `You have been invited to the account console of the Company Register Data Service, ${where}, as ${input.role}.\n\nOpen this link to accept and sign in (it works once, until ${input.expiresAt}):\n\n${input.url}\n\nIf you did not expect this, ignore this message.\n`
      : `Someone asked to sign in to the account console of the Company Register Data Service, ${where}, with this address.\n\nOpen this link to sign in (it works once, until ${input.expiresAt}):\n\n${input.url}\n\nIf that was not you, ignore this message: nothing happens without the link.\n`;
  return {
    to: input.to,
    subject:
      input.purpose === 'invitation'
        ? 'Your invitation to the account console'
        : 'Your sign-in link for the account console',
    text,
    attachments: [],
    idempotencyKey: input.idempotencyKey,
  };
}

export async function inviteMember(
  ports: { store: ConsoleMemberStore; mailer: Mailer },
  input: { auth: AuthContext; email: string; role: ConsoleRole; baseUrl: string; now: Date },
) {
  const email = normaliseEmail(input.email);
  if (!isEmail(email))
    throw new ApiError('validation_error', { param: 'email', message: 'email must be an email address.' });
  const { auth, now } = input;
  const member: ConsoleMemberRecord = {
    memberId: newMemberId(),
    accountId: auth.accountId,
    environment: auth.environment,
    email,
    role: input.role,
    status: 'invited',
    generation: 0,
    invitedAt: now.toISOString(),
    invitedBy: by(auth),
  };
  const token = newToken();
  const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString();
  const link: SignInLinkRecord = {
    accountId: auth.accountId,
    environment: auth.environment,
    memberId: member.memberId,
    purpose: 'invitation',
    createdAt: now.toISOString(),
    expiresAt,
  };
  const audit = newAuditRecord(
    {
      accountId: auth.accountId,
      action: 'member_invited',
      keyId: member.memberId,
      by: member.invitedBy,
      detail: `${email} as ${input.role} (${auth.environment})`,
    },
    now,
  );
  const outcome = await ports.store.invite({ member, linkHash: hashToken(token), link, audit });
  if (outcome === 'exists') throw new ApiError('member_already_exists', { param: 'email' });
  await ports.mailer.send(
    memberLinkMail({
      to: email,
      url: `${input.baseUrl}${SIGN_IN_PATH}?${SIGN_IN_TOKEN_PARAM}=${token}`,
      purpose: 'invitation',
      accountId: auth.accountId,
      environment: auth.environment,
      role: input.role,
      expiresAt,
      idempotencyKey: `invitation_${member.memberId}`,
    }),
  );
  return { ...presentMember(member), invitationExpiresAt: expiresAt };
}

async function ownMember(store: ConsoleMemberStore, auth: AuthContext, memberId: string) {
  const member = await store.find(auth.accountId, memberId);
  if (!member || member.environment !== auth.environment)
    throw new ApiError('member_not_found', { param: 'memberId' });
  return member;
}

/** An admin of the account: a member with the role who has signed in (an invited one is not one yet). */
const isActiveAdmin = (member: ConsoleMemberRecord) => member.role === 'admin' && member.status === 'active';

/** Reads again at most this many times when concurrent changes contend for the same members. */
const CHANGE_ATTEMPTS = 4;

/**
 * Changes a member (`change`, with the id of another active admin when the change takes the
 * member's admin away) so that the account and environment never lose their last admin: refused
 * with 409 `member_is_last_admin` when no other member is one. The other admin is checked in the
 * change's own transaction, so two admins demoting or removing each other at once cannot both win.
 */
async function changeKeepingAnAdmin(
  store: ConsoleMemberStore,
  auth: AuthContext,
  memberId: string,
  takesAdminAway: (member: ConsoleMemberRecord) => boolean,
  change: (member: ConsoleMemberRecord, keepingAdmin?: string) => Promise<MemberChange>,
): Promise<ConsoleMemberRecord> {
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
    const member = await ownMember(store, auth, memberId);
    let keepingAdmin: string | undefined;
    if (isActiveAdmin(member) && takesAdminAway(member)) {
      keepingAdmin = await anotherActiveAdmin(store, member);
      if (keepingAdmin === undefined)
        throw new ApiError('member_is_last_admin', {
          param: 'memberId',
          message: `${member.email} is the only admin of the account in this environment: make another member an admin first.`,
        });
    }
    const outcome = await change(member, keepingAdmin);
    if (outcome === 'done') return member;
    if (outcome === 'gone') throw new ApiError('member_not_found', { param: 'memberId' });
  }
  throw new ApiError('service_unavailable', {
    message: 'Other changes of these members were under way; nothing was changed. Try again.',
    headers: { 'Retry-After': '1' },
  });
}

/** Another active admin of the member's account and environment, as read just now (the list may lag). */
async function anotherActiveAdmin(store: ConsoleMemberStore, member: ConsoleMemberRecord) {
  const listed = await store.list(member.accountId, member.environment);
  for (const other of listed) {
    if (other.memberId === member.memberId || !isActiveAdmin(other)) continue;
    const current = await store.find(other.accountId, other.memberId);
    if (current && isActiveAdmin(current)) return current.memberId;
  }
  return undefined;
}

export async function changeMemberRole(
  store: ConsoleMemberStore,
  input: { auth: AuthContext; memberId: string; role: ConsoleRole; now: Date },
) {
  let changed: ConsoleMemberRecord | undefined;
  const member = await changeKeepingAnAdmin(
    store,
    input.auth,
    input.memberId,
    () => input.role !== 'admin',
    async (member, keepingAdmin) => {
      changed = undefined;
      if (member.role === input.role) return 'done';
      changed = { ...member, role: input.role, generation: member.generation + 1 };
      const audit = newAuditRecord(
        {
          accountId: input.auth.accountId,
          action: 'member_role_changed',
          keyId: member.memberId,
          by: by(input.auth),
          detail: `${member.email}: ${member.role} → ${input.role}`,
        },
        input.now,
      );
      return store.changeRole({ member, role: input.role, audit, keepingAdmin });
    },
  );
  return presentMember(changed ?? member);
}

export async function removeMember(
  store: ConsoleMemberStore,
  input: { auth: AuthContext; memberId: string; now: Date },
) {
  const member = await changeKeepingAnAdmin(
    store,
    input.auth,
    input.memberId,
    () => true,
    (member, keepingAdmin) => {
      const audit = newAuditRecord(
        {
          accountId: input.auth.accountId,
          action: 'member_removed',
          keyId: member.memberId,
          by: by(input.auth),
          detail: `${member.email} (${member.role})`,
        },
        input.now,
      );
      return store.remove({ member, audit, keepingAdmin });
    },
  );
  return { object: 'removedMember' as const, id: member.memberId };
}

/**
 * How many emailed sign-in links may be asked for in an hour (fixed hours, UTC): per address,
 * member or not, so that the limit says nothing about who is a member; and per source address, so
 * that one client cannot spray the form with many addresses.
 */
export const SIGN_IN_LINK_LIMITS = { perAddress: 5, perSourceAddress: 20, windowMs: 60 * 60 * 1000 } as const;

export type EmailSignInOutcome =
  | { outcome: 'sent'; links: number }
  /** Too many requests in this hour for the address or from the source address: nothing was sent. */
  | { outcome: 'limited'; retryAfterSeconds: number };

/**
 * A member asks for a sign-in link by email (the sign-in page's form): for each account and
 * environment the address is a member of, a link valid 5 minutes, once, is stored and emailed. The
 * page answers the same whatever the address, so it tells no one who is a member; the requests are
 * counted per address and per source address (`SIGN_IN_LINK_LIMITS`) before anything is read.
 */
export async function emailSignInLinks(
  ports: { store: MemberSignInLinks; mailer: Mailer },
  input: { email: string; sourceIp: string | null; baseUrl: string; now: Date },
): Promise<EmailSignInOutcome> {
  const email = normaliseEmail(input.email);
  if (!isEmail(email)) return { outcome: 'sent', links: 0 };
  const { windowMs, perAddress, perSourceAddress } = SIGN_IN_LINK_LIMITS;
  const windowEnd = new Date((Math.floor(input.now.getTime() / windowMs) + 1) * windowMs);
  const counted =
    (input.sourceIp === null ||
      (await ports.store.countLinkRequest(`ip#${hashToken(input.sourceIp)}`, windowEnd, perSourceAddress))) &&
    (await ports.store.countLinkRequest(`email#${hashToken(email)}`, windowEnd, perAddress));
  if (!counted)
    return {
      outcome: 'limited',
      retryAfterSeconds: Math.ceil((windowEnd.getTime() - input.now.getTime()) / 1000),
    };
  const memberships = await ports.store.membershipsOf(email);
  for (const membership of memberships) {
    const member = await ports.store.find(membership.accountId, membership.memberId);
    if (!member) continue;
    const token = newToken();
    const expiresAt = new Date(input.now.getTime() + LINK_LIFETIME_MS).toISOString();
    await ports.store.createLink(hashToken(token), {
      accountId: member.accountId,
      environment: member.environment,
      memberId: member.memberId,
      purpose: 'email',
      createdAt: input.now.toISOString(),
      expiresAt,
    });
    await ports.mailer.send(
      memberLinkMail({
        to: email,
        url: `${input.baseUrl}${SIGN_IN_PATH}?${SIGN_IN_TOKEN_PARAM}=${token}`,
        purpose: 'email',
        accountId: member.accountId,
        environment: member.environment,
        role: member.role,
        expiresAt,
        idempotencyKey: `sign_in_${hashToken(token).slice(0, 32)}`,
      }),
    );
  }
  return { outcome: 'sent', links: memberships.length };
}

/** The most audit records the page shows (newest first). */
export const AUDIT_PAGE_LIMIT = 500;

/**
 * The account's audit records (`AUDIT#` items: key changes, sign-ins and sign-outs, member
 * changes), newest first, for its admins. Records are per account, both environments.
 */
export async function listAudit(keys: KeyAdministration, auth: AuthContext) {
  consoleSessionOf(auth);
  const { audit } = await keys.list(auth.accountId);
  return audit
    .sort((a, b) => b.auditId.localeCompare(a.auditId))
    .slice(0, AUDIT_PAGE_LIMIT)
    .map((record) => ({
      object: 'auditRecord' as const,
      id: record.auditId,
      action: record.action,
      subject: record.keyId,
      at: record.at,
      by: record.by,
      detail: record.detail,
    }));
}
