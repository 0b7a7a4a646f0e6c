import { DynamoKeyAdministration } from '../../adapters/dynamodb/key-admin.ts';
import { DynamoSpendCaps, DynamoSpendHolds } from '../../adapters/dynamodb/spend-caps.ts';
import { createSpendGuard } from '../../spend-caps/guard.ts';
import type { CapabilityFactory } from './root.ts';

/** The cap routes' store: with the key lookup a key's cap needs. */
export const spendCaps: CapabilityFactory<'spendCaps'> = (root) =>
  new DynamoSpendCaps(root.config.mainTable, new DynamoKeyAdministration(root.config.keysTable));
/** Every billable function's guard, and the workers' recipients: no key lookup bundled. */
export const spendGuard: CapabilityFactory<'spendGuard'> = (root) =>
  createSpendGuard({ spendCaps: new DynamoSpendHolds(root.config.mainTable), clock: root.clock });
export const billingRecipients: CapabilityFactory<'billingRecipients'> = (root) =>
  new DynamoSpendHolds(root.config.mainTable);
