/**
 * Orders' composition: a factory of each of its stores (shared/kernel/capability-ports.ts), which
 * functions give `awsRoutePorts`/`awsPorts`, and which the local stack builds the same way
 * (`localPorts`). Its queue, blobs and workflow starter keep a module each in
 * shared/composition/aws/ (a function bundles only the adapter it names), and the local stack's
 * stand-ins replace them (its local/ folder).
 */

import type { PortFactory } from '../kernel/capability-ports.ts';
import { DynamoOfflineSearchStore, DynamoOrderStore } from './adapters/dynamodb.ts';

export const orders: PortFactory<'orders'> = (root) => new DynamoOrderStore(root.config.mainTable);
export const offlineSearches: PortFactory<'offlineSearches'> = (root) =>
  new DynamoOfflineSearchStore(root.config.mainTable);

export const localPorts = { orders, offlineSearches };
