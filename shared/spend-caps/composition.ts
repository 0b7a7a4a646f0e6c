/**
 * Spend caps' composition: a factory of each of its ports (shared/kernel/capability-ports.ts),
 * which functions give `awsRoutePorts`/`awsPorts`, and which the local stack builds the same way
 * (`localPorts`, with the stack's clock).
 */

import { DynamoKeyAdministration } from '../adapters/dynamodb/key-admin.ts';
import { DynamoConsoleMembers } from '../console/adapters/dynamodb-members.ts';
import type { PortFactory, PortRoot } from '../kernel/capability-ports.ts';
import { DynamoSpendCaps, DynamoSpendHolds } from './adapters/dynamodb.ts';
import { billingRecipientsOf } from './alerts.ts';
import { accountCharges } from './charges.ts';
import { createSpendGuard } from './guard.ts';

/** The cap routes' store: with the key lookup a key's cap needs. */
export const spendCaps: PortFactory<'spendCaps'> = (root) =>
  new DynamoSpendCaps(root.config.mainTable, new DynamoKeyAdministration(root.config.keysTable));
/** Every billable function's guard, and the workers' recipients: no key lookup bundled. */
export const spendGuard: PortFactory<'spendGuard'> = (root) =>
  createSpendGuard({ spendCaps: new DynamoSpendHolds(root.config.mainTable), clock: root.clock });
/** Billing and admin members (a query of the keys table's byAccount index) and the cap's alert emails. */
export const billingRecipients: PortFactory<'billingRecipients'> = (root) =>
  billingRecipientsOf(
    new DynamoConsoleMembers(root.config.keysTable),
    new DynamoSpendHolds(root.config.mainTable),
  );
/** The monitoring run's daily charges, counted in the account's spend (charges.ts). */
export const monitoringSpend = (root: PortRoot) =>
  accountCharges(new DynamoSpendHolds(root.config.mainTable), root.clock);

export const localPorts = { spendCaps, spendGuard, billingRecipients };
