/**
 * Powertools idempotency records in DynamoDB over the lean JSON client (json-client.ts), so the
 * purchases and order acceptances carry no SDK DynamoDB client. The items, the conditions and the
 * expiry are those of Powertools' own `DynamoDBPersistenceLayer` with its default attribute names
 * (`id`, `status`, `expiration`, `in_progress_expiration`, `validation`), and records written by
 * Powertools' layer are read by this one. Powertools' base class keeps the logic (hashing,
 * payload validation, in-progress and expiry checks); this class only stores.
 *
 * One difference: the kept answer is its JSON text (`data_json`), not a map (`data`), because a
 * DynamoDB map does not keep the order of its keys and a replay must be the same bytes. An answer
 * of any size is kept: over `INLINE_BYTES` its JSON is gzipped (`data_gzip`), and when the gzip
 * is over `INLINE_BYTES` too it is split into part items of the same table
 * (`<key>#part#<generation>#<n>`, each expiring with the record) that the record names with the
 * gzip's SHA-256 (`data_parts`). The parts are written before the record names them, under a
 * generation of their own: a failed part write leaves the record in progress and naming nothing
 * (its lease lapses and a retry runs), never naming parts that are missing; a record whose parts
 * do not add up to their digest is refused, never replayed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS as ATTRIBUTES,
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
} from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import { callDynamo, DynamoCallError, type Item } from './json-client.ts';

const KEY_ATTRIBUTE = 'id';
const JSON_ATTRIBUTE = 'data_json';
const GZIP_ATTRIBUTE = 'data_gzip';
const PARTS_ATTRIBUTE = 'data_parts';
const PART_ATTRIBUTE = 'part';

/** The most JSON text, or gzip of it, kept in the record itself and in each part item (under 400 KB). */
export const INLINE_BYTES = 350_000;

/** Where a large answer's parts are: their generation, how many, and the SHA-256 of the whole gzip. */
interface PartsReference {
  generation: string;
  count: number;
  sha256: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** A binary attribute as DynamoDB's JSON protocol carries it (base64), and back. */
const binary = (bytes: Uint8Array): AttributeValue =>
  ({ B: Buffer.from(bytes).toString('base64') }) as unknown as AttributeValue;
const bytesOf = (value: AttributeValue | undefined): Buffer | undefined =>
  value?.B === undefined ? undefined : Buffer.from(value.B as unknown as string, 'base64');
const partKey = (idempotencyKey: string, generation: string, index: number) =>
  `${idempotencyKey}#part#${generation}#${index}`;

const toItem = (values: Record<string, NativeAttributeValue>): Item =>
  marshall(values, { removeUndefinedValues: true });

export class JsonDynamoPersistenceLayer extends BasePersistenceLayer {
  constructor(private readonly tableName: string) {
    super();
  }

  private key(idempotencyKey: string): Item {
    return toItem({ [KEY_ATTRIBUTE]: idempotencyKey });
  }

  private async recordOf(item: Item): Promise<IdempotencyRecord> {
    const values = unmarshall(item);
    return new IdempotencyRecord({
      idempotencyKey: values[KEY_ATTRIBUTE],
      status: values[ATTRIBUTES.statusAttr],
      expiryTimestamp: values[ATTRIBUTES.expiryAttr],
      inProgressExpiryTimestamp: values[ATTRIBUTES.inProgressExpiryAttr],
      responseData: await this.responseDataOf(item),
      payloadHash: values[ATTRIBUTES.validationKeyAttr],
    });
  }

  /** The kept answer: the map, or the JSON text gzipped in the record or in its parts. */
  private async responseDataOf(item: Item): Promise<IdempotencyRecord['responseData']> {
    const text = item[JSON_ATTRIBUTE]?.S;
    if (text !== undefined) return JSON.parse(text);
    const inline = bytesOf(item[GZIP_ATTRIBUTE]);
    const reference = item[PARTS_ATTRIBUTE];
    // A record Powertools' own layer wrote keeps the answer as a map.
    if (inline === undefined && reference === undefined) return unmarshall(item)[ATTRIBUTES.dataAttr];
    const gzip =
      inline ??
      (await this.readParts(
        item[KEY_ATTRIBUTE]?.S as string,
        unmarshall({ reference } as Item).reference as PartsReference,
      ));
    return JSON.parse(gunzipSync(gzip).toString('utf8'));
  }

  private async readParts(idempotencyKey: string, reference: PartsReference): Promise<Buffer> {
    const parts = await Promise.all(
      Array.from({ length: reference.count }, async (_, index) => {
        const { Item: item } = await callDynamo<{ Item?: Item }>('GetItem', {
          TableName: this.tableName,
          Key: this.key(partKey(idempotencyKey, reference.generation, index)),
          ConsistentRead: true,
        });
        return bytesOf(item?.[PART_ATTRIBUTE]);
      }),
    );
    const gzip = parts.every((part) => part !== undefined) ? Buffer.concat(parts) : undefined;
    if (!gzip || sha256(gzip) !== reference.sha256) {
      throw new Error(`the kept answer of idempotency record ${idempotencyKey} is incomplete; not replayed`);
    }
    return gzip;
  }

  /**
   * What `_updateRecord` sets for an answer: its JSON text (a map would not keep the order of its
   * keys), gzipped when large, in the record or, written first, in parts the record names.
   */
  private async storedAnswer(record: IdempotencyRecord): Promise<[string, AttributeValue]> {
    const json = JSON.stringify(record.responseData);
    if (Buffer.byteLength(json, 'utf8') <= INLINE_BYTES) return [JSON_ATTRIBUTE, { S: json }];
    const gzip = gzipSync(json);
    if (gzip.length <= INLINE_BYTES) return [GZIP_ATTRIBUTE, binary(gzip)];
    const generation = randomBytes(8).toString('hex');
    const count = Math.ceil(gzip.length / INLINE_BYTES);
    await Promise.all(
      Array.from({ length: count }, (_, index) =>
        this.writePart({
          ...toItem({
            [KEY_ATTRIBUTE]: partKey(record.idempotencyKey, generation, index),
            [ATTRIBUTES.expiryAttr]: record.expiryTimestamp,
          }),
          [PART_ATTRIBUTE]: binary(gzip.subarray(index * INLINE_BYTES, (index + 1) * INLINE_BYTES)),
        }),
      ),
    );
    const reference: PartsReference = { generation, count, sha256: sha256(gzip) };
    return [PARTS_ATTRIBUTE, toItem({ reference }).reference as AttributeValue];
  }

  /** One part of a large answer, expiring with its record. */
  protected async writePart(item: Item): Promise<void> {
    await callDynamo('PutItem', { TableName: this.tableName, Item: item });
  }

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { Item: item } = await callDynamo<{ Item?: Item }>('GetItem', {
      TableName: this.tableName,
      Key: this.key(idempotencyKey),
      ConsistentRead: true,
    });
    if (!item) throw new IdempotencyItemNotFoundError();
    return await this.recordOf(item);
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
          error.item && (await this.recordOf(error.item)),
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
    let answer: Item = {};
    if (record.responseData !== undefined) {
      const [attribute, value] = await this.storedAnswer(record);
      sets.push('#response_data = :response_data');
      names['#response_data'] = attribute;
      answer = { ':response_data': value };
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
      ExpressionAttributeValues: { ...toItem(values), ...answer },
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
