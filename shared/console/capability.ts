/**
 * The account console as the central places see it (shared/kernel/capability.ts): its two areas
 * and its ports' grants, whose factories are its composition.ts.
 */
import { defineCapability } from '../kernel/capability.ts';
import { KEYS_TABLE_ITEMS } from '../kernel/infra/tables.ts';
import { consoleExamples } from './examples.ts';
import { passkeyRoutes } from './passkey-routes.ts';
import { consoleRoutes } from './routes.ts';

const { listMembers, inviteMember, changeMemberRole, removeMember, listAudit, ...consoleOwnRoutes } =
  consoleRoutes;
const consoleTeamRoutes = { listMembers, inviteMember, changeMemberRole, removeMember, listAudit };

export const consoleCapability = defineCapability({
  name: 'console',
  areas: [
    {
      name: 'Console',
      tag: 'Console',
      description:
        'The account console: a single-use sign-in link for a key (the browser never holds the key), and the console page, which reads and changes the account through this API with a session cookie.',
      order: 100,
      routes: [consoleOwnRoutes],
      examples: consoleExamples,
    },
    {
      // Apart from the Console area so that each area's stack stays within its resource budget.
      name: 'ConsoleTeam',
      tag: 'Console',
      description:
        "The account console's members, their roles and the account's audit records (admins only), and members' passkeys.",
      order: 110,
      routes: [consoleTeamRoutes, passkeyRoutes],
    },
  ],
  // The console's routes only, each port on its own items of the keys table.
  portGrants: {
    // Sign-in links, sessions and their audit records, never a key. A member's first sign-in marks
    // it active, in the transaction that opens its session.
    consoleSessions: {
      tables: { keys: 'readWrite' },
      items: {
        keys: [
          KEYS_TABLE_ITEMS.link,
          KEYS_TABLE_ITEMS.session,
          KEYS_TABLE_ITEMS.audit,
          KEYS_TABLE_ITEMS.member,
        ],
      },
    },
    // The sign-in form anyone may post: it reads members, and writes links and the counts of
    // requests that limit them, nothing else.
    memberSignInLinks: {
      tables: { keys: 'readWrite' },
      items: { keys: [KEYS_TABLE_ITEMS.link, KEYS_TABLE_ITEMS.signInRequests] },
    },
    // Members, their addresses' claims, their invitations' and sign-in links, and audit records.
    // A removal deletes the member's passkeys too.
    consoleMembers: {
      tables: { keys: 'readWrite' },
      items: {
        keys: [
          KEYS_TABLE_ITEMS.member,
          KEYS_TABLE_ITEMS.memberEmail,
          KEYS_TABLE_ITEMS.link,
          KEYS_TABLE_ITEMS.audit,
          KEYS_TABLE_ITEMS.passkey,
        ],
      },
    },
    // The options routes (one anyone may post): a challenge, nothing else.
    passkeyChallenges: { tables: { keys: 'readWrite' }, items: { keys: [KEYS_TABLE_ITEMS.challenge] } },
    // Challenges spent, passkeys, the sessions they open and the audit records; a member is only
    // read (the transactions' condition on it).
    passkeys: {
      tables: { keys: 'readWrite' },
      items: {
        keys: [
          KEYS_TABLE_ITEMS.challenge,
          KEYS_TABLE_ITEMS.passkey,
          KEYS_TABLE_ITEMS.session,
          KEYS_TABLE_ITEMS.audit,
        ],
      },
    },
    // Key changes (roll, revoke): keys and their audit records.
    keyAdministration: {
      tables: { keys: 'readWrite' },
      items: { keys: [KEYS_TABLE_ITEMS.key, KEYS_TABLE_ITEMS.audit] },
    },
  },
});
