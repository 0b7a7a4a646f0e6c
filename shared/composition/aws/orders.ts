import { DynamoOfflineSearchStore, DynamoOrderStore } from '../../adapters/dynamodb/orders.ts';
import type { CapabilityFactory } from './root.ts';

export const orders: CapabilityFactory<'orders'> = (root) => new DynamoOrderStore(root.config.mainTable);
export const offlineSearches: CapabilityFactory<'offlineSearches'> = (root) =>
  new DynamoOfflineSearchStore(root.config.mainTable);
