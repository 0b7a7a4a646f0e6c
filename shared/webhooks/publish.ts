/**
 * Publishing recorded events to the event bus. An event is recorded first (with the state change
 * causing it), then published and marked published; a run that stops in between leaves it for the
 * sweeper (`publishMissed`), which publishes it with the same id. Subscribers deduplicate on it.
 */
import { createHash } from 'node:crypto';
import { toTimestamp } from '../kernel/clock.ts';
import type { EventLog, EventPublisher, EventRecord, EventType, ServiceEvent } from './event-port.ts';

/** Same id for the same event type of the same resource, however often it is written. */
export const eventIdFor = (resourceId: string, type: EventType | string) =>
  `evt_${createHash('sha256').update(`${resourceId}#${type}`).digest('hex').slice(0, 24)}`;

/** What goes on the bus: the subscriber's body and its owner (`livemode` names the environment). */
export const toServiceEvent = (event: EventRecord): ServiceEvent => ({
  id: event.id,
  type: event.type,
  createdAt: event.createdAt,
  livemode: event.livemode,
  accountId: event.accountId,
  data: event.data,
});

export interface PublishPorts {
  eventLog: Pick<EventLog, 'get' | 'markPublished'>;
  events: EventPublisher;
  now(): Date;
}

/** Publishes the recorded event `id` unless it was already; false when no such event is recorded. */
export async function publishRecorded(ports: PublishPorts, id: string): Promise<boolean> {
  const event = await ports.eventLog.get(id);
  if (!event) return false;
  if (event.publishedAt) return true;
  await ports.events.publish(toServiceEvent(event));
  await ports.eventLog.markPublished(event.id, toTimestamp(ports.now()));
  return true;
}

/** Recorded more than this long ago and still unpublished: the run that recorded it stopped. */
export const PUBLISH_GRACE_MS = 60_000;

/**
 * The sweeper's part: publishes what was recorded but never published. `beforePublish` runs first
 * for each event (the spend alerts' emails), so that a run stopping in between does it again.
 */
export async function publishMissed(
  ports: {
    eventLog: Pick<EventLog, 'unpublished' | 'markPublished'>;
    events: EventPublisher;
    now(): Date;
    beforePublish?: (event: EventRecord) => Promise<void>;
  },
  limit = 100,
) {
  const now = ports.now();
  const missed = await ports.eventLog.unpublished(
    toTimestamp(new Date(now.getTime() - PUBLISH_GRACE_MS)),
    limit,
  );
  for (const event of missed) {
    await ports.beforePublish?.(event);
    await ports.events.publish(toServiceEvent(event));
    await ports.eventLog.markPublished(event.id, toTimestamp(now));
  }
  return { published: missed.length };
}
