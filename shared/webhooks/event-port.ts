/**
 * The event log (spec 6): every event the service emits, recorded in the main table in the same
 * transaction as the state change that causes it, then published to the event bus, from which
 * webhook deliveries are made. `GET /v1/events` reads it back for 30 days.
 */
import type { Environment } from '../kernel/api-keys.ts';
import type { EventType } from './event-types.ts';

export type { EventType, MonitoringEventType } from './event-types.ts';

/** Events are listed and read for this long after they happened. */
export const EVENT_RETENTION_MS = 30 * 24 * 3600_000;

/** An event as recorded: the webhook body of spec 6.2 plus its owner. Never changes once written. */
export interface EventRecord {
  id: string;
  type: EventType;
  createdAt: string;
  livemode: boolean;
  accountId: string;
  environment: Environment;
  /** The resource as its GET returned it when the event happened (for orders: the webhook view). */
  data: Record<string, unknown>;
  /** When it was put on the event bus; null until then (the sweeper publishes what was missed). */
  publishedAt: string | null;
}

export interface EventPage {
  items: EventRecord[];
  next: string | undefined;
}

export interface EventLog {
  get(id: string): Promise<EventRecord | undefined>;
  /** The owner's events since `since`, newest first, optionally of one type. */
  list(
    accountId: string,
    environment: Environment,
    options: { type?: EventType; since: string; limit: number; after?: string },
  ): Promise<EventPage>;
  /** Records an event on its own (not caused by a state change, e.g. `webhook_endpoint.test`). */
  record(event: EventRecord): Promise<void>;
  markPublished(id: string, at: string): Promise<void>;
  /** Events recorded before `before` and not yet published, oldest first. */
  unpublished(before: string, limit: number): Promise<EventRecord[]>;
}

/** The body a subscriber receives (spec 6.2): the record without its owner and bookkeeping. */
export const eventBody = (event: EventRecord) => ({
  id: event.id,
  type: event.type,
  createdAt: event.createdAt,
  livemode: event.livemode,
  data: event.data,
});

/** An event as published: the webhook body of spec 6.2 plus the account it is for (which the body leaves out). */
export interface ServiceEvent {
  id: string;
  type: EventType;
  createdAt: string;
  livemode: boolean;
  accountId: string;
  data: Record<string, unknown>;
}

export interface EventPublisher {
  publish(event: ServiceEvent): Promise<void>;
}
