import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { ApiKeyRecord } from '../../kernel/api-keys.ts';
import { KEYS_TABLE_ITEMS } from '../../kernel/infra/tables.ts';
import type { ApiKeyRepository } from '../../kernel/ports/api-keys.ts';
import type { ConsoleMemberRecord, ConsoleSessionRecord } from '../../kernel/sessions.ts';
import { callDynamo, DynamoCallError, type Item } from './json-client.ts';

export const keyPk = (hash: string) => `${KEYS_TABLE_ITEMS.key}${hash}`;
/** Console sessions, by their token's hash (shared/console/adapters/dynamodb-sessions.ts writes them). */
export const sessionPk = (tokenHash: string) => `${KEYS_TABLE_ITEMS.session}${tokenHash}`;
/** Console members, by account and id (shared/console/adapters/dynamodb-members.ts writes them). */
export const memberPk = (accountId: string, memberId: string) =>
  `${KEYS_TABLE_ITEMS.member}${accountId}#${memberId}`;
/** Key ids start with it; the index also lists the account's audit records (key-admin.ts), which do not. */
export const KEY_ID_PREFIX = 'key_';

type KeyItem = ApiKeyRecord & { pk: string };

const toRecord = (item: Item): ApiKeyRecord => {
  const { pk: _pk, ...record } = unmarshall(item) as KeyItem;
  return record;
};

/**
 * Keys are read on every request, so this goes through the lean JSON client (json-client.ts). The
 * read is strongly consistent: a key revoked or expired by `npm run keys` is refused from the very
 * next request, not after DynamoDB's replicas catch up.
 */
export class DynamoApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly tableName: string) {}

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await callDynamo<{ Item?: Item }>('GetItem', {
      TableName: this.tableName,
      Key: { pk: { S: keyPk(hash) } },
      ConsistentRead: true,
    });
    return Item ? toRecord(Item) : undefined;
  }

  async recordUse(hash: string, hour: string): Promise<void> {
    try {
      await callDynamo('UpdateItem', {
        TableName: this.tableName,
        Key: { pk: { S: keyPk(hash) } },
        UpdateExpression: 'SET lastUsedHour = :h',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastUsedHour) OR lastUsedHour < :h)',
        ExpressionAttributeValues: { ':h': { S: hour } },
      });
    } catch (error) {
      // Another request of the same hour recorded it first.
      if (error instanceof DynamoCallError && error.name === 'ConditionalCheckFailedException') return;
      throw error;
    }
  }

  async findSession(tokenHash: string): Promise<ConsoleSessionRecord | undefined> {
    const { Item } = await callDynamo<{ Item?: Item }>('GetItem', {
      TableName: this.tableName,
      Key: { pk: { S: sessionPk(tokenHash) } },
      ConsistentRead: true,
    });
    // The record is nested, so that its accountId and keyId stay out of the byAccount index.
    const session = Item ? (unmarshall(Item) as { session?: ConsoleSessionRecord }).session : undefined;
    return session;
  }

  async findMember(accountId: string, memberId: string): Promise<ConsoleMemberRecord | undefined> {
    const { Item } = await callDynamo<{ Item?: Item }>('GetItem', {
      TableName: this.tableName,
      Key: { pk: { S: memberPk(accountId, memberId) } },
      ConsistentRead: true,
    });
    return Item ? (unmarshall(Item) as { member?: ConsoleMemberRecord }).member : undefined;
  }

  async create(hash: string, record: ApiKeyRecord): Promise<void> {
    await callDynamo('PutItem', {
      TableName: this.tableName,
      Item: marshall({ pk: keyPk(hash), ...record }, { removeUndefinedValues: true }),
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  }

  async revoke(keyId: string, accountId: string, at: Date): Promise<boolean> {
    const { Items } = await this.query('accountId = :a AND keyId = :k', { ':a': accountId, ':k': keyId });
    const pk = Items[0]?.pk;
    if (!pk) return false;
    await callDynamo('UpdateItem', {
      TableName: this.tableName,
      Key: { pk },
      UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: marshall({ ':revoked': 'revoked', ':at': at.toISOString() }),
    });
    return true;
  }

  async listByAccount(accountId: string): Promise<ApiKeyRecord[]> {
    const { Items } = await this.query('accountId = :a AND begins_with(keyId, :p)', {
      ':a': accountId,
      ':p': KEY_ID_PREFIX,
    });
    return Items.map(toRecord);
  }

  private query(condition: string, values: Record<string, string>) {
    return callDynamo<{ Items: Item[] }>('Query', {
      TableName: this.tableName,
      IndexName: 'byAccount',
      KeyConditionExpression: condition,
      ExpressionAttributeValues: marshall(values),
    });
  }
}
