/**
 * The sparse `gsi1` indexes the background functions read (unsettled purchases, unfinished
 * orders, unpublished events, due webhook deliveries) each spread their items over
 * INDEX_SHARDS partitions instead of one constant key: an index partition takes about 1,000
 * writes a second, and a key whose sort key starts with a time cannot be split for heat, so one
 * constant key would cap the whole service near 500 purchases or deliveries a second (each item
 * is written and later removed). The shard is a hash of the item's own id, so every write of an
 * item lands in the same shard, and readers query every shard in parallel.
 *
 * Items written before the split carry the bare key (`UNFINISHED`…): readers query it too, so
 * they are still found, and the next write of such an item moves it to its shard. Nothing
 * migrates them in bulk; once none is left (31 days at most, the longest an item stays on one of
 * these indexes) the bare key can be dropped from `partitionsOf`.
 */
import { createHash } from 'node:crypto';
import { type Item, query } from './document.ts';

/** Partitions per sparse index (see docs/decisions/0035-sharded-sparse-indexes.md). */
export const INDEX_SHARDS = 16;

const shardName = (base: string, shard: number) => `${base}#${String(shard).padStart(2, '0')}`;

/** The shard (0 to INDEX_SHARDS − 1) of an item id: the first two bytes of its SHA-256. */
export const shardOf = (id: string): number =>
  createHash('sha256').update(id).digest().readUInt16BE(0) % INDEX_SHARDS;

/** The index partition key of the item `id` on the index whose bare key is `base`. */
export const shardKey = (base: string, id: string): string => shardName(base, shardOf(id));

/** Every partition a reader queries: each shard, then the bare key of items written before the split. */
export const partitionsOf = (base: string): string[] => [
  ...Array.from({ length: INDEX_SHARDS }, (_, shard) => shardName(base, shard)),
  base,
];

export interface ShardedRead {
  tableName: string;
  /** The index's bare key: `UNSETTLED_PURCHASES`, `UNFINISHED`, `EVTUNPUBLISHED`, `WHDDUE`. */
  base: string;
  /** Items whose gsi1sk is below `bound` (`<`), or at most it (`<=`). */
  below: { bound: string; inclusive?: boolean };
  /** At most this many items, oldest (lowest gsi1sk) first. */
  limit: number;
  /** Attributes to read (gsi1sk is always read); every attribute when absent. */
  projection?: string;
}

/**
 * The `limit` items with the lowest gsi1sk below the bound, across every partition of the
 * index: each is queried in parallel (up to `limit` items each), then merged.
 */
export async function queryEveryShard(read: ShardedRead): Promise<Item[]> {
  if (read.limit <= 0) return [];
  const perPartition = await Promise.all(
    partitionsOf(read.base).map(async (partition) => {
      const found: Item[] = [];
      let start: Item | undefined;
      do {
        const page = await query({
          TableName: read.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: `gsi1pk = :pk AND gsi1sk ${read.below.inclusive ? '<=' : '<'} :bound`,
          ExpressionAttributeValues: { ':pk': partition, ':bound': read.below.bound },
          ...(read.projection ? { ProjectionExpression: `${read.projection}, gsi1sk` } : {}),
          Limit: Math.min(100, read.limit - found.length),
          ExclusiveStartKey: start,
        });
        found.push(...page.Items);
        start = page.LastEvaluatedKey;
      } while (start && found.length < read.limit);
      return found;
    }),
  );
  return perPartition
    .flat()
    .sort((a, b) => (a.gsi1sk < b.gsi1sk ? -1 : a.gsi1sk > b.gsi1sk ? 1 : 0))
    .slice(0, read.limit);
}
