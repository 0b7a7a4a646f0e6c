import { DynamoKeyAdministration } from '../../adapters/dynamodb/key-admin.ts';
import { DynamoConsoleMembers } from '../../console/adapters/dynamodb-members.ts';
import { DynamoConsolePasskeys } from '../../console/adapters/dynamodb-passkeys.ts';
import { DynamoConsoleSessions } from '../../console/adapters/dynamodb-sessions.ts';
import type { CapabilityFactory } from './root.ts';

export const consoleSessions: CapabilityFactory<'consoleSessions'> = (root) =>
  new DynamoConsoleSessions(root.config.keysTable);
export const keyAdministration: CapabilityFactory<'keyAdministration'> = (root) =>
  new DynamoKeyAdministration(root.config.keysTable);
export const consoleMembers: CapabilityFactory<'consoleMembers'> = (root) =>
  new DynamoConsoleMembers(root.config.keysTable);
export const memberSignInLinks: CapabilityFactory<'memberSignInLinks'> = (root) =>
  new DynamoConsoleMembers(root.config.keysTable);
export const passkeyChallenges: CapabilityFactory<'passkeyChallenges'> = (root) =>
  new DynamoConsolePasskeys(root.config.keysTable);
export const passkeys: CapabilityFactory<'passkeys'> = (root) =>
  new DynamoConsolePasskeys(root.config.keysTable);
