import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../../domain/api-keys.ts';
import type { ApiKeyRepository } from '../../ports/api-keys.ts';
import { dynamo } from './client.ts';

const keyPk = (hash: string) => `KEY#${hash}`;

type KeyItem = ApiKeyRecord & { pk: string };

const toRecord = ({ pk: _pk, ...record }: KeyItem): ApiKeyRecord => record;

export class DynamoApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly tableName: string) {}

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: this.tableName, Key: { pk: keyPk(hash) } }),
    );
    return Item ? toRecord(Item as KeyItem) : undefined;
  }

  async create(hash: string, record: ApiKeyRecord): Promise<void> {
    await dynamo().send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: keyPk(hash), ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async revoke(keyId: string, accountId: string, at: Date): Promise<boolean> {
    const { Items } = await dynamo().send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a AND keyId = :k',
        ExpressionAttributeValues: { ':a': accountId, ':k': keyId },
      }),
    );
    const item = Items?.[0] as KeyItem | undefined;
    if (!item) return false;
    await dynamo().send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: item.pk },
        UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':at': at.toISOString() },
      }),
    );
    return true;
  }

  async listByAccount(accountId: string): Promise<ApiKeyRecord[]> {
    const { Items } = await dynamo().send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
      }),
    );
    return (Items ?? []).map((item) => toRecord(item as KeyItem));
  }
}
