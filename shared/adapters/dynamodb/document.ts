/**
 * DynamoDB calls with plain JavaScript values, as the SDK's document client takes them, over the
 * lean JSON client (json-client.ts): every store uses it, so that no function's bundle carries
 * the SDK's DynamoDB client and its core (about 190 KB) for its own data. Values are marshalled as the document client does with
 * `removeUndefinedValues`; binary values (Uint8Array) travel base64-encoded, as the JSON
 * protocol wants them.
 */
import { randomUUID } from 'node:crypto';
import { marshall, type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import { callDynamo, type Item as RawItem } from './json-client.ts';

export type Item = Record<string, NativeAttributeValue>;
type Key = Record<string, NativeAttributeValue>;

type Attribute = RawItem[string];

/** Binary attributes as the JSON protocol carries them (base64), to it or from it. */
function binaryAs(value: Attribute, convert: (binary: unknown) => unknown): Attribute {
  if (value.B !== undefined) return { B: convert(value.B) } as Attribute;
  if (value.BS !== undefined) return { BS: value.BS.map(convert) } as Attribute;
  if (value.M !== undefined) return { M: mapValues(value.M, (v) => binaryAs(v, convert)) } as Attribute;
  if (value.L !== undefined) return { L: value.L.map((v) => binaryAs(v, convert)) } as Attribute;
  return value;
}

const mapValues = (item: RawItem, each: (value: Attribute) => Attribute): RawItem =>
  Object.fromEntries(Object.entries(item).map(([name, value]) => [name, each(value)]));

const toBase64 = (binary: unknown) => Buffer.from(binary as Uint8Array).toString('base64');
const fromBase64 = (text: unknown) => Buffer.from(text as string, 'base64');

const toRaw = (item: Item): RawItem =>
  mapValues(marshall(item, { removeUndefinedValues: true }), (value) => binaryAs(value, toBase64));
const fromRaw = (item: RawItem): Item => unmarshall(mapValues(item, (value) => binaryAs(value, fromBase64)));
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
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
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

export async function getItem(
  tableName: string,
  key: Key,
  options: { ProjectionExpression?: string } = {},
): Promise<Item | undefined> {
  const { Item } = await callDynamo<{ Item?: RawItem }>('GetItem', {
    TableName: tableName,
    Key: toRaw(key),
    ConsistentRead: true,
    ...options,
  });
  return Item && fromRaw(Item);
}

export async function putItem(input: Expressions & { TableName: string; Item: Item }): Promise<void> {
  const { Item: item, ...rest } = input;
  await callDynamo('PutItem', { ...rawExpressions(rest), Item: toRaw(item) });
}

export async function deleteItem(tableName: string, key: Key): Promise<void> {
  await callDynamo('DeleteItem', { TableName: tableName, Key: toRaw(key) });
}

/** Puts every item with BatchWriteItem, 25 at a time in parallel, retrying what DynamoDB leaves unprocessed. */
export async function putAll(tableName: string, items: readonly Item[], what: string): Promise<void> {
  const groups: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) groups.push(items.slice(i, i + 25));
  await Promise.all(
    groups.map(async (group) => {
      let pending = group.map((item) => ({ PutRequest: { Item: toRaw(item) } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 5) throw new Error(`could not store ${what}`);
        if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** attempt));
        const output = await callDynamo<{
          UnprocessedItems?: Record<string, { PutRequest: { Item: RawItem } }[]>;
        }>('BatchWriteItem', { RequestItems: { [tableName]: pending } });
        pending = output.UnprocessedItems?.[tableName] ?? [];
      }
    }),
  );
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
  options: { ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> } = {},
): Promise<{ items: Item[]; unprocessed: Key[] }> {
  const output = await callDynamo<{
    Responses?: Record<string, RawItem[]>;
    UnprocessedKeys?: Record<string, { Keys?: RawItem[] }>;
  }>('BatchGetItem', { RequestItems: { [tableName]: { Keys: keys.map(toRaw), ...options } } });
  return {
    items: (output.Responses?.[tableName] ?? []).map(fromRaw),
    unprocessed: (output.UnprocessedKeys?.[tableName]?.Keys ?? []).map(fromRaw),
  };
}
