/**
 * The event log (spec 6) with this service's event types: the kernel's port
 * (shared/kernel/ports/events.ts: recorded with the state change causing it, then published to
 * the event bus) named with the types of event-types.ts. `GET /v1/events` reads it back for 30 days.
 */
import type {
  EventLog as AnyEventLog,
  EventPage as AnyEventPage,
  EventPublisher as AnyEventPublisher,
  EventRecord as AnyEventRecord,
  ServiceEvent as AnyServiceEvent,
} from '../kernel/ports/events.ts';
import type { EventType } from './event-types.ts';

export { EVENT_RETENTION_MS } from '../kernel/ports/events.ts';
export type { EventType, MonitoringEventType } from './event-types.ts';

export type EventRecord = AnyEventRecord<EventType>;
export type EventPage = AnyEventPage<EventType>;
export type EventLog = AnyEventLog<EventType>;
export type ServiceEvent = AnyServiceEvent<EventType>;
export type EventPublisher = AnyEventPublisher<EventType>;

/** The body a subscriber receives (spec 6.2): the record without its owner and bookkeeping. */
export const eventBody = (event: EventRecord) => ({
  id: event.id,
  type: event.type,
  createdAt: event.createdAt,
  livemode: event.livemode,
  data: event.data,
});
