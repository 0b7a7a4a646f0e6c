/**
 * DynamoDB calls with plain JavaScript values, as the SDK's document client takes them, over the
 * lean JSON client (json-client.ts): the order and offline search stores use it, so that a
 * workflow step's bundle carries neither the SDK's DynamoDB client nor its core (about 190 KB).
 * Values are marshalled as the document client does with `removeUndefinedValues`.
 */
import { randomUUID } from 'node:crypto';
import { marshall, type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import { callDynamo, type Item as RawItem } from './json-client.ts';

export type Item = Record<string, NativeAttributeValue>;
type Key = Record<string, NativeAttributeValue>;

const toRaw = (item: Item): RawItem => marshall(item, { removeUndefinedValues: true });
const fromRaw = (item: RawItem): Item => unmarshall(item);
const rawValues = (values: Item | undefined) => (values ? { ExpressionAttributeValues: toRaw(values) } : {});

interface Expressions {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
}

export interface UpdateInput extends Expressions {
  TableName: string;
  Key: Key;
  UpdateExpression: string;
  ReturnValues?: 'UPDATED_NEW' | 'ALL_NEW' | 'NONE';
}

export interface QueryInput {
  TableName: string;
  IndexName?: string;
  KeyConditionExpression: string;
  ExpressionAttributeValues: Item;
  ProjectionExpression?: string;
  ScanIndexForward?: boolean;
  Limit?: number;
  ExclusiveStartKey?: Key | undefined;
}

export type TransactItem =
  | { Put: Expressions & { TableName: string; Item: Item } }
  | { Update: UpdateInput }
  | { Delete: Expressions & { TableName: string; Key: Key } };

const rawExpressions = ({ ExpressionAttributeValues, ...rest }: Expressions) => ({
  ...rest,
  ...rawValues(ExpressionAttributeValues),
});

function rawTransactItem(item: TransactItem) {
  if ('Put' in item) {
    const { Item: put, ...rest } = item.Put;
    return { Put: { ...rawExpressions(rest), Item: toRaw(put) } };
  }
  if ('Update' in item) {
    const { Key: key, ...rest } = item.Update;
    return { Update: { ...rawExpressions(rest), Key: toRaw(key) } };
  }
  const { Key: key, ...rest } = item.Delete;
  return { Delete: { ...rawExpressions(rest), Key: toRaw(key) } };
}

export async function getItem(tableName: string, key: Key): Promise<Item | undefined> {
  const { Item } = await callDynamo<{ Item?: RawItem }>('GetItem', {
    TableName: tableName,
    Key: toRaw(key),
    ConsistentRead: true,
  });
  return Item && fromRaw(Item);
}

export async function updateItem(input: UpdateInput): Promise<{ Attributes?: Item }> {
  const { Key: key, ...rest } = input;
  const { Attributes } = await callDynamo<{ Attributes?: RawItem }>('UpdateItem', {
    ...rawExpressions(rest),
    Key: toRaw(key),
  });
  return Attributes ? { Attributes: fromRaw(Attributes) } : {};
}

export async function query(input: QueryInput): Promise<{ Items: Item[]; LastEvaluatedKey?: Key }> {
  const { ExclusiveStartKey, ExpressionAttributeValues, ...rest } = input;
  const output = await callDynamo<{ Items?: RawItem[]; LastEvaluatedKey?: RawItem }>('Query', {
    ...rest,
    ExpressionAttributeValues: toRaw(ExpressionAttributeValues),
    ...(ExclusiveStartKey ? { ExclusiveStartKey: toRaw(ExclusiveStartKey) } : {}),
  });
  return {
    Items: (output.Items ?? []).map(fromRaw),
    ...(output.LastEvaluatedKey ? { LastEvaluatedKey: fromRaw(output.LastEvaluatedKey) } : {}),
  };
}

/**
 * All items or none. The request token makes the client's own retry of a transaction whose
 * answer was lost (a timeout) a no-op rather than a second write.
 */
export async function transactWrite(items: readonly TransactItem[]): Promise<void> {
  await callDynamo('TransactWriteItems', {
    TransactItems: items.map(rawTransactItem),
    ClientRequestToken: randomUUID(),
  });
}

/** One BatchGetItem on one table: the items found, and the keys DynamoDB left unprocessed. */
export async function batchGet(
  tableName: string,
  keys: readonly Key[],
): Promise<{ items: Item[]; unprocessed: Key[] }> {
  const output = await callDynamo<{
    Responses?: Record<string, RawItem[]>;
    UnprocessedKeys?: Record<string, { Keys?: RawItem[] }>;
  }>('BatchGetItem', { RequestItems: { [tableName]: { Keys: keys.map(toRaw) } } });
  return {
    items: (output.Responses?.[tableName] ?? []).map(fromRaw),
    unprocessed: (output.UnprocessedKeys?.[tableName]?.Keys ?? []).map(fromRaw),
  };
}
