import { DynamoOfflineSearchStore, DynamoOrderStore } from '../../adapters/dynamodb/orders.ts';
import type { OfflineSearchStore, OrderStore } from '../../ports/orders.ts';
import { getServices } from '../../runtime.ts';

let orders: OrderStore | undefined;
let searches: OfflineSearchStore | undefined;

export const orderStore = (): OrderStore => {
  orders ??= new DynamoOrderStore(getServices().config.mainTable);
  return orders;
};

export const offlineSearchStore = (): OfflineSearchStore => {
  searches ??= new DynamoOfflineSearchStore(getServices().config.mainTable);
  return searches;
};
