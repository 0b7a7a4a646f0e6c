/**
 * Key administration in the keys table (`npm run keys`): each change and its audit record are
 * written in one transaction, so no change goes unrecorded and no record describes a change that
 * did not happen. Audit records are items of their own (`pk` AUDIT#<id>), listed with the account's
 * keys through the byAccount index, where their `keyId` sort key is the audit id (`audit_…`, while
 * key ids start `key_`); the request path never reads them.
 */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type ApiKeyRecord, isKeyUsable } from '../../kernel/api-keys.ts';
import { KEYS_TABLE_ITEMS } from '../../kernel/infra/tables.ts';
import type {
  KeyAdministration,
  KeyAuditRecord,
  KeyChangeResult,
  KeyCreation,
  KeyCreationRequest,
} from '../../kernel/key-admin.ts';
import { KEY_ID_PREFIX, keyPk } from './api-keys.ts';
import { callDynamo, DynamoCallError, type Item } from './json-client.ts';

const AUDIT_ID_PREFIX = 'audit_';

/**
 * The keys an account made through the console in one environment, one item per account and
 * environment (`AUDIT#key-creations_…`, outside the byAccount index): each creation's key and
 * request hash, and a version every creation moves on in the transaction that makes its key. Read
 * strongly consistent, it holds what the index may not show yet, so the limit and the client token
 * hold under concurrent requests. A creation is kept while its key may be usable, and for a day
 * after (a retry within it gets the key it made), at most `KEPT_CREATIONS` of them.
 */
const creationsPk = (accountId: string, environment: string) =>
  `${KEYS_TABLE_ITEMS.audit}key-creations_${accountId}_${environment}`;
interface Creation {
  keyId: string;
  requestHash: string;
  at: string;
}
const CREATION_MEMORY_MS = 24 * 60 * 60 * 1000;
const KEPT_CREATIONS = 100;
/** Tries before a creation gives up to others of the same account (each try re-reads). */
const CREATION_TRIES = 8;

export type { KeyChangeResult } from '../../kernel/key-admin.ts';

