/**
 * Powertools idempotency records in DynamoDB over the lean JSON client (json-client.ts), so the
 * purchases and order acceptances carry no SDK DynamoDB client. The items, the conditions and the
 * expiry are those of Powertools' own `DynamoDBPersistenceLayer` with its default attribute names
 * (`id`, `status`, `expiration`, `in_progress_expiration`, `data`, `validation`): records written
 * by either layer are read by the other. Powertools' base class keeps the logic (hashing, payload
 * validation, in-progress and expiry checks); this class only stores.
 */
import {
  PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS as ATTRIBUTES,
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
} from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { marshall, type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import { callDynamo, DynamoCallError, type Item } from './json-client.ts';

const KEY_ATTRIBUTE = 'id';

const toItem = (values: Record<string, NativeAttributeValue>): Item =>
  marshall(values, { removeUndefinedValues: true });

export class JsonDynamoPersistenceLayer extends BasePersistenceLayer {
  constructor(private readonly tableName: string) {
    super();
  }

  private key(idempotencyKey: string): Item {
    return toItem({ [KEY_ATTRIBUTE]: idempotencyKey });
  }

  private recordOf(item: Item): IdempotencyRecord {
    const values = unmarshall(item);
    return new IdempotencyRecord({
      idempotencyKey: values[KEY_ATTRIBUTE],
      status: values[ATTRIBUTES.statusAttr],
      expiryTimestamp: values[ATTRIBUTES.expiryAttr],
      inProgressExpiryTimestamp: values[ATTRIBUTES.inProgressExpiryAttr],
      responseData: values[ATTRIBUTES.dataAttr],
      payloadHash: values[ATTRIBUTES.validationKeyAttr],
    });
  }

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { Item: item } = await callDynamo<{ Item?: Item }>('GetItem', {
      TableName: this.tableName,
      Key: this.key(idempotencyKey),
      ConsistentRead: true,
    });
    if (!item) throw new IdempotencyItemNotFoundError();
    return this.recordOf(item);
  }

  /**
   * Writes the in-progress record if the key is new, its record has expired, or it is still in
   * progress past its in-progress expiry (the invocation that wrote it timed out). Otherwise
   * Powertools is told the record exists, with the record, and decides (replay, conflict, wait).
   */
  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const item = toItem({
      [KEY_ATTRIBUTE]: record.idempotencyKey,
      [ATTRIBUTES.expiryAttr]: record.expiryTimestamp,
      [ATTRIBUTES.statusAttr]: record.getStatus(),
      [ATTRIBUTES.inProgressExpiryAttr]: record.inProgressExpiryTimestamp,
      [ATTRIBUTES.validationKeyAttr]: this.isPayloadValidationEnabled() ? record.payloadHash : undefined,
    });
    const now = Date.now();
    try {
      await callDynamo('PutItem', {
        TableName: this.tableName,
        Item: item,
        ConditionExpression:
          'attribute_not_exists(#id) OR #expiry < :now OR ' +
          '(#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
        ExpressionAttributeNames: {
          '#id': KEY_ATTRIBUTE,
          '#expiry': ATTRIBUTES.expiryAttr,
          '#in_progress_expiry': ATTRIBUTES.inProgressExpiryAttr,
          '#status': ATTRIBUTES.statusAttr,
        },
        ExpressionAttributeValues: toItem({
          ':now': now / 1000,
          ':now_in_millis': now,
          ':inprogress': IdempotencyRecordStatus.INPROGRESS,
        }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      });
    } catch (error) {
      if (error instanceof DynamoCallError && error.name === 'ConditionalCheckFailedException') {
        throw new IdempotencyItemAlreadyExistsError(
          `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
          error.item && this.recordOf(error.item),
        );
      }
      throw error;
    }
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const names: Record<string, string> = {
      '#expiry': ATTRIBUTES.expiryAttr,
      '#status': ATTRIBUTES.statusAttr,
    };
    const values: Record<string, NativeAttributeValue> = {
      ':expiry': record.expiryTimestamp,
      ':status': record.getStatus(),
    };
    const sets = ['#expiry = :expiry', '#status = :status'];
    if (record.responseData !== undefined) {
      sets.push('#response_data = :response_data');
      names['#response_data'] = ATTRIBUTES.dataAttr;
      values[':response_data'] = record.responseData;
    }
    if (this.isPayloadValidationEnabled()) {
      sets.push('#validation_key = :validation_key');
      names['#validation_key'] = ATTRIBUTES.validationKeyAttr;
      values[':validation_key'] = record.payloadHash;
    }
    await callDynamo('UpdateItem', {
      TableName: this.tableName,
      Key: this.key(record.idempotencyKey),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: toItem(values),
    });
  }

  /**
   * Moves the in-progress expiry of the record of `payload` to `untilMs` while it is still in
   * progress: the lease a running request renews (adapters/dynamodb/idempotency.ts). False when
   * the record is no longer in progress (finished, deleted, or never written).
   */
  async renewInProgress(
    payload: Parameters<BasePersistenceLayer['getRecord']>[0],
    untilMs: number,
  ): Promise<boolean> {
    try {
      await callDynamo('UpdateItem', {
        TableName: this.tableName,
        Key: this.key(this.getHashedIdempotencyKey(payload)),
        UpdateExpression: 'SET #in_progress_expiry = :until',
        ConditionExpression: '#status = :inprogress',
        ExpressionAttributeNames: {
          '#in_progress_expiry': ATTRIBUTES.inProgressExpiryAttr,
          '#status': ATTRIBUTES.statusAttr,
        },
        ExpressionAttributeValues: toItem({
          ':until': untilMs,
          ':inprogress': IdempotencyRecordStatus.INPROGRESS,
        }),
      });
      return true;
    } catch (error) {
      if (error instanceof DynamoCallError && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    await callDynamo('DeleteItem', { TableName: this.tableName, Key: this.key(record.idempotencyKey) });
  }
}
