import { DynamoConsoleMembers } from '../../adapters/dynamodb/console-members.ts';
import { DynamoKeyAdministration } from '../../adapters/dynamodb/key-admin.ts';
import { DynamoSpendCaps } from '../../adapters/dynamodb/spend-caps.ts';
import { billingRecipientsOf } from '../../spend-caps/alerts.ts';
import { accountCharges } from '../../spend-caps/charges.ts';
import { createSpendGuard } from '../../spend-caps/guard.ts';
import type { CapabilityFactory, Root } from './root.ts';

const store = (root: Root) =>
  new DynamoSpendCaps(root.config.mainTable, new DynamoKeyAdministration(root.config.keysTable));

export const spendCaps: CapabilityFactory<'spendCaps'> = store;
export const spendGuard: CapabilityFactory<'spendGuard'> = (root) =>
  createSpendGuard({ spendCaps: store(root), clock: root.clock });
/** Billing and admin members (a query of the keys table's byAccount index) and the cap's alert emails. */
export const billingRecipients: CapabilityFactory<'billingRecipients'> = (root) =>
  billingRecipientsOf(new DynamoConsoleMembers(root.config.keysTable), store(root));
/** The monitoring run's daily charges, counted in the account's spend (shared/spend-caps/charges.ts). */
export const monitoringSpend = (root: Root) => accountCharges(store(root), root.clock);
