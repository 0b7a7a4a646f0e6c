import { DynamoKeyAdministration } from '../../adapters/dynamodb/key-admin.ts';
import { DynamoSpendCaps } from '../../adapters/dynamodb/spend-caps.ts';
import { createSpendGuard } from '../../spend-caps/guard.ts';
import type { CapabilityFactory, Root } from './root.ts';

const store = (root: Root) =>
  new DynamoSpendCaps(root.config.mainTable, new DynamoKeyAdministration(root.config.keysTable));

export const spendCaps: CapabilityFactory<'spendCaps'> = store;
export const spendGuard: CapabilityFactory<'spendGuard'> = (root) =>
  createSpendGuard({ spendCaps: store(root), clock: root.clock });
export const billingRecipients: CapabilityFactory<'billingRecipients'> = store;
