/**
 * Orders and offline searches in the main table.
 *
 *   ORD#<id>                                  ORDER              the order record
 *   ORDERS#<acct>#<env>                       <createdAt>#<id>   the account's orders
 *   ORDERS#<acct>#<env>#T#<type>              <createdAt>#<id>   ... of one type
 *   ORDERS#<acct>#<env>#S#<status>            <createdAt>#<id>   ... in one status
 *   ORDERS#<acct>#<env>#S#<status>#T#<type>   <createdAt>#<id>   ... in one status, of one type
 *   OFS#<id>                                  SEARCH             the offline search record
 *   OFSDAY#<acct>#<env>#<day>                 COUNT              searches accepted that day (`n`)
 *   OFSLIST#<acct>#<env>                      <createdAt>#<id>   the account's offline searches
 *   USAGE#<acct>#<env>                        <at>#<ms>#<requestId>   fee entries, as shared/extracts/adapters/dynamodb.ts writes them
 *
 * While an order or search is pending or processing its item carries gsi1pk `UNFINISHED#<shard>`
 * (shared/adapters/dynamodb/sharded-index.ts, of the order or search id) and
 * gsi1sk `<updatedAt>#<id>`, so the sweeper finds stalled work without a scan; reaching a final
 * status removes both. Writes that set `updatedAt` move gsi1sk with it.
 *
 * A status change that causes an event records it in the event log (shared/adapters/dynamodb/events.ts) in the same
 * transaction. A status change moves the status listing items in the same transaction as the order, so each
 * filter is one query on its own partition: pages are never short because of a filter. Orders,
 * searches and their listings carry no TTL: unlike extracts, order history is the account's record.
 */
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import {
  batchGet,
  getItem,
  type Item,
  query,
  type TransactItem,
  transactWrite,
  type UpdateInput,
  updateItem,
} from '../../adapters/dynamodb/document.ts';
import { eventPuts } from '../../adapters/dynamodb/events.ts';
import { cancelledByCondition, entryOrder, feeEntryItem } from '../../adapters/dynamodb/ledger.ts';
import { queryEveryShard, shardKey } from '../../adapters/dynamodb/sharded-index.ts';
import type { Environment } from '../../kernel/api-keys.ts';
import type { FeeEntry } from '../../kernel/ports/fee-ledger.ts';
import type {
  OfflineSearchRecord,
  OfflineSearchStatus,
  OfflineSearchStore,
  OrderListPage,
  OrderRecord,
  OrderStatus,
  OrderStore,
  OrderType,
  Transition,
} from '../store-port.ts';

const UNFINISHED = 'UNFINISHED';
const unfinishedStatuses: readonly string[] = ['pending', 'processing'];
const DAY_COUNTER_TTL_SECONDS = 3 * 24 * 3600;

const orderKey = (id: string) => ({ pk: `ORD#${id}`, sk: 'ORDER' });
const searchKey = (id: string) => ({ pk: `OFS#${id}`, sk: 'SEARCH' });
const searchListPk = (accountId: string, environment: Environment) => `OFSLIST#${accountId}#${environment}`;
const listPk = (
  accountId: string,
  environment: Environment,
  filter: { status?: OrderStatus; type?: OrderType },
) =>
  `ORDERS#${accountId}#${environment}${filter.status ? `#S#${filter.status}` : ''}${filter.type ? `#T#${filter.type}` : ''}`;
/**
 * Newest first even within one second (`createdAt` has whole seconds): the wall clock's
 * milliseconds come between. Kept on the order item (`listSk`) so that transitions find it.
 */
const newListSk = (order: Pick<OrderRecord, 'createdAt' | 'id'>) =>
  `${order.createdAt}#${entryOrder()}#${order.id}`;
const listSkOf = (item: Item) => item.listSk as string;
const unfinishedSk = (updatedAt: string, id: string) => `${updatedAt}#${id}`;

/** The status listing partitions of an order in `status` (the other two never change). */
const statusListPks = (order: OrderRecord, status: OrderStatus) => [
  listPk(order.accountId, order.environment, { status }),
  listPk(order.accountId, order.environment, { status, type: order.type }),
];

const unfinishedKeys = (record: { id: string; status: string; updatedAt: string }) =>
  unfinishedStatuses.includes(record.status)
    ? { gsi1pk: shardKey(UNFINISHED, record.id), gsi1sk: unfinishedSk(record.updatedAt, record.id) }
    : {};

