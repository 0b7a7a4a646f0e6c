import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { LIMITS, windowStartOf } from '../../domain/rate-limit.ts';
import type { Acquisition, LimiterStore } from '../../ports/limiter.ts';
import { callDynamo, DynamoCallError, type Item } from './json-client.ts';

/**
 * One item per key: `win` (start of the current minute), `cur` and `prev` (requests in this and
 * the previous minute), `leases` (request id → lease end, one per request in flight) and `v`, a
 * version bumped by every write so that the rare whole-item rewrite at a minute boundary cannot
 * overwrite a concurrent change.
 */
interface LimitItem {
  pk: string;
  v: number;
  win: number;
  cur: number;
  prev: number;
  leases: Record<string, number>;
}

const MAX_ATTEMPTS = 6;

const isConditionFailure = (error: unknown): error is DynamoCallError =>
  error instanceof DynamoCallError && error.name === 'ConditionalCheckFailedException';

const keyOf = (pk: string): Item => ({ pk: { S: pk } });

export class DynamoLimiterStore implements LimiterStore {
  constructor(
    private readonly tableName: string,
    private readonly maxConcurrent = LIMITS.concurrentRequests,
  ) {}

  async acquire(keyId: string, requestId: string, now: Date): Promise<Acquisition> {
    const pk = `LIMIT#${keyId}`;
    const nowMs = now.getTime();
    let win = windowStartOf(nowMs);
    const leaseEnd = nowMs + LIMITS.leaseMs;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const expiresAtEpoch = Math.ceil((win + 3 * LIMITS.windowMs) / 1000);
      let old: LimitItem | undefined;
      try {
        const { Attributes } = await callDynamo<{ Attributes: Item }>('UpdateItem', {
          TableName: this.tableName,
          Key: keyOf(pk),
          UpdateExpression: 'SET leases.#rid = :lease, expiresAtEpoch = :ttl ADD cur :one, v :one',
          ConditionExpression: 'win = :win AND size(leases) < :max',
          ExpressionAttributeNames: { '#rid': requestId },
          ExpressionAttributeValues: marshall({
            ':lease': leaseEnd,
            ':ttl': expiresAtEpoch,
            ':one': 1,
            ':win': win,
            ':max': this.maxConcurrent,
          }),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        const item = unmarshall(Attributes) as LimitItem;
        return { ok: true, counts: { windowStart: win, current: item.cur, previous: item.prev } };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        old = error.item ? (unmarshall(error.item) as LimitItem) : undefined;
      }

      if (old && old.win > win) {
        // Another instance's clock is a little ahead and already opened the next minute: join it.
        win = old.win;
        continue;
      }
      const leases = Object.entries(old?.leases ?? {});
      const expired = leases.filter(([, end]) => end <= nowMs).map(([id]) => id);
      const live = leases.length - expired.length;

      if (old && old.win === win) {
        // Same minute, every lease taken: free the ones whose requests died, or refuse.
        if (expired.length === 0) {
          return {
            ok: false,
            reason: 'concurrency',
            counts: { windowStart: win, current: old.cur, previous: old.prev },
          };
        }
        await this.removeLeases(pk, expired);
        continue;
      }

      // First request of a new minute (or of the key): rewrite the item with the buckets shifted.
      if (live >= this.maxConcurrent) return { ok: false, reason: 'concurrency' };
      const previous = old && old.win === win - LIMITS.windowMs ? old.cur : 0;
      const kept = Object.fromEntries(leases.filter(([id]) => !expired.includes(id)));
      try {
        await callDynamo('PutItem', {
          TableName: this.tableName,
          Item: marshall({
            pk,
            v: (old?.v ?? 0) + 1,
            win,
            cur: 1,
            prev: previous,
            leases: { ...kept, [requestId]: leaseEnd },
            expiresAtEpoch,
          }),
          ConditionExpression: old ? 'v = :v' : 'attribute_not_exists(pk)',
          ...(old ? { ExpressionAttributeValues: marshall({ ':v': old.v }) } : {}),
        });
        return { ok: true, counts: { windowStart: win, current: 1, previous } };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // Someone else changed the item first: start over with what is there now.
      }
    }
    throw new Error(`limit state for ${keyId} kept changing; gave up after ${MAX_ATTEMPTS} attempts`);
  }

  async release(
    keyId: string,
    requestId: string,
    options: { uncountFromWindow?: number } = {},
  ): Promise<void> {
    const pk = `LIMIT#${keyId}`;
    if (options.uncountFromWindow !== undefined) {
      try {
        await callDynamo('UpdateItem', {
          TableName: this.tableName,
          Key: keyOf(pk),
          UpdateExpression: 'REMOVE leases.#rid ADD cur :minus, v :one',
          ConditionExpression: 'win = :win',
          ExpressionAttributeNames: { '#rid': requestId },
          ExpressionAttributeValues: marshall({ ':minus': -1, ':one': 1, ':win': options.uncountFromWindow }),
        });
        return;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    await this.removeLeases(pk, [requestId]);
  }

  private async removeLeases(pk: string, requestIds: readonly string[]): Promise<void> {
    const names = Object.fromEntries(requestIds.map((id, i) => [`#l${i}`, id]));
    try {
      await callDynamo('UpdateItem', {
        TableName: this.tableName,
        Key: keyOf(pk),
        UpdateExpression: `REMOVE ${Object.keys(names)
          .map((n) => `leases.${n}`)
          .join(', ')} ADD v :one`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: marshall({ ':one': 1 }),
      });
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
