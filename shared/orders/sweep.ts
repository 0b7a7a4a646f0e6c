/**
 * Nothing paid for is lost: an order or offline search that is unfinished and untouched for an
 * hour (its queue message lost, its execution failed) is put on the queue again, under a new
 * execution name. The steps are idempotent, so a restart only finishes what was left.
 */
import type { FulfilmentMessage, FulfilmentQueue, OrderStore } from './store-port.ts';

/** Longer than any wait or retry the workflow makes between two writes to the order. */
export const STALLED_AFTER_MS = 60 * 60_000;
const SWEEP_BATCH = 100;

/** The first run is named after the order; restarts add their attempt. */
export const executionName = (message: FulfilmentMessage) =>
  message.attempt === 0 ? message.id : `${message.id}-r${message.attempt}`;

export function parseFulfilmentMessage(body: string): FulfilmentMessage {
  const message = JSON.parse(body) as Partial<FulfilmentMessage>;
  if (
    (message.kind !== 'order' && message.kind !== 'offline_search') ||
    typeof message.id !== 'string' ||
    !Number.isInteger(message.attempt)
  ) {
    throw new Error(`not a fulfilment message: ${body.slice(0, 200)}`);
  }
  return message as FulfilmentMessage;
}

export async function sweepStalled(store: OrderStore, queue: FulfilmentQueue, now: Date) {
  const stalled = await store.stalled(new Date(now.getTime() - STALLED_AFTER_MS).toISOString(), SWEEP_BATCH);
  const attempt = Math.floor(now.getTime() / 1000);
  for (const { id } of stalled) {
    await queue.send({ kind: id.startsWith('ofs_') ? 'offline_search' : 'order', id, attempt });
  }
  return { restarted: stalled.length };
}
