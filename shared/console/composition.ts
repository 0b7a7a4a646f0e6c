/**
 * The console's composition: a factory of each of its ports (shared/kernel/capability-ports.ts),
 * which its functions give `awsRoutePorts`, and the ones the local stack builds the same way
 * (`localPorts`): all of them, over the keys table.
 */
import { DynamoKeyAdministration } from '../adapters/dynamodb/key-admin.ts';
import type { PortFactory } from '../kernel/capability-ports.ts';
import { DynamoConsoleMembers } from './adapters/dynamodb-members.ts';
import { DynamoConsolePasskeys } from './adapters/dynamodb-passkeys.ts';
import { DynamoConsoleSessions } from './adapters/dynamodb-sessions.ts';
import { PASSKEY_ENV } from './infra.ts';
import { type RelyingParty, relyingPartyOf } from './passkeys.ts';

export const consoleSessions: PortFactory<'consoleSessions'> = (root) =>
  new DynamoConsoleSessions(root.config.keysTable);
export const keyAdministration: PortFactory<'keyAdministration'> = (root) =>
  new DynamoKeyAdministration(root.config.keysTable);
export const consoleMembers: PortFactory<'consoleMembers'> = (root) =>
  new DynamoConsoleMembers(root.config.keysTable);
export const memberSignInLinks: PortFactory<'memberSignInLinks'> = (root) =>
  new DynamoConsoleMembers(root.config.keysTable);
export const passkeyChallenges: PortFactory<'passkeyChallenges'> = (root) =>
  new DynamoConsolePasskeys(root.config.keysTable);
export const passkeys: PortFactory<'passkeys'> = (root) => new DynamoConsolePasskeys(root.config.keysTable);

/**
 * The passkey routes' relying party, from the console's own settings, which the kernel's
 * configuration does not know (infra.ts; CDK sets them when the stage does, cdk/bindings.ts).
 */
export const relyingParty = (apiBaseUrl: string, env: NodeJS.ProcessEnv = process.env): RelyingParty =>
  relyingPartyOf(apiBaseUrl, env[PASSKEY_ENV.rpId], env[PASSKEY_ENV.origin]);

export const localPorts = {
  consoleSessions,
  keyAdministration,
  consoleMembers,
  memberSignInLinks,
  passkeys,
  passkeyChallenges,
};
