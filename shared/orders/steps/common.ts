/**
 * What the fulfilment workflow's steps share: their input, the poll state the image checks pass
 * along, and reading the record a step works on. Each step is a function of the ports it
 * declares (a store, the registry, blobs, a mailer, events, a clock), built in its
 * `functions/workers/fulfilment/<step>.ts` entry module, so that a task's bundle holds its own step only.
 */

import type { Environment } from '../../kernel/api-keys.ts';
import type { RegistryCaller } from '../../kernel/registry-port.ts';
import type { OrdersRegistry } from '../registry-port.ts';
import type {
  OfflineSearchRecord,
  OfflineSearchStore,
  OrderFailure,
  OrderRecord,
  OrderStore,
} from '../store-port.ts';

/** The execution's input, which every task receives with what earlier tasks added. */
export interface WorkflowInput {
  kind: 'order' | 'offline_search';
  id: string;
}

/** Where the image requests stand, passed from RequestImages through each CheckImages. */
export interface PollState {
  state: 'waiting' | 'ready' | 'failed';
  attempt: number;
  waitSeconds: number;
  /** Seconds waited so far, to give up after a day. */
  waitedSeconds: number;
  /** Documents the registry reported without an image. */
  unavailable: string[];
  failure?: OrderFailure;
}

/** Ports every step may declare. */
export interface Clock {
  now(): Date;
}

/** The registry of a record's environment. */
export type RegistryFor = (environment: Environment) => OrdersRegistry;

/** Documents per registry image request. */
export const DOCUMENTS_PER_IMAGE_REQUEST = 10;

/** Image polling: 15 s, doubling to 10 minutes, giving up after a day. */
export const IMAGE_POLLING = { firstWaitSeconds: 15, maxWaitSeconds: 600, giveUpAfterSeconds: 24 * 3600 };

export async function loadOrder(orders: Pick<OrderStore, 'get'>, id: string): Promise<OrderRecord> {
  const order = await orders.get(id);
  if (!order) throw new Error(`order ${id} does not exist`);
  return order;
}

export async function loadSearch(
  searches: Pick<OfflineSearchStore, 'get'>,
  id: string,
): Promise<OfflineSearchRecord> {
  const search = await searches.get(id);
  if (!search) throw new Error(`offline search ${id} does not exist`);
  return search;
}

export const isFinished = (status: string) =>
  status === 'ready' || status === 'delivered' || status === 'failed';

export const callerOf = (record: {
  accountId: string;
  requestId: string;
  clientReference: string | null;
}): RegistryCaller => ({
  accountId: record.accountId,
  requestId: record.requestId,
  clientReference: record.clientReference,
});

/** Documents with an image, in order; batch `i` of image requests holds the i-th group of 10. */
export const imageBatches = (order: OrderRecord) => {
  const available = order.documents.filter((document) => document.imageAvailable);
  const batches: (typeof available)[] = [];
  for (let i = 0; i < available.length; i += DOCUMENTS_PER_IMAGE_REQUEST) {
    batches.push(available.slice(i, i + DOCUMENTS_PER_IMAGE_REQUEST));
  }
  return batches;
};

export const orderPdfKey = (orderId: string) => `orders/${orderId}.pdf`;
