/**
 * Orders' composition: a factory of each of its ports (shared/kernel/capability-ports.ts), which
 * functions give `awsRoutePorts`/`awsPorts`, and the ones the local stack builds the same way
 * (`localPorts`). The queue, the blobs and the workflow starter have a module each under
 * composition/, so that a function bundles only the adapter it names; the local stack's stand-ins
 * replace them (its local/ folder).
 */

import type { PortFactory } from '../kernel/capability-ports.ts';
import { DynamoOfflineSearchStore, DynamoOrderStore } from './adapters/dynamodb.ts';

export const orders: PortFactory<'orders'> = (root) => new DynamoOrderStore(root.config.mainTable);
export const offlineSearches: PortFactory<'offlineSearches'> = (root) =>
  new DynamoOfflineSearchStore(root.config.mainTable);

export const localPorts = { orders, offlineSearches };
