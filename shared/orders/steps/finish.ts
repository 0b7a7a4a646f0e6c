/**
 * The outcome of an order or offline search (MarkReady, MarkDelivered, MarkFailed and the
 * offline search's two): written once, in one transaction with the event it causes (recorded in
 * the event log, shared/webhooks/event-port.ts) and for a failure the voids of its fees; then the event is
 * published unless it was already. A run that stops between the two publishes on its retry (or
 * the sweeper does), with the same event id, which subscribers deduplicate on.
 */

import { toTimestamp } from '../../kernel/clock.ts';
import type { FeeEntry } from '../../kernel/ports/fee-ledger.ts';
import type { EventRecord, EventType } from '../../webhooks/event-port.ts';
import { eventIdFor, type PublishPorts, publishRecorded } from '../../webhooks/publish.ts';
import { presentOfflineSearch, presentOrderForEvent } from '../present.ts';
import { offlineResultsKey, readOfflineResults } from '../results.ts';
import type {
  BlobStore,
  OfflineSearchRecord,
  OfflineSearchStore,
  OrderRecord,
  OrderStore,
} from '../store-port.ts';
import { type Clock, isFinished, loadOrder, loadSearch, type WorkflowInput } from './common.ts';
import { type FailedState, failureFromState } from './failure.ts';

export interface FinishPorts extends Clock, PublishPorts {
  orders: Pick<OrderStore, 'get' | 'transition'>;
  searches: Pick<OfflineSearchStore, 'get' | 'transition'>;
  /** An offline search's outcome counts its stored results. */
  blobs: BlobStore;
  /** The API's base URL, for the links in the event (`downloadUrl`, `resultsUrl`). */
  apiBaseUrl: string;
}

export interface FinishInput extends WorkflowInput {
  outcome: 'ready' | 'delivered' | 'failed';
  /** The execution's state when the outcome was chosen: a failure is read from it. */
  state: FailedState;
}

/** The event a record's new state causes, with `data` as a GET would show the record after it. */
const eventOf = (
  record: Pick<OrderRecord | OfflineSearchRecord, 'id' | 'accountId' | 'environment'>,
  type: EventType,
  at: string,
  data: Record<string, unknown>,
): EventRecord => ({
  id: eventIdFor(record.id, type),
  type,
  createdAt: at,
  livemode: record.environment === 'live',
  accountId: record.accountId,
  environment: record.environment,
  data,
  publishedAt: null,
});

/** The fees of a failed order, cancelled: same product and code, negative quantity. */
const voidsOf = (fees: readonly FeeEntry[], at: string): FeeEntry[] =>
  fees.filter((fee) => fee.billable).map((fee) => ({ ...fee, at, quantity: -fee.quantity }));

async function finishOrder(ports: FinishPorts, input: FinishInput) {
  const at = toTimestamp(ports.now());
  const order = await loadOrder(ports.orders, input.id);
  if (!isFinished(order.status)) {
    const failed = input.outcome === 'failed';
    const type = failed ? 'order.failed' : 'order.ready';
    const set = failed ? { failure: failureFromState(input.state) } : { readyAt: at };
    const after: OrderRecord = { ...order, status: input.outcome, updatedAt: at, ...set };
    await ports.orders.transition(order.id, {
      from: ['pending', 'processing'],
      to: input.outcome,
      at,
      set,
      event: eventOf(order, type, at, presentOrderForEvent(after, ports.apiBaseUrl)),
      ...(failed ? { fees: voidsOf(order.fees, at) } : {}),
    });
  }
  const finished = await loadOrder(ports.orders, input.id);
  await publishRecorded(
    ports,
    eventIdFor(finished.id, finished.status === 'failed' ? 'order.failed' : 'order.ready'),
  );
  return { status: finished.status };
}

async function finishOfflineSearch(ports: FinishPorts, input: FinishInput) {
  const at = toTimestamp(ports.now());
  const search = await loadSearch(ports.searches, input.id);
  if (!isFinished(search.status)) {
    if (input.outcome === 'failed') {
      // There is no offline_search.failed event: the search shows the failure when read.
      await ports.searches.transition(search.id, {
        from: ['pending', 'processing'],
        to: 'failed',
        at,
        set: { failure: failureFromState(input.state) },
        fees: voidsOf(search.fees, at),
      });
    } else {
      const key = offlineResultsKey(search.id);
      const results = await readOfflineResults(ports.blobs, key);
      const set = { readyAt: at, resultsKey: key, resultCount: results.length };
      const after: OfflineSearchRecord = { ...search, status: 'ready', updatedAt: at, ...set };
      await ports.searches.transition(search.id, {
        from: ['pending', 'processing'],
        to: 'ready',
        at,
        set,
        event: eventOf(search, 'offline_search.ready', at, presentOfflineSearch(after, ports.apiBaseUrl)),
      });
    }
  }
  const finished = await loadSearch(ports.searches, input.id);
  // A failed offline search has no event.
  if (finished.status === 'ready')
    await publishRecorded(ports, eventIdFor(finished.id, 'offline_search.ready'));
  return { status: finished.status };
}

export const finish = (ports: FinishPorts, input: FinishInput) =>
  input.kind === 'offline_search' ? finishOfflineSearch(ports, input) : finishOrder(ports, input);
