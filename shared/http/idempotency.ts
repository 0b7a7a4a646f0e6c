/**
 * `Idempotency-Key` on purchase routes, with Powertools idempotency and its DynamoDB
 * persistence layer: the first request with a key runs and its response is kept 24 hours; the
 * same key with the same request gets that response again without running; a different
 * request gets 409 `idempotency_conflict`, and so does a duplicate that arrives while the first
 * is still running (it never runs twice). A failed run keeps nothing, so it can be retried.
 */
import { createHash } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { dynamoClient } from '../adapters/dynamodb/client.ts';
import { ApiError } from '../errors/api-error.ts';

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
const MAX_KEY_LENGTH = 255;

export interface IdempotentCall<T> {
  /** Who and where: account, environment, route and path, so keys never collide across them. */
  scope: string;
  key: string | undefined;
  /** What must match for a replay: the path and the parsed body. */
  request: unknown;
  context: Context;
  run: () => Promise<T>;
}

let persistence: DynamoDBPersistenceLayer | undefined;
const config = new IdempotencyConfig({
  eventKeyJmesPath: 'key',
  payloadValidationJmesPath: 'request',
  expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
});

function store(): DynamoDBPersistenceLayer {
  const tableName = process.env.IDEMPOTENCY_TABLE;
  if (!tableName) throw new Error('environment variable IDEMPOTENCY_TABLE is not set');
  persistence ??= new DynamoDBPersistenceLayer({ tableName, awsSdkV3Client: dynamoClient() });
  return persistence;
}

/** Names one purchase across its retries: the key, who sent it, where, and what they asked. */
export const recoveryKeyFor = (scope: string, key: string, request: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([scope, key, request]))
    .digest('hex');

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError('validation_error', {
      param: 'Idempotency-Key',
      message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters without spaces.`,
    });
  }
  return key;
}

/** Runs `call.run` at most once per key and request within 24 hours. */
export async function runIdempotently<T>(call: IdempotentCall<T>): Promise<T> {
  if (call.key === undefined) return call.run();
  config.registerLambdaContext(call.context);
  const once = makeIdempotent(async (_payload: { key: string; request: unknown }) => call.run(), {
    persistenceStore: store(),
    config,
  });
  try {
    return (await once({ key: `${call.scope}#${call.key}`, request: call.request })) as T;
  } catch (error) {
    if (error instanceof IdempotencyValidationError) {
      throw new ApiError('idempotency_conflict', { param: 'Idempotency-Key' });
    }
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new ApiError('idempotency_conflict', {
        param: 'Idempotency-Key',
        message:
          'A request with this Idempotency-Key is still in progress. Retry after it completes to get its result.',
      });
    }
    // Powertools wraps what the function threw; surface the original (an ApiError, say).
    const cause = (error as { cause?: unknown }).cause;
    throw error instanceof ApiError ? error : cause instanceof ApiError ? cause : error;
  }
}
