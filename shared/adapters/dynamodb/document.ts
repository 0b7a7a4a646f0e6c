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

const BATCH_WRITE_ITEMS = 25;

/** One BatchWriteItem of at most 25 puts, retrying what DynamoDB leaves unprocessed. */
async function writeBatch(tableName: string, items: readonly RawItem[], what: string): Promise<void> {
  let pending = items.map((item) => ({ PutRequest: { Item: item } }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 5) throw new Error(`could not store ${what}`);
    if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** attempt));
    const output = await callDynamo<{
      UnprocessedItems?: Record<string, { PutRequest: { Item: RawItem } }[]>;
    }>('BatchWriteItem', { RequestItems: { [tableName]: pending } });
    pending = output.UnprocessedItems?.[tableName] ?? [];
  }
}

/** Puts every item with BatchWriteItem, 25 at a time in parallel, retrying what DynamoDB leaves unprocessed. */
export async function putAll(tableName: string, items: readonly Item[], what: string): Promise<void> {
  const raw = items.map(toRaw);
  const groups: RawItem[][] = [];
  for (let i = 0; i < raw.length; i += BATCH_WRITE_ITEMS) groups.push(raw.slice(i, i + BATCH_WRITE_ITEMS));
  await Promise.all(groups.map((group) => writeBatch(tableName, group, what)));
}

interface SharedPut {
  items: { raw: RawItem; key: string }[];
  what: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Puts like `putAll` on one table (keyed by `pk` and `sk`), except that the puts asked for in the
 * same turn of the event loop share their BatchWriteItem calls: a batch purchase saving each
 * registry answer as it arrives (seven items each) writes a wave of answers in a few full
 * batches rather than one call per answer. A put resolves once every item it gave is written,
 * and fails when a batch holding any of them fails. It waits for nothing but the end of the
 * current turn (`setImmediate`): a lone put is written at once.
 */
export class SharedBatchPuts {
  private queued: SharedPut[] = [];

  constructor(private readonly tableName: string) {}

  async put(items: readonly Item[], what: string): Promise<void> {
    const raw = items.map((item) => ({ raw: toRaw(item), key: `${item.pk}\u0000${item.sk}` }));
    if (this.queued.length === 0) setImmediate(() => this.flush());
    return new Promise((resolve, reject) => this.queued.push({ items: raw, what, resolve, reject }));
  }

  private flush() {
    const puts = this.queued;
    this.queued = [];
    // Each put's items go into the current batch, which is sent when full or when it already
    // holds the same key (BatchWriteItem refuses one key twice).
    const batchesOf = new Map<SharedPut, Promise<void>[]>(puts.map((put) => [put, []]));
    let batch: { items: RawItem[]; keys: Set<string>; puts: Set<SharedPut> } | undefined;
    const send = () => {
      if (!batch) return;
      const written = writeBatch(this.tableName, batch.items, `${batch.items.length} items`);
      for (const put of batch.puts) batchesOf.get(put)?.push(written);
      batch = undefined;
    };
    for (const put of puts) {
      for (const { raw, key } of put.items) {
        if (batch?.keys.has(key)) send();
        batch ??= { items: [], keys: new Set(), puts: new Set() };
        batch.items.push(raw);
        batch.keys.add(key);
        batch.puts.add(put);
        if (batch.items.length === BATCH_WRITE_ITEMS) send();
      }
    }
    send();
    for (const [put, batches] of batchesOf) {
      Promise.all(batches).then(
        () => put.resolve(),
        (cause: unknown) => put.reject(new Error(`could not store ${put.what}`, { cause })),
      );
    }
  }
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
