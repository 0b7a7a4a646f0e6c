/**
 * Spend caps' composition: a factory of each of its ports (shared/kernel/capability-ports.ts),
 * which functions give `awsRoutePorts`/`awsPorts`, and which the local stack builds the same way
 * (`localPorts`, with the stack's clock).
 */
import { DynamoKeyAdministration } from '../adapters/dynamodb/key-admin.ts';
import { DynamoSpendCaps, DynamoSpendHolds } from '../adapters/dynamodb/spend-caps.ts';
import type { PortFactory } from '../kernel/capability-ports.ts';
import { createSpendGuard } from './guard.ts';

/** The cap routes' store: with the key lookup a key's cap needs. */
export const spendCaps: PortFactory<'spendCaps'> = (root) =>
  new DynamoSpendCaps(root.config.mainTable, new DynamoKeyAdministration(root.config.keysTable));
/** Every billable function's guard, and the workers' recipients: no key lookup bundled. */
export const spendGuard: PortFactory<'spendGuard'> = (root) =>
  createSpendGuard({ spendCaps: new DynamoSpendHolds(root.config.mainTable), clock: root.clock });
export const billingRecipients: PortFactory<'billingRecipients'> = (root) =>
  new DynamoSpendHolds(root.config.mainTable);

export const localPorts = { spendCaps, spendGuard, billingRecipients };
