import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_SOURCE, EventBridgePublisher } from '../../shared/adapters/aws/eventbridge-publisher.ts';
import { StepFunctionsStarter } from '../../shared/orders/adapters/sfn-starter.ts';
import { SqsFulfilmentQueue } from '../../shared/orders/adapters/sqs-queue.ts';
import { SqsWebhookQueue } from '../../shared/webhooks/adapters/sqs-queue.ts';
import type { ServiceEvent } from '../../shared/webhooks/event-port.ts';
import type { WebhookMessage } from '../../shared/webhooks/store-port.ts';

/**
 * EventBridge, SQS and Step Functions over their JSON APIs (json-call.ts) against a fake
 * endpoint: the target and body each call sends, its signature, and what the adapters make of
 * refusals, as the SDK clients they replace would answer them.
 */
interface Received {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

type Answer = (response: ServerResponse) => void;

const json =
  (status: number, body: object): Answer =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(JSON.stringify(body));
  };

let received: Received[] = [];
let answers: Answer[] = [];
const server = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk) => {
    text += chunk;
  });
  request.on('end', () => {
    received.push({ headers: request.headers, body: JSON.parse(text) });
    (answers.shift() ?? json(200, {}))(response);
  });
});

const saved = { ...process.env };

beforeAll(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_ENDPOINT_URL_EVENTBRIDGE = endpoint;
  process.env.AWS_ENDPOINT_URL_SQS = endpoint;
  process.env.AWS_ENDPOINT_URL_SFN = endpoint;
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

/** The call's target, content type and signature (service and region in the credential scope). */
function expectCall(request: Received | undefined, target: string, contentType: string, service: string) {
  expect(request?.headers['x-amz-target']).toBe(target);
  expect(request?.headers['content-type']).toBe(contentType);
  expect(String(request?.headers.authorization)).toMatch(
    new RegExp(`^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\\d{8}/ap-southeast-2/${service}/aws4_request, `),
  );
  expect(request?.headers['x-amz-security-token']).toBe('session-token');
}

describe('EventBridgePublisher', () => {
  const publisher = new EventBridgePublisher('company-register-dev');
  const event: ServiceEvent = {
    id: 'evt_1',
    type: 'order.ready',
    createdAt: '2025-03-04T05:06:07.000Z',
    livemode: false,
    accountId: 'acct_1',
    data: { object: 'order', id: 'ord_1', status: 'ready' },
  };

  it('puts one entry: source company-register, detail-type the event type, detail the event', async () => {
    answers.push(json(200, { FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] }));
    await publisher.publish(event);
    expect(received).toHaveLength(1);
    expectCall(received[0], 'AWSEvents.PutEvents', 'application/x-amz-json-1.1', 'events');
    const entries = received[0]?.body.Entries as Record<string, unknown>[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toEqual({
      EventBusName: 'company-register-dev',
      Source: 'company-register',
      DetailType: 'order.ready',
      Detail: JSON.stringify(event),
      Time: Date.parse(event.createdAt) / 1000,
    });
    expect(EVENT_SOURCE).toBe('company-register');
  });

  it('throws when the entry was refused (PutEvents still answers 200)', async () => {
    answers.push(
      json(200, {
        FailedEntryCount: 1,
        Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }],
      }),
    );
    await expect(publisher.publish(event)).rejects.toThrow(/evt_1.*InternalFailure try again/);
  });

  it('throws what EventBridge refuses, named by its error type, without retrying a client error', async () => {
    answers.push(
      json(400, {
        __type: 'ResourceNotFoundException',
        message: 'Event bus company-register-dev does not exist.',
      }),
    );
    await expect(publisher.publish(event)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      statusCode: 400,
      message: 'Event bus company-register-dev does not exist.',
    });
    expect(received).toHaveLength(1);
  });

  it('retries a throttled or failed call, as the SDK does', async () => {
    answers.push(json(400, { __type: 'ThrottlingException', message: 'Rate exceeded' }));
    answers.push(json(500, { __type: 'InternalException', message: 'oops' }));
    answers.push(json(200, { FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] }));
    await publisher.publish(event);
    expect(received).toHaveLength(3);
  });
});

