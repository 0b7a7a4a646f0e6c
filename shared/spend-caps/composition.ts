/**
 * Spend caps' composition: a factory of each of its ports (shared/kernel/capability-ports.ts),
 * which functions give `awsRoutePorts`/`awsPorts`, and which the local stack builds the same way
 * (`localPorts`, with the stack's clock).
 */
import { DynamoKeyAdministration } from '../adapters/dynamodb/key-admin.ts';
import { DynamoSpendCaps } from '../adapters/dynamodb/spend-caps.ts';
import type { PortFactory, PortRoot } from '../kernel/capability-ports.ts';
import { createSpendGuard } from './guard.ts';

const store = (root: PortRoot) =>
  new DynamoSpendCaps(root.config.mainTable, new DynamoKeyAdministration(root.config.keysTable));

export const spendCaps: PortFactory<'spendCaps'> = store;
export const spendGuard: PortFactory<'spendGuard'> = (root) =>
  createSpendGuard({ spendCaps: store(root), clock: root.clock });
export const billingRecipients: PortFactory<'billingRecipients'> = store;

export const localPorts = { spendCaps, spendGuard, billingRecipients };
