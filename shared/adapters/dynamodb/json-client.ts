import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import aws4 from 'aws4';
import { type ClassifyFailure, timeDependencyCall } from '../../kernel/dependency-calls.ts';
import { StoreUnavailable } from '../../kernel/store-unavailable.ts';

/**
 * DynamoDB's JSON protocol over a kept-alive connection, signed with aws4: what every request
 * pays for authentication and limits (three calls), so it must be cheap. Through the SDK each
 * call cost about 0.4 ms of CPU on the benchmark machine, and the SDK is most of a small
 * function's bundle; this costs about 0.1 ms and a few kilobytes. Every store uses it
 * (document.ts), and so do Powertools idempotency's records (idempotency.ts).
 */

export type Item = Record<string, AttributeValue>;

export type Operation =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Query'
  | 'TransactWriteItems'
  | 'BatchGetItem'
  | 'BatchWriteItem';

/** A refusal from DynamoDB; `name` is its error type, e.g. `ConditionalCheckFailedException`. */
export class DynamoCallError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly statusCode: number,
    /** The item as it was, when the call asked for it with `ReturnValuesOnConditionCheckFailure`. */
    readonly item?: Item,
    /** A cancelled transaction: why each of its items was refused, in order (as the SDK names it). */
    readonly CancellationReasons?: { Code?: string; Message?: string }[],
  ) {
    super(message);
  }
}

const MAX_ATTEMPTS = 3;
const TIMEOUT_MS = 3_000;
const RETRYABLE_TYPES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
]);

interface Endpoint {
  secure: boolean;
  hostname: string;
  port: number;
  host: string;
  region: string;
  agent: HttpAgent;
}

let endpoint: Endpoint | undefined;

function resolveEndpoint(): Endpoint {
  const region = process.env.AWS_REGION ?? 'ap-southeast-2';
  const url = new URL(process.env.DYNAMODB_ENDPOINT ?? `https://dynamodb.${region}.amazonaws.com`);
  const secure = url.protocol === 'https:';
  const agentOptions = { keepAlive: true, maxSockets: 50 };
  return {
    secure,
    hostname: url.hostname,
    port: Number(url.port) || (secure ? 443 : 80),
    host: url.host,
    region,
    agent: secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions),
  };
}

type Credentials = Awaited<ReturnType<ReturnType<typeof defaultProvider>>>;

const LOCAL_CREDENTIALS: Credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let credentialChain: (() => Promise<Credentials>) | undefined;

/**
 * The SDK's own credential chain, so the key admin command works with a profile or SSO as the
 * SDK clients do. Lambda bundles alias it to the environment reader (lib/bundling.ts). DynamoDB
 * Local accepts any credentials, so the local stack needs none.
 */
function credentials(): Promise<Credentials> {
  if (process.env.DYNAMODB_ENDPOINT && !process.env.AWS_ACCESS_KEY_ID) {
    return Promise.resolve(LOCAL_CREDENTIALS);
  }
  credentialChain ??= defaultProvider();
  return credentialChain();
}

interface RawAnswer {
  statusCode: number;
  body: string;
}

async function post(target: Endpoint, operation: Operation, body: string): Promise<RawAnswer> {
  const signed = aws4.sign(
    {
      host: target.host,
      path: '/',
      method: 'POST',
      service: 'dynamodb',
      region: target.region,
      body,
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
      },
    },
    await credentials(),
  );
  const send = target.secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      {
        hostname: target.hostname,
        port: target.port,
        method: 'POST',
        path: '/',
        headers: signed.headers as Record<string, string>,
        agent: target.agent,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body: text }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`DynamoDB ${operation} timed out`)));
    request.on('error', reject);
    request.end(body);
  });
}

function refusal(answer: RawAnswer): DynamoCallError {
  let parsed: {
    __type?: string;
    message?: string;
    Message?: string;
    Item?: Item;
    CancellationReasons?: { Code?: string; Message?: string }[];
  } = {};
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    // Not JSON (a proxy's error page): keep the status alone.
  }
  const name = parsed.__type?.split('#').pop() ?? `HTTP${answer.statusCode}`;
  const message = parsed.message ?? parsed.Message ?? `DynamoDB answered ${answer.statusCode}`;
  return new DynamoCallError(name, message, answer.statusCode, parsed.Item, parsed.CancellationReasons);
}

const isRetryable = (error: unknown): boolean =>
  error instanceof DynamoCallError ? error.statusCode >= 500 || RETRYABLE_TYPES.has(error.name) : true; // a socket or timeout failure: the connection may have been closed under us

const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));

async function callWithRetries<T>(operation: Operation, input: object): Promise<T> {
  endpoint ??= resolveEndpoint();
  const body = JSON.stringify(input);
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await post(endpoint, operation, body);
      if (answer.statusCode === 200) return JSON.parse(answer.body) as T;
      throw refusal(answer);
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new StoreUnavailable(operation, error);
      await backoff(attempt);
    }
  }
}

/** Sees every call this process makes (the benchmark and tests count them); never Lambda code. */
export type DynamoCallObserver = (operation: Operation, input: Record<string, unknown>) => void;
const observers: DynamoCallObserver[] = [];

/** Adds an observer of every call; returns what removes it. */
export function observeDynamoCalls(observer: DynamoCallObserver): () => void {
  observers.push(observer);
  return () => {
    const index = observers.indexOf(observer);
    if (index >= 0) observers.splice(index, 1);
  };
}

/** One DynamoDB call in the low-level JSON shape (attribute values typed: `{ S: 'x' }`). */
export async function callDynamo<T = Record<string, unknown>>(
  operation: Operation,
  /** `TableName` for single-table operations (transactions and batches name theirs inside). */
  input: { TableName?: string } & Record<string, unknown>,
): Promise<T> {
  for (const observer of observers) observer(operation, input);
  return timeDependencyCall('DynamoDB', operation, () => callWithRetries<T>(operation, input), classify);
}

/** A condition not met is an answer the caller asked for (a race lost, a record already there). */
const conditionNotMet = (error: DynamoCallError) =>
  error.name === 'ConditionalCheckFailedException' ||
  (error.name === 'TransactionCanceledException' &&
    (error.CancellationReasons ?? []).every(
      (reason) =>
        reason.Code === undefined || reason.Code === 'None' || reason.Code === 'ConditionalCheckFailed',
    ));

const classify: ClassifyFailure = (error) => {
  if (error instanceof DynamoCallError) {
    return { outcome: conditionNotMet(error) ? 'rejected' : 'failed', errorName: error.name };
  }
  if (error instanceof StoreUnavailable) {
    const cause = error.cause as { name?: string; code?: string } | undefined;
    return { outcome: 'failed', errorName: error.name, errorCode: cause?.code ?? cause?.name };
  }
  return { outcome: 'failed', errorName: (error as Error | undefined)?.name ?? 'Error' };
};
