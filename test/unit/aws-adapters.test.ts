import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import {
  ExecutionAlreadyExists,
  InvalidName,
  SFNClient,
  StartExecutionCommand,
  StateMachineDoesNotExist,
} from '@aws-sdk/client-sfn';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_SOURCE, EventBridgePublisher } from '../../shared/adapters/aws/eventbridge-publisher.ts';
import { StepFunctionsStarter } from '../../shared/adapters/aws/sfn-starter.ts';
import { SqsFulfilmentQueue } from '../../shared/adapters/aws/sqs-queue.ts';
import type { ServiceEvent } from '../../shared/webhooks/event-port.ts';

const eventBridge = mockClient(EventBridgeClient);
const sqs = mockClient(SQSClient);
const sfn = mockClient(SFNClient);

beforeAll(() => {
  process.env.AWS_REGION ??= 'ap-southeast-2';
});

afterEach(() => {
  eventBridge.reset();
  sqs.reset();
  sfn.reset();
});

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
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
    await publisher.publish(event);
    const calls = eventBridge.commandCalls(PutEventsCommand);
    expect(calls).toHaveLength(1);
    const entries = calls[0]?.args[0].input.Entries ?? [];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      EventBusName: 'company-register-dev',
      Source: EVENT_SOURCE,
      DetailType: 'order.ready',
      Time: new Date(event.createdAt),
    });
    expect(EVENT_SOURCE).toBe('company-register');
    expect(JSON.parse(entries[0]?.Detail ?? 'null')).toEqual(event);
  });

  it('throws when the entry was refused (PutEvents still answers 200)', async () => {
    eventBridge.on(PutEventsCommand).resolves({
      FailedEntryCount: 1,
      Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }],
    });
    await expect(publisher.publish(event)).rejects.toThrow(/evt_1.*InternalFailure try again/);
  });

  it('throws what the call throws', async () => {
    eventBridge.on(PutEventsCommand).rejects(new Error('ResourceNotFoundException'));
    await expect(publisher.publish(event)).rejects.toThrow('ResourceNotFoundException');
  });
});

describe('SqsFulfilmentQueue', () => {
  const queueUrl = 'https://sqs.ap-southeast-2.amazonaws.com/123456789012/fulfilment';

  it('sends the message as the JSON body', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    await new SqsFulfilmentQueue(queueUrl).send({ kind: 'order', id: 'ord_1', attempt: 0 });
    const calls = sqs.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      QueueUrl: queueUrl,
      MessageBody: '{"kind":"order","id":"ord_1","attempt":0}',
    });
  });

  it('throws what SQS throws', async () => {
    sqs.on(SendMessageCommand).rejects(new Error('QueueDoesNotExist'));
    await expect(
      new SqsFulfilmentQueue(queueUrl).send({ kind: 'order', id: 'ord_1', attempt: 0 }),
    ).rejects.toThrow('QueueDoesNotExist');
  });
});

describe('StepFunctionsStarter', () => {
  const arn = 'arn:aws:states:ap-southeast-2:123456789012:stateMachine:company-register-dev-fulfilment';
  const starter = new StepFunctionsStarter(arn);
  const input = { kind: 'offline_search', id: 'srch_1', attempt: 1 } as const;

  it('starts an execution with the name and the JSON input', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: `${arn}:srch_1-1`, startDate: new Date() });
    await starter.start('srch_1-1', input);
    const calls = sfn.commandCalls(StartExecutionCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      stateMachineArn: arn,
      name: 'srch_1-1',
      input: JSON.stringify(input),
    });
  });

  it('returns normally when an execution of that name exists (already started)', async () => {
    sfn
      .on(StartExecutionCommand)
      .rejects(new ExecutionAlreadyExists({ message: 'Execution Already Exists', $metadata: {} }));
    await expect(starter.start('srch_1-1', input)).resolves.toBeUndefined();
  });

  it('throws any other error', async () => {
    sfn
      .on(StartExecutionCommand, { name: 'bad name' })
      .rejects(new InvalidName({ message: 'Invalid Name', $metadata: {} }));
    sfn
      .on(StartExecutionCommand, { name: 'srch_1-1' })
      .rejects(new StateMachineDoesNotExist({ message: 'State Machine Does Not Exist', $metadata: {} }));
    await expect(starter.start('bad name', input)).rejects.toThrow('Invalid Name');
    await expect(starter.start('srch_1-1', input)).rejects.toThrow('State Machine Does Not Exist');
  });
});
