/**
 * The event log and the event bus (spec 6): every event the service emits is recorded in the main
 * table in the same transaction as the state change that causes it (an order's, a spend cap's, a
 * monitoring run's), then published to the bus, from which webhook deliveries are made. The kernel
 * knows no event type: `Type` is the list the webhooks capability keeps (shared/webhooks/event-port.ts
 * names these types with it), so the technology adapters stay generic.
 */
import type { Environment } from '../api-keys.ts';

/** Events are listed and read for this long after they happened. */
export const EVENT_RETENTION_MS = 30 * 24 * 3600_000;

/** An event as recorded: the webhook body of spec 6.2 plus its owner. Never changes once written. */
export interface EventRecord<Type extends string = string> {
  id: string;
  type: Type;
  createdAt: string;
  livemode: boolean;
  accountId: string;
  environment: Environment;
  /** The resource as its GET returned it when the event happened (for orders: the webhook view). */
  data: Record<string, unknown>;
  /** When it was put on the event bus; null until then (the sweeper publishes what was missed). */
  publishedAt: string | null;
}

export interface EventPage<Type extends string = string> {
  items: EventRecord<Type>[];
  next: string | undefined;
}

export interface EventLog<Type extends string = string> {
  get(id: string): Promise<EventRecord<Type> | undefined>;
  /** The owner's events since `since`, newest first, optionally of one type. */
  list(
    accountId: string,
    environment: Environment,
    options: { type?: Type; since: string; limit: number; after?: string },
  ): Promise<EventPage<Type>>;
  /** Records an event on its own (not caused by a state change, e.g. `webhook_endpoint.test`). */
  record(event: EventRecord<Type>): Promise<void>;
  markPublished(id: string, at: string): Promise<void>;
  /** Events recorded before `before` and not yet published, oldest first. */
  unpublished(before: string, limit: number): Promise<EventRecord<Type>[]>;
}

/** An event as published: the webhook body of spec 6.2 plus the account it is for (which the body leaves out). */
export interface ServiceEvent<Type extends string = string> {
  id: string;
  type: Type;
  createdAt: string;
  livemode: boolean;
  accountId: string;
  data: Record<string, unknown>;
}

export interface EventPublisher<Type extends string = string> {
  publish(event: ServiceEvent<Type>): Promise<void>;
}
