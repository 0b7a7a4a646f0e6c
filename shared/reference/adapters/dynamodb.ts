/**
 * The stored reference data in the main table: one item per kind (`pk` REFERENCE, `sk` the kind),
 * its data as one JSON string (about 25 KB for the code tables), so a read is one GetItem and one
 * JSON.parse. Written once a day by the refresh; read by the reference routes, which keep what they
 * read for a short while (shared/reference/current.ts), so no key is read on every request either.
 */

import { callDynamo, DynamoCallError, type Item } from '../../adapters/dynamodb/json-client.ts';
import type { ReferenceKind, ReferenceStore, StoredReference } from '../store-port.ts';

const keyOf = (kind: ReferenceKind) => ({ pk: { S: 'REFERENCE' }, sk: { S: kind } });

export class DynamoReferenceStore implements ReferenceStore {
  constructor(private readonly tableName: string) {}

  async get<K extends ReferenceKind>(kind: K): Promise<StoredReference<K> | undefined> {
    const { Item: item } = await callDynamo<{ Item?: Item }>('GetItem', {
      TableName: this.tableName,
      Key: keyOf(kind),
    });
    const data = item?.data?.S;
    const refreshedAt = item?.refreshedAt?.S;
    if (data === undefined || refreshedAt === undefined) return undefined;
    return { data: JSON.parse(data) as StoredReference<K>['data'], refreshedAt };
  }

  async put<K extends ReferenceKind>(kind: K, copy: StoredReference<K>): Promise<boolean> {
    try {
      await callDynamo('PutItem', {
        TableName: this.tableName,
        Item: {
          ...keyOf(kind),
          refreshedAt: { S: copy.refreshedAt },
          data: { S: JSON.stringify(copy.data) },
        },
        ConditionExpression: 'attribute_not_exists(pk) OR refreshedAt < :at',
        ExpressionAttributeValues: { ':at': { S: copy.refreshedAt } },
      });
      return true;
    } catch (error) {
      if (error instanceof DynamoCallError && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }
}
