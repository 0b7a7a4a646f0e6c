import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { callDynamo, DynamoCallError } from '../../shared/adapters/dynamodb/json-client.ts';
import { finishDependencyCalls, withDependencyCalls } from '../../shared/kernel/dependency-calls.ts';
import { logger } from '../../shared/kernel/observability.ts';
import { isStoreUnavailable, StoreUnavailable } from '../../shared/kernel/store-unavailable.ts';

/**
 * The request path's DynamoDB client against a fake DynamoDB: what it sends, how it is signed
 * (checked with the SDK's own signer), and which refusals it retries.
 */
interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (response: ServerResponse) => void;

const json =
  (status: number, body: object): Answer =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(JSON.stringify(body));
  };
const cutOff: Answer = (response) => response.socket?.destroy();

let received: Received[] = [];
let answers: Answer[] = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push({ headers: request.headers, body });
    (answers.shift() ?? json(200, {}))(response);
  });
});

const saved = { ...process.env };
let host = '';

beforeAll(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.DYNAMODB_ENDPOINT = `http://${host}`;
  process.env.AWS_REGION = 'ap-southeast-2';
  process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
  process.env.AWS_SESSION_TOKEN = 'session-token';
});

afterAll(async () => {
  process.env = saved;
  await new Promise((done) => server.close(done));
});

beforeEach(() => {
  received = [];
  answers = [];
});

const getItem = () => callDynamo('GetItem', { TableName: 'keys', Key: { pk: { S: 'KEY#abc' } } });

describe('callDynamo', () => {
  it('posts the JSON protocol call and returns the parsed answer', async () => {
    answers = [json(200, { Item: { pk: { S: 'KEY#abc' }, status: { S: 'active' } } })];
    await expect(getItem()).resolves.toEqual({ Item: { pk: { S: 'KEY#abc' }, status: { S: 'active' } } });
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(received[0]?.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ TableName: 'keys', Key: { pk: { S: 'KEY#abc' } } });
  });

  it('signs with the credentials Lambda passes, as the SDK signer would', async () => {
    await getItem();
    const { headers, body } = received[0] as Received;
    expect(headers['x-amz-security-token']).toBe('session-token');
    const authorization = String(headers.authorization);
    expect(authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ap-southeast-2\/dynamodb\/aws4_request, SignedHeaders=/,
    );
    const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
    expect(signedNames).toEqual(
      expect.arrayContaining(['host', 'x-amz-date', 'x-amz-target', 'x-amz-security-token']),
    );
    const amzDate = String(headers['x-amz-date']);
    const signingDate = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    const signer = new SignatureV4({
      credentials: {
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
        sessionToken: 'session-token',
      },
      region: 'ap-southeast-2',
      service: 'dynamodb',
      sha256: Sha256,
      applyChecksum: false,
    });
    const resigned = await signer.sign(
      new HttpRequest({
        method: 'POST',
        protocol: 'http:',
        hostname: '127.0.0.1',
        path: '/',
        headers: Object.fromEntries(
          signedNames
            .filter((name) => name !== 'x-amz-date' && name !== 'x-amz-security-token')
            .map((name) => [name, String(headers[name])]),
        ),
        body,
      }),
      { signingDate },
    );
    expect(resigned.headers.authorization).toBe(authorization);
  });

  it('raises a refusal with its DynamoDB type and the item a failed condition returned', async () => {
    answers = [
      json(400, {
        __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
        message: 'The conditional request failed',
        Item: { pk: { S: 'LIMIT#k' }, win: { N: '60000' } },
      }),
    ];
    const error = await getItem().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DynamoCallError);
    expect(error).toMatchObject({
      name: 'ConditionalCheckFailedException',
      message: 'The conditional request failed',
      statusCode: 400,
      item: { pk: { S: 'LIMIT#k' }, win: { N: '60000' } },
    });
    expect(received).toHaveLength(1);
  });

  it('does not retry a refusal that would be refused again', async () => {
    answers = [json(400, { __type: 'com.amazon.coral.validate#ValidationException', message: 'bad key' })];
    await expect(getItem()).rejects.toMatchObject({ name: 'ValidationException', statusCode: 400 });
    expect(received).toHaveLength(1);
  });

  it('retries throttling, server errors and dropped connections, then succeeds', async () => {
    answers = [
      json(400, { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException' }),
      cutOff,
      json(200, { Item: { pk: { S: 'KEY#abc' } } }),
    ];
    await expect(getItem()).resolves.toEqual({ Item: { pk: { S: 'KEY#abc' } } });
    expect(received).toHaveLength(3);
  });

  it('gives up after three attempts: the store is unavailable, and the last failure is its cause', async () => {
    answers = [json(500, {}), json(503, {}), json(500, { __type: 'InternalServerError' }), json(200, {})];
    const error = await getItem().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect(error).toMatchObject({ name: 'StoreUnavailable', operation: 'GetItem' });
    expect((error as Error).cause).toMatchObject({ name: 'InternalServerError', statusCode: 500 });
    expect(received).toHaveLength(3);
  });

  it('calls an unreachable store unavailable after three dropped connections', async () => {
    answers = [cutOff, cutOff, cutOff];
    const error = await getItem().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(received).toHaveLength(3);
  });
});

describe('callDynamo records each call for the invocation', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('counts a refusal as failed, a condition not met as rejected, and an answer as ok', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const summary = await withDependencyCalls(async () => {
      answers = [
        json(200, {}),
        json(400, { __type: 'com.amazon.coral.validate#ValidationException', message: 'bad key' }),
        json(400, {
          __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
          message: 'no',
        }),
      ];
      await getItem();
      await expect(getItem()).rejects.toThrow('bad key');
      await expect(callDynamo('PutItem', { TableName: 'keys', Item: {} })).rejects.toThrow('no');
      return finishDependencyCalls();
    });
    expect(summary?.DynamoDB?.GetItem).toMatchObject({
      count: 2,
      errors: 1,
      lastError: 'ValidationException',
    });
    expect(summary?.DynamoDB?.PutItem).toMatchObject({
      count: 1,
      errors: 0,
      rejected: 1,
      lastError: 'ConditionalCheckFailedException',
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('dependency call failed', {
      dependency: 'DynamoDB',
      operation: 'GetItem',
      latencyMs: expect.any(Number),
      errorName: 'ValidationException',
    });
  });

  it('names what failed every attempt by the last error', async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const summary = await withDependencyCalls(async () => {
      answers = [cutOff, cutOff, json(503, { __type: 'x#ThrottlingException', message: 'slow down' })];
      await expect(getItem()).rejects.toBeInstanceOf(StoreUnavailable);
      return finishDependencyCalls();
    });
    expect(summary?.DynamoDB?.GetItem).toMatchObject({
      count: 1,
      errors: 1,
      lastError: 'StoreUnavailable (ThrottlingException)',
    });
  });
});
