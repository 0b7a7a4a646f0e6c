/**
 * Webhook endpoints and deliveries in the main table.
 *
 *   WHE#<id>                 ENDPOINT                       the endpoint (sealed secrets, stats)
 *     gsi1: WHES#<acct>#<env> / <createdAt>#<id>            the owner's endpoints (list, fan-out)
 *   WHECOUNT#<acct>#<env>    COUNT                          endpoints of the owner (`n`, at most 16)
 *   WHD#<eventId>            EP#<endpointId>                a delivery, with its attempts (`recorded`:
 *                                                           how many were written, the version attempts
 *                                                           made side by side write against)
 *     gsi1: WHDDUE#<shard> / <nextAttemptAt>#<eventId>#<endpointId>  only while pending: what the retry
 *           function reads (shard: shared/adapters/dynamodb/sharded-index.ts, of `<eventId>#<endpointId>`)
 *   WHDP#<endpointId>        <createdAt>#<ms>#<eventId>     the endpoint's deliveries (event id only)
 *
 * Deliveries and their listing expire (TTL) 31 days after the event, like the event itself.
 */
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import {
  batchGet,
  getItem,
  type Item,
  query,
  transactWrite,
  updateItem,
} from '../../adapters/dynamodb/document.ts';
import { cancelledByCondition, entryOrder } from '../../adapters/dynamodb/ledger.ts';
import { queryEveryShard, shardKey } from '../../adapters/dynamodb/sharded-index.ts';
import type { Environment } from '../../kernel/api-keys.ts';
import { EVENT_RETENTION_MS } from '../event-port.ts';
import {
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryStatus,
  type DeliveryStore,
  DISABLE_AFTER_FAILING_MS,
  MAX_ENDPOINTS,
  type Page,
  type WebhookEndpointRecord,
  type WebhookEndpointStore,
} from '../store-port.ts';

const MAX_ATTEMPTS_KEPT = 50;
/** Attempts recorded side by side retry their write this many times (each loses to one other at most once). */
const MAX_RECORD_TRIES = 25;
const DUE = 'WHDDUE';

const endpointKey = (id: string) => ({ pk: `WHE#${id}`, sk: 'ENDPOINT' });
const ownerPk = (accountId: string, environment: Environment) => `WHES#${accountId}#${environment}`;
const countKey = (accountId: string, environment: Environment) => ({
  pk: `WHECOUNT#${accountId}#${environment}`,
  sk: 'COUNT',
});
const deliveryKey = (eventId: string, endpointId: string) => ({
  pk: `WHD#${eventId}`,
  sk: `EP#${endpointId}`,
});
const dueSk = (at: string, eventId: string, endpointId: string) => `${at}#${eventId}#${endpointId}`;
/** The due index's shard of a delivery (shared/adapters/dynamodb/sharded-index.ts). */
const duePk = (eventId: string, endpointId: string) => shardKey(DUE, `${eventId}#${endpointId}`);
const isConditionFailure = (error: unknown) =>
  (error as { name?: string }).name === 'ConditionalCheckFailedException';

const toEndpoint = ({ pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, ...rest }: Item) =>
  rest as WebhookEndpointRecord;
const toDelivery = ({
  pk: _pk,
  sk: _sk,
  gsi1pk: _g,
  gsi1sk: _s,
  expiresAtEpoch: _e,
  recorded: _r,
  ...rest
}: Item) => rest as DeliveryRecord;

export class DynamoWebhookEndpointStore implements WebhookEndpointStore {
  constructor(private readonly tableName: string) {}

  async create(endpoint: WebhookEndpointRecord): Promise<boolean> {
    try {
      await transactWrite([
        {
          Put: {
            TableName: this.tableName,
            Item: {
              ...endpointKey(endpoint.id),
              ...endpoint,
              gsi1pk: ownerPk(endpoint.accountId, endpoint.environment),
              gsi1sk: `${endpoint.createdAt}#${endpoint.id}`,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: countKey(endpoint.accountId, endpoint.environment),
            UpdateExpression: 'ADD n :one',
            ConditionExpression: 'attribute_not_exists(n) OR n < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': MAX_ENDPOINTS },
          },
        },
      ]);
      return true;
    } catch (error) {
      if (cancelledByCondition(error)) return false;
      throw error;
    }
  }

