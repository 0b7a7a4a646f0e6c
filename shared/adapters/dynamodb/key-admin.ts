/**
 * Key administration in the keys table (`npm run keys`): each change and its audit record are
 * written in one transaction, so no change goes unrecorded and no record describes a change that
 * did not happen. Audit records are items of their own (`pk` AUDIT#<id>), listed with the account's
 * keys through the byAccount index, where their `keyId` sort key is the audit id (`audit_…`, while
 * key ids start `key_`); the request path never reads them.
 */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { ApiKeyRecord } from '../../kernel/api-keys.ts';
import { KEYS_TABLE_ITEMS } from '../../kernel/infra/tables.ts';
import type { KeyAdministration, KeyAuditRecord, KeyChangeResult } from '../../kernel/key-admin.ts';
import { KEY_ID_PREFIX, keyPk } from './api-keys.ts';
import { callDynamo, DynamoCallError, type Item } from './json-client.ts';

const AUDIT_ID_PREFIX = 'audit_';

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
    const query = async (prefix: string) => {
      const items: Item[] = [];
      let start: Item | undefined;
      do {
        const page: { Items: Item[]; LastEvaluatedKey?: Item } = await callDynamo('Query', {
          TableName: this.tableName,
          IndexName: 'byAccount',
          KeyConditionExpression: 'accountId = :a AND begins_with(keyId, :p)',
          ExpressionAttributeValues: marshall({ ':a': accountId, ':p': prefix }),
          ...(start ? { ExclusiveStartKey: start } : {}),
        });
        items.push(...page.Items);
        start = page.LastEvaluatedKey;
      } while (start);
      return items.map((item) => unmarshall(item));
    };
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
