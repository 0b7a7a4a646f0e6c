/**
 * The asynchronous tier: orders (charges extracts, document images) and offline name searches,
 * accepted and billed at once, fulfilled later by the fulfilment workflow, and the AWS services
 * that fulfilment uses (blob store, mail, event bus, queue), each behind a small interface.
 */

import type { Environment } from '../kernel/api-keys.ts';
import type { FeeEntry } from '../kernel/ports/fee-ledger.ts';
import type { EventRecord } from '../webhooks/event-port.ts';

export const orderTypes = ['charges_extract', 'document_image'] as const;
export type OrderType = (typeof orderTypes)[number];

export const orderStatuses = ['pending', 'processing', 'ready', 'delivered', 'failed'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const deliveryMethods = ['web', 'email', 'post'] as const;
export type DeliveryMethod = (typeof deliveryMethods)[number];

export interface Delivery {
  method: DeliveryMethod;
  email: string | null;
  contactName: string | null;
  contactPhone: string | null;
  recipient: string | null;
  address: string | null;
  postcode: string | null;
}

export interface OrderDocument {
  documentNumber: string;
  formCode: string;
  /** Pages this order compiles of the document (the range's length when a range was ordered). */
  pageCount: number;
  /** Document image orders: the range ordered, or null for the whole document. */
  pages: { from: number; to: number } | null;
  /** False: no image can be produced (noted on the order and the cover page, not requested). */
  imageAvailable: boolean;
}

export interface OrderFailure {
  code: string;
  registryCode: string | null;
  message: string;
}

export interface OrderRecord {
  id: string;
  accountId: string;
  environment: Environment;
  type: OrderType;
  status: OrderStatus;
  /** The company summary as the API shows it; null for image orders spanning several records. */
  company: Record<string, unknown> | null;
  documents: OrderDocument[];
  delivery: Delivery;
  /** By batch index (10 documents each): filled as each image request is made, never twice. */
  imageRequests: Record<string, string>;
  notices: string[];
  extractSize: 'small' | 'large';
  totalPages: number;
  createdAt: string;
  updatedAt: string;
  readyAt: string | null;
  failure: OrderFailure | null;
  /** Where the compiled PDF is kept, once compiled. */
  pdfKey: string | null;
  /** When the PDF was handed to the mail service (email delivery), so a retried step sends nothing. */
  dispatchedAt: string | null;
  /** The fees written with the order; a failed order gets their voids. */
  fees: FeeEntry[];
  requestId: string;
  clientReference: string | null;
  /** Sandbox only: `X-Sandbox-Simulate: order_failed`. */
  simulateFailure: boolean;
}

export const offlineSearchStatuses = ['pending', 'processing', 'ready', 'failed'] as const;
export type OfflineSearchStatus = (typeof offlineSearchStatuses)[number];

export interface OfflineSearchRecord {
  id: string;
  accountId: string;
  environment: Environment;
  status: OfflineSearchStatus;
  q: string;
  scope: string;
  delivery: { method: 'email'; email: string } | { method: 'webhook' };
  createdAt: string;
  updatedAt: string;
  readyAt: string | null;
  resultCount: number | null;
  /** Where the full result set is kept once the search has run. */
  resultsKey: string | null;
  failure: OrderFailure | null;
  fees: FeeEntry[];
  requestId: string;
  clientReference: string | null;
  simulateFailure: boolean;
}

/** A status change of an order or offline search: written only if the record is still in `from`. */
export interface Transition<S extends string> {
  from: readonly S[];
  to: S;
  at: string;
  set?: Record<string, unknown>;
  /** The event the new status causes, recorded in the event log in the same transaction. */
  event?: EventRecord;
  /** Fee entries written in the same transaction (the voids of a failed order). */
  fees?: FeeEntry[];
}

export interface OrderListPage<T> {
  items: T[];
  next: string | undefined;
}

export interface OrderStore {
  /**
   * The order, its fee entries and its listing entry in one transaction. Returns false (writing
   * nothing) when an order with this id exists: an accepted order is never billed twice.
   */
  create(order: OrderRecord): Promise<boolean>;
  get(id: string): Promise<OrderRecord | undefined>;
  /** The account's orders, newest first, optionally of one status and type. */
  list(
    accountId: string,
    environment: Environment,
    options: { status?: OrderStatus; type?: OrderType; limit: number; after?: string },
  ): Promise<OrderListPage<OrderRecord>>;
  /** Applies the transition if the order is still in one of `from`; false otherwise. */
  transition(id: string, transition: Transition<OrderStatus>): Promise<boolean>;
  /** Records batch `index`'s image request id unless one is already recorded; returns the recorded id. */
  recordImageRequest(id: string, index: number, registryRequestId: string): Promise<string>;
  /** Adds notices (once each) and other fields that change no status. */
  update(
    id: string,
    fields: { notices?: string[]; pdfKey?: string; dispatchedAt?: string; updatedAt: string },
  ): Promise<void>;
  /** Orders and offline searches not finished and untouched since `before`: fulfilment may have stalled. */
  stalled(before: string, limit: number): Promise<{ id: string; updatedAt: string }[]>;
}

export interface OfflineSearchStore {
  /**
   * The search, its fee entry and the account's daily count in one transaction. Returns
   * `exists` when a search with this id was already accepted, `limit` when the account has
   * reached `dailyLimit` searches on `day`.
   */
  create(
    search: OfflineSearchRecord,
    day: string,
    dailyLimit: number,
  ): Promise<'created' | 'exists' | 'limit'>;
  get(id: string): Promise<OfflineSearchRecord | undefined>;
  /** The account's offline searches, newest first. */
  list(
    accountId: string,
    environment: Environment,
    options: { limit: number; after?: string },
  ): Promise<OrderListPage<OfflineSearchRecord>>;
  transition(id: string, transition: Transition<OfflineSearchStatus>): Promise<boolean>;
}

/** Private storage of compiled PDFs and offline search results (S3, encrypted; a folder locally). */
export interface BlobStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  exists(key: string): Promise<boolean>;
}

/** What the API puts on the fulfilment queue. `attempt` > 0 when the sweeper restarts stalled work. */
export interface FulfilmentMessage {
  kind: 'order' | 'offline_search';
  id: string;
  attempt: number;
}

export interface FulfilmentQueue {
  send(message: FulfilmentMessage): Promise<void>;
}

/** Starts the fulfilment workflow; the same name twice starts it once. */
export interface WorkflowStarter {
  start(name: string, input: FulfilmentMessage): Promise<void>;
}

declare module '../kernel/capability-ports.ts' {
  interface CapabilityOwnPorts {
    orders: OrderStore;
    offlineSearches: OfflineSearchStore;
    /** The fulfilment queue an accepted order or search is sent to. */
    queue: FulfilmentQueue;
    /** Finished orders' files and offline searches' results. */
    blobs: BlobStore;
    /** Starts an order's fulfilment workflow (workers only). */
    starter: WorkflowStarter;
  }
}

declare module '../kernel/http/route.ts' {
  interface RouteUses {
    /** Sends accepted orders and searches to the fulfilment queue. */
    queue: true;
    /** Reads compiled PDFs and offline searches' results. */
    blobs: true;
  }
}
