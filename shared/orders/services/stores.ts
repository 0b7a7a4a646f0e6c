import { DynamoOfflineSearchStore, DynamoOrderStore } from '../../adapters/dynamodb/orders.ts';
import { readConfig } from '../../config.ts';
import type { OfflineSearchStore, OrderStore } from '../../ports/orders.ts';

let orders: OrderStore | undefined;
let searches: OfflineSearchStore | undefined;

/** Orders in the main table (`MAIN_TABLE`), one adapter per process. */
export const orderStore = (): OrderStore => {
  orders ??= new DynamoOrderStore(readConfig().mainTable);
  return orders;
};

/** Offline searches in the main table, one adapter per process. */
export const offlineSearchStore = (): OfflineSearchStore => {
  searches ??= new DynamoOfflineSearchStore(readConfig().mainTable);
  return searches;
};