describe('SqsFulfilmentQueue', () => {
  const queueUrl = 'https://sqs.ap-southeast-2.amazonaws.com/123456789012/fulfilment';

  it('sends the message as the JSON body', async () => {
    answers.push(json(200, { MessageId: 'm-1', MD5OfMessageBody: 'x' }));
    await new SqsFulfilmentQueue(queueUrl).send({ kind: 'order', id: 'ord_1', attempt: 0 });
    expect(received).toHaveLength(1);
    expectCall(received[0], 'AmazonSQS.SendMessage', 'application/x-amz-json-1.0', 'sqs');
    expect(received[0]?.body).toEqual({
      QueueUrl: queueUrl,
      MessageBody: '{"kind":"order","id":"ord_1","attempt":0}',
    });
  });

  it('throws what SQS refuses, named by its error type', async () => {
    answers.push(
      json(400, {
        __type: 'com.amazonaws.sqs#QueueDoesNotExist',
        message: 'The specified queue does not exist.',
      }),
    );
    await expect(
      new SqsFulfilmentQueue(queueUrl).send({ kind: 'order', id: 'ord_1', attempt: 0 }),
    ).rejects.toMatchObject({ name: 'QueueDoesNotExist', statusCode: 400 });
  });
});

describe('SqsWebhookQueue', () => {
  const queueUrl = 'https://sqs.ap-southeast-2.amazonaws.com/123456789012/webhooks';
  const messages = Array.from(
    { length: 12 },
    (_, index) => ({ deliveryId: `dlv_${index}` }) as unknown as WebhookMessage,
  );

  it('sends ten messages per SendMessageBatch', async () => {
    await new SqsWebhookQueue(queueUrl).send(messages);
    expect(received).toHaveLength(2);
    expectCall(received[0], 'AmazonSQS.SendMessageBatch', 'application/x-amz-json-1.0', 'sqs');
    const entries = received.map((request) => request.body.Entries as { Id: string; MessageBody: string }[]);
    expect(entries.map((batch) => batch.length)).toEqual([10, 2]);
    expect(received[1]?.body.QueueUrl).toBe(queueUrl);
    expect(entries[1]).toEqual([
      { Id: '0', MessageBody: '{"deliveryId":"dlv_10"}' },
      { Id: '1', MessageBody: '{"deliveryId":"dlv_11"}' },
    ]);
  });

  it('throws when SQS refuses any message of a batch (it answers 200)', async () => {
    answers.push(
      json(200, { Successful: [], Failed: [{ Id: '0', Code: 'InvalidMessageContents', SenderFault: true }] }),
    );
    await expect(new SqsWebhookQueue(queueUrl).send(messages.slice(0, 1))).rejects.toThrow(
      'SQS refused 1 webhook messages: InvalidMessageContents',
    );
  });
});

describe('StepFunctionsStarter', () => {
  const arn = 'arn:aws:states:ap-southeast-2:123456789012:stateMachine:company-register-dev-fulfilment';
  const starter = new StepFunctionsStarter(arn);
  const input = { kind: 'offline_search', id: 'srch_1', attempt: 1 } as const;

  it('starts an execution with the name and the JSON input', async () => {
    answers.push(json(200, { executionArn: `${arn}:srch_1-1`, startDate: 1_700_000_000 }));
    await starter.start('srch_1-1', input);
    expect(received).toHaveLength(1);
    expectCall(received[0], 'AWSStepFunctions.StartExecution', 'application/x-amz-json-1.0', 'states');
    expect(received[0]?.body).toEqual({
      stateMachineArn: arn,
      name: 'srch_1-1',
      input: JSON.stringify(input),
    });
  });

  it('returns normally when an execution of that name exists (already started)', async () => {
    answers.push(json(400, { __type: 'ExecutionAlreadyExists', message: 'Execution Already Exists' }));
    await expect(starter.start('srch_1-1', input)).resolves.toBeUndefined();
  });

  it('throws any other error', async () => {
    answers.push(json(400, { __type: 'InvalidName', message: 'Invalid Name' }));
    answers.push(json(400, { __type: 'StateMachineDoesNotExist', message: 'State Machine Does Not Exist' }));
    await expect(starter.start('bad name', input)).rejects.toMatchObject({ name: 'InvalidName' });
    await expect(starter.start('srch_1-1', input)).rejects.toMatchObject({
      name: 'StateMachineDoesNotExist',
      message: 'State Machine Does Not Exist',
    });
  });
});
