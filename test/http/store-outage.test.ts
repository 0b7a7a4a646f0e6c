/**
 * An unreachable database answers 503 `service_unavailable` with Retry-After, never a 500, and
 * the message says whether the outcome is known. Driven in process with API Gateway proxy events
 * for routes only this test defines (authentication and limits against DynamoDB Local); the
 * failures are the ones the stores raise: the lean client's StoreUnavailable after its three
 * attempts, and the SDK client's connection error as Powertools idempotency wraps it.
 */

import { IdempotencyPersistenceLayerError } from '@aws-lambda-powertools/idempotency';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { defineRoute } from '../../shared/kernel/http/route.ts';
import { noPath, noQuery } from '../../shared/kernel/http/schemas.ts';
import { StoreUnavailable } from '../../shared/kernel/store-unavailable.ts';
import { createKey, type TestKey } from '../support/api.ts';
import { memoryIdempotency, openSpendGuard } from '../support/fakes.ts';
import { testPorts } from '../support/ports.ts';
import { bearer, proxyEvent } from '../support/proxy-event.ts';

const outageRoute = (purchase: boolean) =>
  defineRoute({
    name: purchase ? 'OutagePurchaseForTest' : 'OutageReadForTest',
    method: purchase ? 'POST' : 'GET',
    path: '/v1/test/outage',
    handler: 'unused',
    summary: 'test only',
    request: purchase
      ? { path: noPath, query: noQuery, body: z.object({}) }
      : { path: noPath, query: noQuery },
    response: z.object({ object: z.literal('outage') }),
    status: 200,
    billable: purchase,
    product: purchase ? 'test' : null,
    idempotent: purchase,
    ports: purchase ? ['idempotency', 'registryFor'] : [],
    errors: [],
  });

/** What the SDK client raises when nothing listens at the database's address. */
const sdkConnectionError = () =>
  new DynamoDBClient({
    endpoint: 'http://127.0.0.1:9',
    region: 'ap-southeast-2',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  })
    .send(new GetItemCommand({ TableName: 'idempotency', Key: { id: { S: 'x' } } }))
    .then(
      () => new Error('the closed port answered'),
      (error: unknown) => error,
    );

const failing = (purchase: boolean, failure: () => Promise<unknown>) =>
  createHttpHandler(
    outageRoute(purchase),
    { ...testPorts, idempotency: memoryIdempotency(), spendGuard: openSpendGuard },
    async () => {
      throw await failure();
    },
  );

const event = (secret: string, method: string) =>
  proxyEvent({
    method,
    path: '/v1/test/outage',
    headers: {
      ...bearer(secret),
      ...(method === 'POST'
        ? { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() }
        : {}),
    },
    body: method === 'POST' ? '{}' : null,
  });

const context = {
  functionName: 'OutageForTest',
  awsRequestId: 'test',
  getRemainingTimeInMillis: () => 29_000,
} as unknown as Context;

interface Envelope {
  error: { type: string; code: string; message: string; param: string | null; registryCode: string | null };
}

describe('a database that cannot be reached', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await createKey('test');
  });

  const failures: [string, () => Promise<unknown>][] = [
    [
      'the lean client gave up',
      async () => new StoreUnavailable('GetItem', new Error('DynamoDB GetItem timed out')),
    ],
    [
      'the SDK client could not connect (inside Powertools idempotency)',
      async () =>
        new IdempotencyPersistenceLayerError('Failed to get record from idempotency store', {
          cause: await sdkConnectionError(),
        }),
    ],
  ];

  it.each(failures)(
    'a read: 503 service_unavailable with Retry-After, nothing changed (%s)',
    async (_, failure) => {
      const result = await failing(false, failure)(event(key.secret, 'GET'), context);
      expect(result.statusCode, result.body).toBe(503);
      expect(result.headers?.['Retry-After']).toBe('5');
      const { error } = JSON.parse(result.body) as Envelope;
      expect(error).toMatchObject({
        type: 'registry_unavailable_error',
        code: 'service_unavailable',
        param: null,
        registryCode: null,
      });
      expect(error.message).toMatch(/could not reach its database.*Nothing was changed/);
    },
  );

  it('a purchase whose idempotency record could not be written: 503, nothing changed', async () => {
    const handler = createHttpHandler(
      outageRoute(true),
      {
        ...testPorts,
        spendGuard: openSpendGuard,
        idempotency: async () => {
          throw new IdempotencyPersistenceLayerError(
            'Failed to put record for already existing idempotency key',
            {
              cause: await sdkConnectionError(),
            },
          );
        },
      },
      async () => ({ body: { object: 'outage' } }),
    );
    const result = await handler(event(key.secret, 'POST'), context);
    expect(result.statusCode, result.body).toBe(503);
    expect(result.headers?.['Retry-After']).toBe('5');
    expect((JSON.parse(result.body) as Envelope).error.message).toMatch(/Nothing was changed or charged/);
  });

  it.each(failures)(
    'a purchase: 503 service_unavailable with Retry-After, its outcome not known yet (%s)',
    async (_, failure) => {
      const result = await failing(true, failure)(event(key.secret, 'POST'), context);
      expect(result.statusCode, result.body).toBe(503);
      expect(result.headers?.['Retry-After']).toBe('5');
      const { error } = JSON.parse(result.body) as Envelope;
      expect(error).toMatchObject({
        type: 'registry_unavailable_error',
        code: 'service_unavailable',
        param: null,
      });
      expect(error.message).toMatch(/whether the purchase was made is not known yet.*same Idempotency-Key/);
    },
  );
});
