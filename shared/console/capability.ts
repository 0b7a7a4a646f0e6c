/**
 * The account console as the central places see it (shared/kernel/capability.ts): its two areas
 * and its ports' grants, whose factories are its composition.ts.
 */
import { defineCapability } from '../kernel/capability.ts';
import type { PortGrant } from '../kernel/capability-ports.ts';
import { KEYS_TABLE_ITEMS } from '../kernel/infra/tables.ts';
import { consoleExamples } from './examples.ts';
import { PASSKEY_ENV } from './infra.ts';
import { passkeyRoutes } from './passkey-routes.ts';
import { consoleRoutes } from './routes.ts';

const { listMembers, inviteMember, changeMemberRole, removeMember, listAudit, ...consoleOwnRoutes } =
  consoleRoutes;
const consoleTeamRoutes = { listMembers, inviteMember, changeMemberRole, removeMember, listAudit };

const { link, session, audit, member, memberEmail, passkey, challenge, signInRequests, key } =
  KEYS_TABLE_ITEMS;
/** Reads the keys table, and writes only these items of it (their partition keys' prefixes). */
const writesKeysItems = (...items: string[]): PortGrant => ({
  tables: { keys: 'readWrite' },
  items: { keys: items },
});

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
    consoleSessions: writesKeysItems(link, session, audit, member),
    // The sign-in form anyone may post: it reads members, and writes links and the counts of
    // requests that limit them, nothing else.
    memberSignInLinks: writesKeysItems(link, signInRequests),
    // Members, their addresses' claims, their invitations' and sign-in links, and audit records.
    // A removal deletes the member's passkeys too.
    consoleMembers: writesKeysItems(member, memberEmail, link, audit, passkey),
    // The options routes (one anyone may post): a challenge, nothing else.
    passkeyChallenges: writesKeysItems(challenge),
    // Challenges spent, passkeys, the sessions they open and the audit records; a member is only
    // read (the transactions' condition on it).
    passkeys: writesKeysItems(challenge, passkey, session, audit),
    // Key changes (roll, revoke): keys and their audit records.
    keyAdministration: writesKeysItems(key, audit),
  },
  // Its passkey routes' relying party (composition.ts reads them; CDK sets them, cdk/bindings.ts).
  env: PASSKEY_ENV,
  infrastructure: { cdk: 'cdk/bindings.ts' },
});