  async get(id: string): Promise<WebhookEndpointRecord | undefined> {
    const item = await getItem(this.tableName, endpointKey(id));
    return item ? toEndpoint(item) : undefined;
  }

  async list(
    accountId: string,
    environment: Environment,
    options: { limit: number; after?: string },
  ): Promise<Page<WebhookEndpointRecord>> {
    const pk = ownerPk(accountId, environment);
    const afterId = options.after?.split('#').at(-1);
    const { Items } = await query({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: false,
      Limit: options.limit + 1,
      ...(options.after && afterId
        ? { ExclusiveStartKey: { gsi1pk: pk, gsi1sk: options.after, ...endpointKey(afterId) } }
        : {}),
    });
    const listed = Items.slice(0, options.limit);
    return {
      items: listed.map(toEndpoint),
      next: Items.length > options.limit ? (listed.at(-1)?.gsi1sk as string) : undefined,
    };
  }

  async all(accountId: string, environment: Environment): Promise<WebhookEndpointRecord[]> {
    const { Items } = await query({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': ownerPk(accountId, environment) },
    });
    return Items.map(toEndpoint);
  }

  async update(id: string, fields: Partial<WebhookEndpointRecord>): Promise<boolean> {
    const names: Record<string, string> = {};
    const values: Record<string, NativeAttributeValue> = {};
    const sets: string[] = [];
    for (const [index, [field, value]] of Object.entries(fields).entries()) {
      if (value === undefined) continue;
      names[`#f${index}`] = field;
      values[`:f${index}`] = value;
      sets.push(`#f${index} = :f${index}`);
    }
    if (sets.length === 0) return true;
    try {
      await updateItem({
        TableName: this.tableName,
        Key: endpointKey(id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      });
      return true;
    } catch (error) {
      // Deleted since it was read.
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async delete(endpoint: WebhookEndpointRecord): Promise<void> {
    try {
      await transactWrite([
        {
          Delete: {
            TableName: this.tableName,
            Key: endpointKey(endpoint.id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: countKey(endpoint.accountId, endpoint.environment),
            UpdateExpression: 'ADD n :minus',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
      ]);
    } catch (error) {
      // Deleted already (a retried request): the count was taken down then.
      if (!cancelledByCondition(error)) throw error;
    }
  }

  async recordOutcome(id: string, outcome: { ok: boolean; at: string }): Promise<void> {
    try {
      if (outcome.ok) {
        await updateItem({
          TableName: this.tableName,
          Key: endpointKey(id),
          UpdateExpression:
            'ADD stats.succeeded :one SET stats.lastSucceededAt = :at, stats.consecutiveFailures = :zero, stats.failingSince = :null',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1, ':zero': 0, ':at': outcome.at, ':null': null },
        });
        return;
      }
      const { Attributes } = await updateItem({
        TableName: this.tableName,
        Key: endpointKey(id),
        UpdateExpression:
          'ADD stats.failed :one, stats.consecutiveFailures :one SET stats.lastFailedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1, ':at': outcome.at },
        ReturnValues: 'ALL_NEW',
      });
      const endpoint = Attributes as WebhookEndpointRecord | undefined;
      if (!endpoint) return;
      const since = endpoint.stats.failingSince ?? outcome.at;
      if (endpoint.stats.failingSince === null) {
        await updateItem({
          TableName: this.tableName,
          Key: endpointKey(id),
          UpdateExpression: 'SET stats.failingSince = :at',
          ConditionExpression: 'attribute_type(stats.failingSince, :nullType)',
          ExpressionAttributeValues: { ':at': outcome.at, ':nullType': 'NULL' },
        }).catch((error) => {
          if (!isConditionFailure(error)) throw error;
        });
      }
      if (
        endpoint.status === 'enabled' &&
        Date.parse(outcome.at) - Date.parse(since) >= DISABLE_AFTER_FAILING_MS
      ) {
        await this.update(id, {
          status: 'disabled',
          disabledReason: `Every delivery failed from ${since} to ${outcome.at} (5 days); enable it again with PATCH once the endpoint works.`,
          updatedAt: outcome.at,
        });
      }
    } catch (error) {
      // The endpoint was deleted meanwhile: nothing to count.
      if (!isConditionFailure(error)) throw error;
    }
  }
}

export class DynamoDeliveryStore implements DeliveryStore {
  constructor(private readonly tableName: string) {}

  private item(delivery: DeliveryRecord): Item {
    return {
      ...deliveryKey(delivery.eventId, delivery.endpointId),
      ...delivery,
      ...(delivery.status === 'pending' && delivery.nextAttemptAt
        ? {
            gsi1pk: duePk(delivery.eventId, delivery.endpointId),
            gsi1sk: dueSk(delivery.nextAttemptAt, delivery.eventId, delivery.endpointId),
          }
        : {}),
      expiresAtEpoch: Math.floor(
        (Date.parse(delivery.eventCreatedAt) + EVENT_RETENTION_MS + 24 * 3600_000) / 1000,
      ),
    };
  }

  async ensure(delivery: DeliveryRecord): Promise<DeliveryRecord> {
    try {
      await transactWrite([
        {
          Put: {
            TableName: this.tableName,
            Item: this.item(delivery),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: {
              pk: `WHDP#${delivery.endpointId}`,
              sk: `${delivery.createdAt}#${entryOrder()}#${delivery.eventId}`,
              eventId: delivery.eventId,
              expiresAtEpoch: Math.floor(
                (Date.parse(delivery.eventCreatedAt) + EVENT_RETENTION_MS + 24 * 3600_000) / 1000,
              ),
            },
          },
        },
      ]);
      return delivery;
    } catch (error) {
      if (!cancelledByCondition(error)) throw error;
      const existing = await this.get(delivery.eventId, delivery.endpointId);
      if (!existing) throw error;
      return existing;
    }
  }

  async get(eventId: string, endpointId: string): Promise<DeliveryRecord | undefined> {
    const item = await getItem(this.tableName, deliveryKey(eventId, endpointId));
    return item ? toDelivery(item) : undefined;
  }

  async reserveAttempt(
    eventId: string,
    endpointId: string,
    scheduled?: { attemptCount: number },
  ): Promise<DeliveryRecord | undefined> {
    try {
      const { Attributes } = await updateItem({
        TableName: this.tableName,
        Key: deliveryKey(eventId, endpointId),
        UpdateExpression: 'SET attemptCount = attemptCount + :one',
        ConditionExpression: scheduled
          ? '#status = :pending AND attemptCount = :read'
          : 'attribute_exists(pk)',
        ...(scheduled ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: {
          ':one': 1,
          ...(scheduled ? { ':pending': 'pending', ':read': scheduled.attemptCount } : {}),
        },
        ReturnValues: 'ALL_NEW',
      });
      return Attributes ? toDelivery(Attributes) : undefined;
    } catch (error) {
      // Attempted meanwhile (a redelivered message), no longer pending, or gone.
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async recordAttempt(
    eventId: string,
    endpointId: string,
    attempt: DeliveryAttempt,
    next: { status: DeliveryStatus; nextAttemptAt: string | null },
  ): Promise<boolean> {
    // Attempts made side by side record one after the other: each write is conditional on the
    // version it read, and the one that loses reads again.
    for (let tries = 0; tries < MAX_RECORD_TRIES; tries++) {
      const item = await getItem(this.tableName, deliveryKey(eventId, endpointId));
      if (!item) return false;
      const version = (item.recorded as number | undefined) ?? 0;
      const recorded = (item.attempts as DeliveryAttempt[]).filter(
        (kept) => kept.attempt !== attempt.attempt,
      );
      // The highest attempt number is the last one sent: its outcome sets the status.
      const latest = recorded.every((kept) => kept.attempt < attempt.attempt);
      const due = latest && next.status === 'pending' && next.nextAttemptAt !== null;
      const values: Record<string, NativeAttributeValue> = {
        ':version': version,
        ':recorded': version + 1,
        ':attempts': [...recorded, attempt].sort((a, b) => a.attempt - b.attempt).slice(-MAX_ATTEMPTS_KEPT),
        ':at': attempt.at,
      };
      const sets = ['attempts = :attempts', 'recorded = :recorded', 'updatedAt = :at'];
      let removes = '';
      if (latest) {
        values[':status'] = next.status;
        values[':next'] = next.nextAttemptAt;
        sets.push('#status = :status', 'nextAttemptAt = :next');
        if (due) {
          values[':due'] = duePk(eventId, endpointId);
          values[':dueSk'] = dueSk(next.nextAttemptAt as string, eventId, endpointId);
          sets.push('gsi1pk = :due', 'gsi1sk = :dueSk');
        } else removes = ' REMOVE gsi1pk, gsi1sk';
      }
      try {
        await updateItem({
          TableName: this.tableName,
          Key: deliveryKey(eventId, endpointId),
          UpdateExpression: `SET ${sets.join(', ')}${removes}`,
          ConditionExpression:
            version === 0 ? 'attribute_not_exists(recorded) OR recorded = :version' : 'recorded = :version',
          ...(latest ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
          ExpressionAttributeValues: values,
        });
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new Error(
      `delivery ${eventId}/${endpointId}: attempt ${attempt.attempt} not recorded after ${MAX_RECORD_TRIES} tries`,
    );
  }

  async reopenFailed(eventId: string, endpointId: string, leaseUntil: string): Promise<boolean> {
    try {
      await updateItem({
        TableName: this.tableName,
        Key: deliveryKey(eventId, endpointId),
        UpdateExpression: 'SET #status = :pending, nextAttemptAt = :lease, gsi1pk = :due, gsi1sk = :dueSk',
        ConditionExpression: '#status = :failed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':failed': 'failed',
          ':lease': leaseUntil,
          ':due': duePk(eventId, endpointId),
          ':dueSk': dueSk(leaseUntil, eventId, endpointId),
        },
      });
      return true;
    } catch (error) {
      // Not failed (any more): another recover, or a resend, has it in flight.
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async forEvent(eventId: string, options: { limit: number; after?: string }): Promise<Page<DeliveryRecord>> {
    const pk = `WHD#${eventId}`;
    const { Items } = await query({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      Limit: options.limit + 1,
      ...(options.after ? { ExclusiveStartKey: { pk, sk: options.after } } : {}),
    });
    const listed = Items.slice(0, options.limit);
    return {
      items: listed.map(toDelivery),
      next: Items.length > options.limit ? (listed.at(-1)?.sk as string) : undefined,
    };
  }

  async forEndpoint(
    endpointId: string,
    options: { limit: number; after?: string; since?: string },
  ): Promise<Page<DeliveryRecord>> {
    const pk = `WHDP#${endpointId}`;
    const { Items } = await query({
      TableName: this.tableName,
      KeyConditionExpression: options.since ? 'pk = :pk AND sk >= :since' : 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk, ...(options.since ? { ':since': options.since } : {}) },
      ScanIndexForward: false,
      Limit: options.limit + 1,
      ...(options.after ? { ExclusiveStartKey: { pk, sk: options.after } } : {}),
    });
    const listed = Items.slice(0, options.limit);
    const found = new Map<string, DeliveryRecord>();
    for (let i = 0; i < listed.length; i += 100) {
      let pending: Item[] = listed.slice(i, i + 100).map((item) => deliveryKey(item.eventId, endpointId));
      for (let attempt = 0; pending.length > 0 && attempt < 6; attempt++) {
        const { items, unprocessed } = await batchGet(this.tableName, pending);
        for (const item of items) found.set(item.eventId as string, toDelivery(item));
        pending = unprocessed;
      }
    }
    return {
      items: listed.map((item) => found.get(item.eventId as string)).filter((d): d is DeliveryRecord => !!d),
      next: Items.length > options.limit ? (listed.at(-1)?.sk as string) : undefined,
    };
  }

  async claimDue(now: string, leaseUntil: string, limit: number) {
    const claimed: { eventId: string; endpointId: string; attempt: number }[] = [];
    const due = await queryEveryShard({
      tableName: this.tableName,
      base: DUE,
      below: { bound: `${now}#\uffff`, inclusive: true },
      limit,
    });
    await Promise.all(
      due.map(async (item) => {
        const { eventId, endpointId, nextAttemptAt, attemptCount } = item as DeliveryRecord;
        try {
          await updateItem({
            TableName: this.tableName,
            Key: deliveryKey(eventId, endpointId),
            UpdateExpression: 'SET nextAttemptAt = :lease, gsi1sk = :sk',
            ConditionExpression: 'nextAttemptAt = :read AND #status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':lease': leaseUntil,
              ':sk': dueSk(leaseUntil, eventId, endpointId),
              ':read': nextAttemptAt,
              ':pending': 'pending',
            },
          });
          claimed.push({ eventId, endpointId, attempt: attemptCount + 1 });
        } catch (error) {
          // Claimed by another run, or attempted meanwhile.
          if (!isConditionFailure(error)) throw error;
        }
      }),
    );
    return claimed;
  }
}
