/**
 * The console members `npm start` seeds (docs/sandbox.md): acct_a's test environment has an admin,
 * a developer and a billing member, each active, so that the email sign-in
 * (`/console/sign-in/email`, its link in the outbox) and the roles can be tried at once.
 */

import { newMemberId } from '../shared/console/members.ts';
import type { ConsoleMemberStore, MemberSignInLinks } from '../shared/console/store-port.ts';
import type { Environment } from '../shared/kernel/api-keys.ts';
import { newAuditRecord } from '../shared/kernel/key-admin.ts';
import { type ConsoleRole, hashToken, newToken } from '../shared/kernel/sessions.ts';

export interface SeedMember {
  accountId: string;
  environment: Environment;
  email: string;
  role: ConsoleRole;
}

export const defaultLocalMembers: readonly SeedMember[] = [
  { accountId: 'acct_a', environment: 'test', email: 'admin@acct-a.example', role: 'admin' },
  { accountId: 'acct_a', environment: 'test', email: 'developer@acct-a.example', role: 'developer' },
  { accountId: 'acct_a', environment: 'test', email: 'billing@acct-a.example', role: 'billing' },
];

/** Stores the members that are not members there yet (active, as if they had accepted). */
export async function seedMembers(
  members: readonly SeedMember[],
  now: Date,
  ports: { consoleMembers: ConsoleMemberStore; memberSignInLinks: MemberSignInLinks },
): Promise<void> {
  for (const seed of members) {
    const existing = await ports.memberSignInLinks.membershipsOf(seed.email);
    if (existing.some((m) => m.accountId === seed.accountId && m.environment === seed.environment)) continue;
    const memberId = newMemberId();
    const at = now.toISOString();
    await ports.consoleMembers.invite({
      member: {
        ...seed,
        memberId,
        status: 'active',
        generation: 0,
        invitedAt: at,
        invitedBy: 'local:seed',
        joinedAt: at,
      },
      // An invitation nobody receives: the seeded members sign in by email.
      linkHash: hashToken(newToken()),
      link: {
        accountId: seed.accountId,
        environment: seed.environment,
        memberId,
        purpose: 'invitation',
        createdAt: at,
        expiresAt: at,
      },
      audit: newAuditRecord(
        {
          accountId: seed.accountId,
          action: 'member_invited',
          keyId: memberId,
          by: 'local:seed',
          detail: `${seed.email} as ${seed.role} (${seed.environment}), seeded by npm start`,
        },
        now,
      ),
    });
  }
}