/**
 * Several fee entries of one request share their time and request id: consecutive milliseconds
 * keep their keys apart and in the order given.
 */
const feePuts = (tableName: string, fees: readonly FeeEntry[]): TransactItem[] => {
  const now = Date.now();
  return fees.map((fee, index) => ({
    Put: { TableName: tableName, Item: feeEntryItem(fee, entryOrder(now + index)) },
  }));
};

const isConditionFailure = (error: unknown): boolean =>
  (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

// The company summary is stored as JSON text: a DynamoDB map would not keep the field order clients see.
const encodeField = (field: string, value: unknown): NativeAttributeValue =>
  field === 'company' ? JSON.stringify(value) : value;

const toOrder = ({
  pk: _pk,
  sk: _sk,
  gsi1pk: _gpk,
  gsi1sk: _gsk,
  listSk: _ls,
  company,
  ...rest
}: Item): OrderRecord => ({ ...rest, company: JSON.parse(company) }) as OrderRecord;

const toSearch = ({ pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, ...rest }: Item): OfflineSearchRecord =>
  rest as OfflineSearchRecord;

/** The conditional update of a record's status, shared by orders and searches. */
function transitionUpdate(
  tableName: string,
  key: { pk: string; sk: string },
  id: string,
  transition: Transition<string>,
): UpdateInput {
  const names: Record<string, string> = { '#status': 'status', '#updatedAt': 'updatedAt' };
  const values: Record<string, NativeAttributeValue> = { ':to': transition.to, ':at': transition.at };
  const from = [...new Set(transition.from)].map((status, index) => {
    values[`:from${index}`] = status;
    return `:from${index}`;
  });
  const sets = ['#status = :to', '#updatedAt = :at'];
  for (const [index, [field, value]] of Object.entries(transition.set ?? {}).entries()) {
    if (value === undefined) continue;
    names[`#f${index}`] = field;
    values[`:f${index}`] = encodeField(field, value);
    sets.push(`#f${index} = :f${index}`);
  }
  const finished = !unfinishedStatuses.includes(transition.to);
  if (!finished) {
    values[':unfinished'] = shardKey(UNFINISHED, id);
    values[':gsi1sk'] = unfinishedSk(transition.at, id);
    sets.push('gsi1pk = :unfinished', 'gsi1sk = :gsi1sk');
  }
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: `SET ${sets.join(', ')}${finished ? ' REMOVE gsi1pk, gsi1sk' : ''}`,
    ConditionExpression: `#status IN (${from.join(', ')})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

const read = (tableName: string, key: { pk: string; sk: string }): Promise<Item | undefined> =>
  getItem(tableName, key);

/** BatchGet of up to 100 keys at a time, retrying what DynamoDB leaves unprocessed. */
async function getAll(tableName: string, keys: readonly { pk: string; sk: string }[]): Promise<Item[]> {
  const found: Item[] = [];
  const groups: { pk: string; sk: string }[][] = [];
  for (let i = 0; i < keys.length; i += 100) groups.push(keys.slice(i, i + 100));
  await Promise.all(
    groups.map(async (group) => {
      let pending: Item[] = group;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 5) throw new Error('could not read the orders of a listing');
        if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** attempt));
        const { items, unprocessed } = await batchGet(tableName, pending);
        found.push(...items);
        pending = unprocessed;
      }
    }),
  );
  return found;
}

/** One page of a listing partition (items holding an id, newest first), read back with BatchGet. */
async function listed<T>(
  tableName: string,
  pk: string,
  options: { limit: number; after?: string },
  keyOf: (id: string) => { pk: string; sk: string },
  toRecord: (item: Item) => T,
): Promise<OrderListPage<T>> {
  const { Items } = await query({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ScanIndexForward: false,
    Limit: options.limit + 1,
    ...(options.after ? { ExclusiveStartKey: { pk, sk: options.after } } : {}),
  });
  const page = Items.slice(0, options.limit);
  const records = new Map(
    (
      await getAll(
        tableName,
        page.map((item) => keyOf(item.id as string)),
      )
    ).map((item) => [item.id as string, toRecord(item)]),
  );
  return {
    items: page.map((item) => records.get(item.id as string)).filter((record): record is T => !!record),
    next: Items.length > options.limit ? (page.at(-1)?.sk as string) : undefined,
  };
}

export class DynamoOrderStore implements OrderStore {
  constructor(private readonly tableName: string) {}

  async create(order: OrderRecord): Promise<boolean> {
    const sk = newListSk(order);
    const listings = [
      listPk(order.accountId, order.environment, {}),
      listPk(order.accountId, order.environment, { type: order.type }),
      ...statusListPks(order, order.status),
    ];
    try {
      await transactWrite([
        {
          Put: {
            TableName: this.tableName,
            Item: {
              ...orderKey(order.id),
              ...order,
              company: encodeField('company', order.company),
              listSk: sk,
              ...unfinishedKeys(order),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...listings.map((pk) => ({ Put: { TableName: this.tableName, Item: { pk, sk, id: order.id } } })),
        ...feePuts(this.tableName, order.fees),
      ]);
      return true;
    } catch (error) {
      if (cancelledByCondition(error)) return false;
      throw error;
    }
  }

  async get(id: string): Promise<OrderRecord | undefined> {
    const item = await read(this.tableName, orderKey(id));
    return item ? toOrder(item) : undefined;
  }

  /**
   * Listing items hold only the order id; the orders are then read with one BatchGet. Copies of
   * the record on the four listing items would have to be rewritten by every write to an order
   * (image requests, notices, PDF key, event publication), not just by status changes.
   */
  async list(
    accountId: string,
    environment: Environment,
    options: { status?: OrderStatus; type?: OrderType; limit: number; after?: string },
  ): Promise<OrderListPage<OrderRecord>> {
    const page = await listed(
      this.tableName,
      listPk(accountId, environment, options),
      options,
      orderKey,
      toOrder,
    );
    // An order whose status changed between the query and the read no longer matches the filter.
    const items = page.items.filter((order) => !options.status || order.status === options.status);
    return { ...page, items };
  }

  async transition(id: string, transition: Transition<OrderStatus>): Promise<boolean> {
    const item = await read(this.tableName, orderKey(id));
    if (!item) return false;
    const order = toOrder(item);
    if (!transition.from.includes(order.status)) return false;
    const sk = listSkOf(item);
    // The status may still change to another of `from` before the write; deleting the listings
    // of every `from` status (a no-op where there are none) keeps them right without a retry.
    const left = [...new Set(transition.from)].filter((status) => status !== transition.to);
    try {
      await transactWrite([
        { Update: transitionUpdate(this.tableName, orderKey(id), id, transition) },
        ...left.flatMap((status) =>
          statusListPks(order, status).map((pk) => ({
            Delete: { TableName: this.tableName, Key: { pk, sk } },
          })),
        ),
        ...statusListPks(order, transition.to).map((pk) => ({
          Put: { TableName: this.tableName, Item: { pk, sk, id } },
        })),
        ...feePuts(this.tableName, transition.fees ?? []),
        ...(transition.event ? eventPuts(this.tableName, transition.event) : []),
      ]);
      return true;
    } catch (error) {
      if (cancelledByCondition(error)) return false;
      throw error;
    }
  }

  async recordImageRequest(id: string, index: number, registryRequestId: string): Promise<string> {
    const { Attributes } = await updateItem({
      TableName: this.tableName,
      Key: orderKey(id),
      UpdateExpression: 'SET imageRequests.#i = if_not_exists(imageRequests.#i, :id)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#i': String(index) },
      ExpressionAttributeValues: { ':id': registryRequestId },
      ReturnValues: 'UPDATED_NEW',
    });
    return (Attributes as { imageRequests: Record<string, string> }).imageRequests[String(index)] as string;
  }

  /**
   * Read, merge, then write on condition that the notices and status are still those read: a
   * concurrent or retried step cannot add a notice twice or lose one, and gsi1sk is refreshed
   * only while the order is unfinished.
   */
  async update(
    id: string,
    fields: { notices?: string[]; pdfKey?: string; dispatchedAt?: string; updatedAt: string },
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const item = await read(this.tableName, orderKey(id));
      if (!item) throw new Error(`order ${id} does not exist`);
      const notices = [...new Set([...(item.notices as string[]), ...(fields.notices ?? [])])];
      const values: Record<string, NativeAttributeValue> = {
        ':notices': notices,
        ':read': item.notices,
        ':status': item.status,
        ':at': fields.updatedAt,
      };
      const sets = ['#notices = :notices', '#updatedAt = :at'];
      if (fields.pdfKey !== undefined) {
        values[':pdfKey'] = fields.pdfKey;
        sets.push('pdfKey = :pdfKey');
      }
      if (fields.dispatchedAt !== undefined) {
        values[':dispatchedAt'] = fields.dispatchedAt;
        sets.push('dispatchedAt = :dispatchedAt');
      }
      if (unfinishedStatuses.includes(item.status)) {
        values[':gsi1sk'] = unfinishedSk(fields.updatedAt, id);
        sets.push('gsi1sk = :gsi1sk');
      }
      try {
        await updateItem({
          TableName: this.tableName,
          Key: orderKey(id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: '#notices = :read AND #status = :status',
          ExpressionAttributeNames: {
            '#notices': 'notices',
            '#status': 'status',
            '#updatedAt': 'updatedAt',
          },
          ExpressionAttributeValues: values,
        });
        return;
      } catch (error) {
        if (!isConditionFailure(error) || attempt >= 4) throw error;
      }
    }
  }

  async stalled(before: string, limit: number): Promise<{ id: string; updatedAt: string }[]> {
    const items = await queryEveryShard({
      tableName: this.tableName,
      base: UNFINISHED,
      below: { bound: before },
      limit,
      projection: 'id, updatedAt',
    });
    return items.map((item) => ({ id: item.id, updatedAt: item.updatedAt }));
  }
}

export class DynamoOfflineSearchStore implements OfflineSearchStore {
  constructor(private readonly tableName: string) {}

  async create(
    search: OfflineSearchRecord,
    day: string,
    dailyLimit: number,
  ): Promise<'created' | 'exists' | 'limit'> {
    const dayStart = Date.parse(day);
    if (Number.isNaN(dayStart)) throw new Error(`not a day: ${day}`);
    const key = searchKey(search.id);
    try {
      // Cancellation reasons follow this order: the search first, the counter second.
      await transactWrite([
        {
          Put: {
            TableName: this.tableName,
            Item: { ...key, ...search, ...unfinishedKeys(search) },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: `OFSDAY#${search.accountId}#${search.environment}#${day}`, sk: 'COUNT' },
            UpdateExpression: 'ADD n :one SET expiresAtEpoch = :ttl',
            ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
            ExpressionAttributeValues: {
              ':one': 1,
              ':limit': dailyLimit,
              ':ttl': Math.floor(dayStart / 1000) + DAY_COUNTER_TTL_SECONDS,
            },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: {
              pk: searchListPk(search.accountId, search.environment),
              sk: newListSk(search),
              id: search.id,
            },
          },
        },
        ...feePuts(this.tableName, search.fees),
      ]);
      return 'created';
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return 'exists';
      if (reasons?.[1]?.Code !== 'ConditionalCheckFailed') throw error;
      // A retry of an accepted search on a day now full must still answer `exists`: whether
      // DynamoDB reports every failed condition or only one is not documented.
      return (await read(this.tableName, key)) ? 'exists' : 'limit';
    }
  }

  async get(id: string): Promise<OfflineSearchRecord | undefined> {
    const item = await read(this.tableName, searchKey(id));
    return item ? toSearch(item) : undefined;
  }

  /** Searches accepted before their listing item was written (2026-11) are not listed. */
  list(
    accountId: string,
    environment: Environment,
    options: { limit: number; after?: string },
  ): Promise<OrderListPage<OfflineSearchRecord>> {
    return listed(this.tableName, searchListPk(accountId, environment), options, searchKey, toSearch);
  }

  async transition(id: string, transition: Transition<OfflineSearchStatus>): Promise<boolean> {
    const update = transitionUpdate(this.tableName, searchKey(id), id, transition);
    try {
      const others = [
        ...feePuts(this.tableName, transition.fees ?? []),
        ...(transition.event ? eventPuts(this.tableName, transition.event) : []),
      ];
      if (others.length > 0) {
        await transactWrite([{ Update: update }, ...others]);
      } else {
        await updateItem(update);
      }
      return true;
    } catch (error) {
      if (cancelledByCondition(error) || isConditionFailure(error)) return false;
      throw error;
    }
  }
}