/** An audit record's put, for a transaction that makes the change it records (also console sign-ins). */
export function auditPut(tableName: string, audit: KeyAuditRecord) {
  const { auditId, keyId, ...rest } = audit;
  return {
    Put: {
      TableName: tableName,
      Item: marshall({
        pk: `${KEYS_TABLE_ITEMS.audit}${auditId}`,
        keyId: auditId,
        subjectKeyId: keyId,
        ...rest,
      }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The record nested under `field` in the keys table's item `pk`, read strongly consistent. */
export async function readNested<T>(tableName: string, pk: string, field: string): Promise<T | undefined> {
  const { Item } = await callDynamo<{ Item?: Item }>('GetItem', {
    TableName: tableName,
    Key: { pk: { S: pk } },
    ConsistentRead: true,
  });
  return Item ? (unmarshall(Item) as Record<string, T>)[field] : undefined;
}

/** Writes a change (with its audit record) as one transaction: false when a condition refused it. */
export async function transactOrRefuse(items: Record<string, unknown>[]): Promise<boolean> {
  try {
    await callDynamo('TransactWriteItems', { TransactItems: items });
    return true;
  } catch (error) {
    if (error instanceof DynamoCallError && error.name === 'TransactionCanceledException') return false;
    throw error;
  }
}

/** Every item of a byAccount partition, or those whose `keyId` starts with `prefix`, page by page. */
export async function queryByAccount(
  tableName: string,
  partition: string,
  prefix?: string,
): Promise<ReturnType<typeof unmarshall>[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page: { Items: Item[]; LastEvaluatedKey?: Item } = await callDynamo('Query', {
      TableName: tableName,
      IndexName: 'byAccount',
      KeyConditionExpression:
        prefix === undefined ? 'accountId = :a' : 'accountId = :a AND begins_with(keyId, :p)',
      ExpressionAttributeValues: marshall({
        ':a': partition,
        ...(prefix === undefined ? {} : { ':p': prefix }),
      }),
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    items.push(...page.Items);
    start = page.LastEvaluatedKey;
  } while (start);
  return items.map((item) => unmarshall(item));
}

export class DynamoKeyAdministration implements KeyAdministration {
  constructor(private readonly tableName: string) {}

  private auditPut(audit: KeyAuditRecord) {
    return auditPut(this.tableName, audit);
  }

  private async write(items: Record<string, unknown>[]): Promise<'done' | 'not-active'> {
    try {
      await callDynamo('TransactWriteItems', { TransactItems: items });
      return 'done';
    } catch (error) {
      if (error instanceof DynamoCallError && error.name === 'TransactionCanceledException')
        return 'not-active';
      throw error;
    }
  }

  /** The key item's `pk`, if the account has this key. */
  private async keyItem(
    accountId: string,
    keyId: string,
  ): Promise<{ pk: Item['pk']; record: ApiKeyRecord } | undefined> {
    const { Items } = await callDynamo<{ Items: Item[] }>('Query', {
      TableName: this.tableName,
      IndexName: 'byAccount',
      KeyConditionExpression: 'accountId = :a AND keyId = :k',
      ExpressionAttributeValues: marshall({ ':a': accountId, ':k': keyId }),
    });
    const item = Items[0];
    if (!item?.pk) return undefined;
    const { pk: _pk, ...record } = unmarshall(item) as ApiKeyRecord & { pk: string };
    return { pk: item.pk, record };
  }

  async create(hash: string, record: ApiKeyRecord, audit: KeyAuditRecord): Promise<void> {
    const result = await this.write([
      {
        Put: {
          TableName: this.tableName,
          Item: marshall({ pk: keyPk(hash), ...record }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      this.auditPut(audit),
    ]);
    if (result !== 'done') throw new Error('a key with this secret exists already');
  }

  async revoke(accountId: string, keyId: string, at: Date, audit: KeyAuditRecord): Promise<KeyChangeResult> {
    const key = await this.keyItem(accountId, keyId);
    if (!key) return 'no-such-key';
    return this.write([
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: key.pk },
          UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: marshall({
            ':revoked': 'revoked',
            ':active': 'active',
            ':at': at.toISOString(),
          }),
        },
      },
      this.auditPut(audit),
    ]);
  }

  async createForRequest(input: KeyCreationRequest): Promise<KeyCreation> {
    const { record, now } = input;
    const pk = creationsPk(record.accountId, record.environment);
    for (let attempt = 0; attempt < CREATION_TRIES; attempt++) {
      const { Item } = await callDynamo<{ Item?: Item }>('GetItem', {
        TableName: this.tableName,
        Key: { pk: { S: pk } },
        ConsistentRead: true,
      });
      const ledger = Item
        ? (unmarshall(Item) as { version: number; creations: Creation[] })
        : { version: 0, creations: [] };
      const made = ledger.creations.find((creation) => creation.requestHash === input.requestHash);
      if (made) return { outcome: 'duplicate', keyId: made.keyId };
      const listed = (await this.list(record.accountId)).keys.filter(
        (key) => key.environment === record.environment,
      );
      const seen = new Map(listed.map((key) => [key.keyId, key]));
      const usable = new Set(listed.filter((key) => isKeyUsable(key, now)).map((key) => key.keyId));
      // Made here but not in the index yet: usable, as it was made.
      for (const creation of ledger.creations) if (!seen.has(creation.keyId)) usable.add(creation.keyId);
      if (usable.size >= input.limit) return { outcome: 'limit' };
      const creations = [
        ...ledger.creations.filter(
          (creation) =>
            usable.has(creation.keyId) || now.getTime() - Date.parse(creation.at) < CREATION_MEMORY_MS,
        ),
        { keyId: record.keyId, requestHash: input.requestHash, at: now.toISOString() },
      ].slice(-KEPT_CREATIONS);
      try {
        await callDynamo('TransactWriteItems', {
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: marshall({ pk: keyPk(input.hash), ...record }),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            this.auditPut(input.audit),
            {
              Put: {
                TableName: this.tableName,
                Item: marshall({ pk, version: ledger.version + 1, creations }),
                ConditionExpression: Item ? 'version = :seen' : 'attribute_not_exists(pk)',
                ...(Item ? { ExpressionAttributeValues: marshall({ ':seen': ledger.version }) } : {}),
              },
            },
          ],
        });
        return { outcome: 'created' };
      } catch (error) {
        // Another creation moved the version on first, or was writing it at the same moment: read
        // again (it may have been this request's twin). A key or audit item that exists is a fault.
        const reasons = error instanceof DynamoCallError ? (error.CancellationReasons ?? []) : [];
        const raced =
          ['ConditionalCheckFailed', 'TransactionConflict'].includes(reasons[2]?.Code ?? '') &&
          reasons
            .slice(0, 2)
            .every((reason) => ['None', 'TransactionConflict', undefined].includes(reason.Code));
        if (!raced) throw error;
      }
    }
    return { outcome: 'contended' };
  }

  async relabel(
    accountId: string,
    keyId: string,
    label: string | null,
    audit: KeyAuditRecord,
  ): Promise<KeyChangeResult> {
    const key = await this.keyItem(accountId, keyId);
    if (!key) return 'no-such-key';
    const result = await this.write([
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: key.pk },
          ...(label === null
            ? { UpdateExpression: 'REMOVE label' }
            : {
                UpdateExpression: 'SET label = :label',
                ExpressionAttributeValues: marshall({ ':label': label }),
              }),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      this.auditPut(audit),
    ]);
    return result === 'done' ? 'done' : 'no-such-key';
  }

  /** The hash a key is stored by (its item's key), for a console link an operator makes for it. */
  async hashOf(accountId: string, keyId: string): Promise<string | undefined> {
    const pk = (await this.keyItem(accountId, keyId))?.pk.S;
    return pk?.startsWith(KEYS_TABLE_ITEMS.key) ? pk.slice(KEYS_TABLE_ITEMS.key.length) : undefined;
  }

  /** The old key as stored, for a rotation to compute its new expiry from. */
  async find(accountId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
    return (await this.keyItem(accountId, keyId))?.record;
  }

  /**
   * A new key, and the old one expiring at `oldExpiresAt`, together: either both happen or neither
   * (the old key must still be active, with the expiry it was read with).
   */
  async rotate(input: {
    old: ApiKeyRecord;
    oldExpiresAt: Date;
    newHash: string;
    newRecord: ApiKeyRecord;
    audit: KeyAuditRecord;
  }): Promise<KeyChangeResult> {
    const key = await this.keyItem(input.old.accountId, input.old.keyId);
    if (!key) return 'no-such-key';
    return this.write([
      {
        Put: {
          TableName: this.tableName,
          Item: marshall({ pk: keyPk(input.newHash), ...input.newRecord }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: key.pk },
          UpdateExpression: 'SET expiresAt = :expires',
          ConditionExpression:
            input.old.expiresAt === null
              ? '#status = :active AND (attribute_not_exists(expiresAt) OR attribute_type(expiresAt, :null))'
              : '#status = :active AND expiresAt = :was',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: marshall({
            ':expires': input.oldExpiresAt.toISOString(),
            ':active': 'active',
            ...(input.old.expiresAt === null ? { ':null': 'NULL' } : { ':was': input.old.expiresAt }),
          }),
        },
      },
      this.auditPut(input.audit),
    ]);
  }

  /** The account's keys and its audit records, oldest first. */
  async list(accountId: string): Promise<{ keys: ApiKeyRecord[]; audit: KeyAuditRecord[] }> {
    const query = (prefix: string) => queryByAccount(this.tableName, accountId, prefix);
    const [keys, audit] = await Promise.all([query(KEY_ID_PREFIX), query(AUDIT_ID_PREFIX)]);
    return {
      keys: keys.map(({ pk: _pk, ...record }) => record as ApiKeyRecord),
      audit: audit.map(({ keyId, subjectKeyId, pk: _pk, ...rest }) => ({
        ...(rest as Omit<KeyAuditRecord, 'auditId' | 'keyId'>),
        auditId: keyId as string,
        keyId: subjectKeyId as string,
      })),
    };
  }
}
