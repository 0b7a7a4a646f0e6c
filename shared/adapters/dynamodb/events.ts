/**
 * The event log in the main table (shared/kernel/ports/events.ts).
 *
 *   EVT#<id>                          EVENT                          the event (data as JSON text)
 *   EVENTS#<acct>#<env>               <createdAt>#<ms>#<id>          the owner's events, a full copy each
 *   EVENTS#<acct>#<env>#T#<type>      <createdAt>#<ms>#<id>          ... of one type
 *   gsi1: EVTUNPUBLISHED#<shard> / <createdAt>#<id>   only until published: what the sweeper publishes
 *         (shard: sharded-index.ts, of the event id)
 *
 * Events never change, so the listing items carry a whole copy: a page is one Query. Every item
 * expires (TTL) 31 days after the event; reads compare `createdAt` with the 30-day window.
 * `eventPuts` gives the items of an event for the transaction of the state change causing it.
 */
import type { Environment } from '../../kernel/api-keys.ts';
import {
  EVENT_RETENTION_MS,
  type EventLog,
  type EventPage,
  type EventRecord,
} from '../../kernel/ports/events.ts';
import { getItem, type Item, query, type TransactItem, transactWrite, updateItem } from './document.ts';
import { entryOrder } from './ledger.ts';
import { queryEveryShard, shardKey } from './sharded-index.ts';

const UNPUBLISHED = 'EVTUNPUBLISHED';
const eventKey = (id: string) => ({ pk: `EVT#${id}`, sk: 'EVENT' });
const listPk = (accountId: string, environment: Environment, type?: string) =>
  `EVENTS#${accountId}#${environment}${type ? `#T#${type}` : ''}`;
const expiresAtEpoch = (createdAt: string) =>
  Math.floor((Date.parse(createdAt) + EVENT_RETENTION_MS + 24 * 3600_000) / 1000);

/** An event's attributes on each of its items (the log's and the monitoring feed's copies). */
export const eventFields = (event: EventRecord, expiresAt = expiresAtEpoch(event.createdAt)) => ({
  id: event.id,
  type: event.type,
  createdAt: event.createdAt,
  livemode: event.livemode,
  accountId: event.accountId,
  environment: event.environment,
  // JSON text keeps the field order subscribers see.
  data: JSON.stringify(event.data),
  expiresAtEpoch: expiresAt,
});

export const toEvent = <Type extends string = string>(item: Item): EventRecord<Type> => ({
  id: item.id,
  type: item.type,
  createdAt: item.createdAt,
  livemode: item.livemode,
  accountId: item.accountId,
  environment: item.environment,
  data: JSON.parse(item.data),
  publishedAt: item.publishedAt ?? null,
});

/** The items of a new event, for a transaction: written once (a retried transition writes nothing). */
export function eventPuts(tableName: string, event: EventRecord): TransactItem[] {
  const sk = `${event.createdAt}#${entryOrder()}#${event.id}`;
  return [
    {
      Put: {
        TableName: tableName,
        Item: {
          ...eventKey(event.id),
          ...eventFields(event),
          publishedAt: event.publishedAt,
          ...(event.publishedAt
            ? {}
            : { gsi1pk: shardKey(UNPUBLISHED, event.id), gsi1sk: `${event.createdAt}#${event.id}` }),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...[undefined, event.type].map((type) => ({
      Put: {
        TableName: tableName,
        Item: { pk: listPk(event.accountId, event.environment, type), sk, ...eventFields(event) },
      },
    })),
  ];
}

/** `Type`: the event types of the service (shared/webhooks/event-types.ts), which the table does not check. */
export class DynamoEventLog<Type extends string = string> implements EventLog<Type> {
  constructor(private readonly tableName: string) {}

  async get(id: string): Promise<EventRecord<Type> | undefined> {
    const item = await getItem(this.tableName, eventKey(id));
    return item ? toEvent<Type>(item) : undefined;
  }

  async list(
    accountId: string,
    environment: Environment,
    options: { type?: Type; since: string; limit: number; after?: string },
  ): Promise<EventPage<Type>> {
    const pk = listPk(accountId, environment, options.type);
    const { Items } = await query({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk >= :since',
      ExpressionAttributeValues: { ':pk': pk, ':since': options.since },
      ScanIndexForward: false,
      Limit: options.limit + 1,
      ...(options.after ? { ExclusiveStartKey: { pk, sk: options.after } } : {}),
    });
    const listed = Items.slice(0, options.limit);
    return {
      items: listed.map(toEvent<Type>),
      next: Items.length > options.limit ? (listed.at(-1)?.sk as string) : undefined,
    };
  }

  async record(event: EventRecord<Type>): Promise<void> {
    await transactWrite(eventPuts(this.tableName, event));
  }

  async markPublished(id: string, at: string): Promise<void> {
    try {
      await updateItem({
        TableName: this.tableName,
        Key: eventKey(id),
        UpdateExpression: 'SET publishedAt = :at REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk) AND attribute_type(publishedAt, :null)',
        ExpressionAttributeValues: { ':at': at, ':null': 'NULL' },
      });
    } catch (error) {
      // Already published: the first publication time stands.
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    }
  }

  async unpublished(before: string, limit: number): Promise<EventRecord<Type>[]> {
    const items = await queryEveryShard({
      tableName: this.tableName,
      base: UNPUBLISHED,
      below: { bound: before },
      limit,
    });
    return items.map(toEvent<Type>);
  }
}
