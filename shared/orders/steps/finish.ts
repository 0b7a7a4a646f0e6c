/**
 * The outcome of an order or offline search (MarkReady, MarkDelivered, MarkFailed and the
 * offline search's two): written once with the event it owes, and for a failure the voids of
 * its fees, then the event published unless it was already. A run that stops between the two
 * publishes on its retry, with the same event id, which subscribers deduplicate on.
 */
import { createHash } from 'node:crypto';
import { toTimestamp } from '../../domain/clock.ts';
import type { FeeEntry } from '../../ports/extracts.ts';
import type {
  BlobStore,
  EventPublisher,
  OfflineSearchStore,
  OrderStore,
  OwedEvent,
} from '../../ports/orders.ts';
import { presentOfflineSearch, presentOrderForEvent } from '../present.ts';
import { offlineResultsKey, readOfflineResults } from '../results.ts';
import { type Clock, isFinished, loadOrder, loadSearch, type WorkflowInput } from './common.ts';
import { type FailedState, failureFromState } from './failure.ts';

export interface FinishPorts extends Clock {
  orders: Pick<OrderStore, 'get' | 'transition' | 'markEventPublished'>;
  searches: Pick<OfflineSearchStore, 'get' | 'transition' | 'markEventPublished'>;
  /** An offline search's outcome counts its stored results. */
  blobs: BlobStore;
  events: EventPublisher;
  /** The API's base URL, for the links in the event (`downloadUrl`, `resultsUrl`). */
  apiBaseUrl: string;
}

export interface FinishInput extends WorkflowInput {
  outcome: 'ready' | 'delivered' | 'failed';
  /** The execution's state when the outcome was chosen: a failure is read from it. */
  state: FailedState;
}

/** Same id for the same outcome of the same order, however often it is written. */
const eventIdFor = (id: string, type: string) =>
  `evt_${createHash('sha256').update(`${id}#${type}`).digest('hex').slice(0, 24)}`;

/** The fees of a failed order, cancelled: same product and code, negative quantity. */
const voidsOf = (fees: readonly FeeEntry[], at: string): FeeEntry[] =>
  fees.filter((fee) => fee.billable).map((fee) => ({ ...fee, at, quantity: -fee.quantity }));

async function publishOwed(
  ports: FinishPorts,
  record: { id: string; accountId: string; environment: string; event: OwedEvent | null },
  data: Record<string, unknown>,
  markPublished: (at: string) => Promise<void>,
) {
  const event = record.event;
  if (!event || event.publishedAt) return;
  await ports.events.publish({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    livemode: record.environment === 'live',
    accountId: record.accountId,
    data,
  });
  await markPublished(toTimestamp(ports.now()));
}

async function finishOrder(ports: FinishPorts, input: FinishInput) {
  const at = toTimestamp(ports.now());
  const order = await loadOrder(ports.orders, input.id);
  if (!isFinished(order.status)) {
    const failed = input.outcome === 'failed';
    const type = failed ? 'order.failed' : 'order.ready';
    await ports.orders.transition(order.id, {
      from: ['pending', 'processing'],
      to: input.outcome,
      at,
      set: failed ? { failure: failureFromState(input.state) } : { readyAt: at },
      event: { id: eventIdFor(order.id, type), type, createdAt: at, publishedAt: null },
      ...(failed ? { fees: voidsOf(order.fees, at) } : {}),
    });
  }
  const finished = await loadOrder(ports.orders, input.id);
  await publishOwed(ports, finished, presentOrderForEvent(finished, ports.apiBaseUrl), (publishedAt) =>
    ports.orders.markEventPublished(finished.id, publishedAt),
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
      const type = 'offline_search.ready';
      await ports.searches.transition(search.id, {
        from: ['pending', 'processing'],
        to: 'ready',
        at,
        set: { readyAt: at, resultsKey: key, resultCount: results.length },
        event: { id: eventIdFor(search.id, type), type, createdAt: at, publishedAt: null },
      });
    }
  }
  const finished = await loadSearch(ports.searches, input.id);
  await publishOwed(ports, finished, presentOfflineSearch(finished, ports.apiBaseUrl), (publishedAt) =>
    ports.searches.markEventPublished(finished.id, publishedAt),
  );
  return { status: finished.status };
}

export const finish = (ports: FinishPorts, input: FinishInput) =>
  input.kind === 'offline_search' ? finishOfflineSearch(ports, input) : finishOrder(ports, input);
