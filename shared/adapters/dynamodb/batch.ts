import { BatchWriteCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './client.ts';

type Item = Record<string, NativeAttributeValue>;

/** Puts every item with BatchWrite, 25 at a time in parallel, retrying what DynamoDB leaves unprocessed. */
export async function putAll(tableName: string, items: readonly Item[], what: string): Promise<void> {
  const groups: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) groups.push(items.slice(i, i + 25));
  await Promise.all(
    groups.map(async (group) => {
      let pending: Item[] = group.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 5) throw new Error(`could not store ${what}`);
        if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** attempt));
        const result = await dynamo().send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = (result.UnprocessedItems?.[tableName] ?? []) as Item[];
      }
    }),
  );
}
