import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { Acquisition, LimiterStore, ReleaseOptions } from '../../kernel/ports/limiter.ts';
import { LIMITS, type SlotCounts, slotOf, staleSlots } from '../../kernel/rate-limit.ts';
import { callDynamo, DynamoCallError, type Item } from './json-client.ts';

/**
 * One item per key: `counts` (slot index → requests counted in that 6-second slot), `leases`
 * (request id → lease end, one per request in flight) and `expiresAtEpoch` (TTL, three minutes
 * after the key's last request). Every request's acquisition is one UpdateItem that counts it in
 * its slot and takes a lease; its release is one UpdateItem that gives the lease back and, in the
 * same write, drops the slots that no longer count (and takes back the count of a refused request).
 */
interface LimitItem {
  pk: string;
  counts?: Record<string, number>;
  leases?: Record<string, number>;
}

const MAX_ATTEMPTS = 6;
/** Stale slots dropped by one release; any left over go with the next (keeps the expression small). */
const MAX_REMOVED_SLOTS = 40;

const isConditionFailure = (error: unknown): error is DynamoCallError =>
  error instanceof DynamoCallError && error.name === 'ConditionalCheckFailedException';

const keyOf = (pk: string): Item => ({ pk: { S: pk } });

/**
 * A lease has ended, or was taken by a clock far ahead of this one (moved forward, then back):
 * no lease taken now can end later than `leaseMs` from now, give or take a slot of clock skew.
 */
const leaseIsOver = (end: number, nowMs: number): boolean =>
  end <= nowMs || end > nowMs + LIMITS.leaseMs + LIMITS.slotMs;

export class DynamoLimiterStore implements LimiterStore {
  constructor(
    private readonly tableName: string,
    private readonly maxConcurrent = LIMITS.concurrentRequests,
  ) {}

  async acquire(
    keyId: string,
    requestId: string,
    now: Date,
    maxConcurrent = this.maxConcurrent,
  ): Promise<Acquisition> {
    const pk = `LIMIT#${keyId}`;
    const nowMs = now.getTime();
    const slot = slotOf(nowMs);
    const leaseEnd = nowMs + LIMITS.leaseMs;
    const expiresAtEpoch = Math.ceil((nowMs + 3 * LIMITS.windowMs) / 1000);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      let old: LimitItem | undefined;
      try {
        const { Attributes } = await callDynamo<{ Attributes: Item }>('UpdateItem', {
          TableName: this.tableName,
          Key: keyOf(pk),
          UpdateExpression:
            'SET counts.#slot = if_not_exists(counts.#slot, :zero) + :one, leases.#rid = :lease, expiresAtEpoch = :ttl',
          ConditionExpression: 'attribute_exists(counts) AND size(leases) < :max',
          ExpressionAttributeNames: { '#slot': String(slot), '#rid': requestId },
          ExpressionAttributeValues: marshall({
            ':zero': 0,
            ':one': 1,
            ':lease': leaseEnd,
            ':ttl': expiresAtEpoch,
            ':max': maxConcurrent,
          }),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        const counts: SlotCounts = (unmarshall(Attributes) as LimitItem).counts ?? {};
        return { ok: true, counts, slot, stale: staleSlots(counts, nowMs) };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        old = error.item ? (unmarshall(error.item) as LimitItem) : undefined;
      }

      const leases = Object.entries(old?.leases ?? {});
      const over = leases.filter(([, end]) => leaseIsOver(end, nowMs)).map(([id]) => id);
      if (old?.counts) {
        // Every lease taken: free the ones whose requests died, or refuse.
        if (over.length === 0) return { ok: false, reason: 'concurrency', counts: old.counts };
        await this.removeLeases(pk, over);
        continue;
      }

      // The key's first request (or an item in the earlier two-bucket shape): write the item whole.
      const live = leases.filter(([id]) => !over.includes(id));
      if (live.length >= maxConcurrent) return { ok: false, reason: 'concurrency' };
      const counts = { [String(slot)]: 1 };
      try {
        await callDynamo('PutItem', {
          TableName: this.tableName,
          Item: marshall({
            pk,
            counts,
            leases: { ...Object.fromEntries(live), [requestId]: leaseEnd },
            expiresAtEpoch,
          }),
          ConditionExpression: 'attribute_not_exists(counts)',
        });
        return { ok: true, counts, slot, stale: [] };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // Another request wrote it first: count this one in what is there now.
      }
    }
    throw new Error(`limit state for ${keyId} kept changing; gave up after ${MAX_ATTEMPTS} attempts`);
  }

  async release(keyId: string, requestId: string, options: ReleaseOptions = {}): Promise<void> {
    const pk = `LIMIT#${keyId}`;
    const { uncountSlot } = options;
    // A path may appear once in an update: the refused request's own slot is never stale, but be sure.
    const stale = [...new Set(options.removeSlots ?? [])]
      .filter((slot) => slot !== uncountSlot)
      .slice(0, MAX_REMOVED_SLOTS);
    const names: Record<string, string> = { '#rid': requestId };
    const removed = ['leases.#rid'];
    stale.forEach((slot, i) => {
      names[`#s${i}`] = String(slot);
      removed.push(`counts.#s${i}`);
    });
    if (uncountSlot !== undefined) {
      try {
        await callDynamo('UpdateItem', {
          TableName: this.tableName,
          Key: keyOf(pk),
          UpdateExpression: `SET counts.#u = counts.#u - :one REMOVE ${removed.join(', ')}`,
          ConditionExpression: 'counts.#u >= :one',
          ExpressionAttributeNames: { ...names, '#u': String(uncountSlot) },
          ExpressionAttributeValues: marshall({ ':one': 1 }),
        });
        return;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // The slot is gone (the item was rewritten): there is no count to take back.
      }
    }
    if (stale.length === 0) return this.removeLeases(pk, [requestId]);
    try {
      await callDynamo('UpdateItem', {
        TableName: this.tableName,
        Key: keyOf(pk),
        UpdateExpression: `REMOVE ${removed.join(', ')}`,
        ConditionExpression: 'attribute_exists(counts)',
        ExpressionAttributeNames: names,
      });
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      await this.removeLeases(pk, [requestId]);
    }
  }

  private async removeLeases(pk: string, requestIds: readonly string[]): Promise<void> {
    const names = Object.fromEntries(requestIds.map((id, i) => [`#l${i}`, id]));
    try {
      await callDynamo('UpdateItem', {
        TableName: this.tableName,
        Key: keyOf(pk),
        UpdateExpression: `REMOVE ${Object.keys(names)
          .map((n) => `leases.${n}`)
          .join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
      });
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
