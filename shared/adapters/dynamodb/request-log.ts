import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { REQUEST_RECORD_DAYS, type RequestLog, type RequestRecord } from '../../kernel/ports/request-log.ts';
import { callDynamo, type Item } from './json-client.ts';

const DAY_MS = 86_400_000;
export const requestPk = (requestId: string) => `REQUEST#${requestId}`;

/**
 * Request records in the limits table (`REQUEST#<request id>`), expiring by its TTL attribute
 * `expiresAtEpoch` after `REQUEST_RECORD_DAYS`. Each is written once, by the request itself, under
 * its own key: no key is written by more than one request, so there is no hot partition however
 * busy the service is. Every route function already reads and writes this table (its limits).
 */
export class DynamoRequestLog implements RequestLog {
  constructor(private readonly tableName: string) {}

  async record(entry: RequestRecord): Promise<void> {
    const expiresAtEpoch = Math.ceil((Date.parse(entry.receivedAt) + REQUEST_RECORD_DAYS * DAY_MS) / 1000);
    await callDynamo('PutItem', {
      TableName: this.tableName,
      Item: marshall({ pk: requestPk(entry.requestId), ...entry, expiresAtEpoch }),
    });
  }

  async find(requestId: string): Promise<RequestRecord | undefined> {
    const { Item } = await callDynamo<{ Item?: Item }>('GetItem', {
      TableName: this.tableName,
      Key: { pk: { S: requestPk(requestId) } },
    });
    if (!Item) return undefined;
    const {
      pk: _pk,
      expiresAtEpoch,
      ...record
    } = unmarshall(Item) as RequestRecord & {
      pk: string;
      expiresAtEpoch: number;
    };
    // DynamoDB deletes expired items within days, not at once: a record past its time is gone.
    if (expiresAtEpoch * 1000 <= Date.now()) return undefined;
    return record;
  }
}
