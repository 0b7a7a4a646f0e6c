import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import {
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
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
import { S3BlobStore } from '../../shared/adapters/aws/s3-blobs.ts';
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_TAG,
  SesMailer,
  tagValue,
} from '../../shared/adapters/aws/ses-mailer.ts';
import { StepFunctionsStarter } from '../../shared/adapters/aws/sfn-starter.ts';
import { SqsFulfilmentQueue } from '../../shared/adapters/aws/sqs-queue.ts';
import type { ServiceEvent } from '../../shared/ports/orders.ts';

const s3 = mockClient(S3Client);
const ses = mockClient(SESv2Client);
const eventBridge = mockClient(EventBridgeClient);
const sqs = mockClient(SQSClient);
const sfn = mockClient(SFNClient);

beforeAll(() => {
  process.env.AWS_REGION ??= 'ap-southeast-2';
});

afterEach(() => {
  s3.reset();
  ses.reset();
  eventBridge.reset();
  sqs.reset();
  sfn.reset();
});

const metadata = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });

describe('S3BlobStore', () => {
  const store = new S3BlobStore('orders-bucket');
  const pdf = new TextEncoder().encode('%PDF-1.7 …');

  it('puts the object with its content type and SSE-S3, the bucket’s default encryption', async () => {
    s3.on(PutObjectCommand).resolves({});
    await store.put('orders/ord_1.pdf', pdf, 'application/pdf');
    const calls = s3.commandCalls(PutObjectCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      Bucket: 'orders-bucket',
      Key: 'orders/ord_1.pdf',
      Body: pdf,
      ContentType: 'application/pdf',
      ServerSideEncryption: 'AES256',
    });
  });

  it('gets the object’s bytes', async () => {
    s3.on(GetObjectCommand, { Bucket: 'orders-bucket', Key: 'orders/ord_1.pdf' }).resolves({
      // The SDK's stream mixin, reduced to the one method the adapter calls.
      Body: { transformToByteArray: async () => pdf } as never,
    });
    expect(await store.get('orders/ord_1.pdf')).toEqual(pdf);
  });

  it('gets undefined for a missing key (NoSuchKey)', async () => {
    s3.on(GetObjectCommand).rejects(
      new NoSuchKey({ message: 'The specified key does not exist.', ...metadata(404) }),
    );
    expect(await store.get('orders/missing.pdf')).toBeUndefined();
  });

  it('throws any other error of GetObject (AccessDenied is not "missing")', async () => {
    s3.on(GetObjectCommand).rejects(
      new S3ServiceException({
        name: 'AccessDenied',
        $fault: 'client',
        message: 'Access Denied',
        ...metadata(403),
      }),
    );
    await expect(store.get('orders/ord_1.pdf')).rejects.toThrow('Access Denied');
  });

  it('tells whether an object exists with HeadObject', async () => {
    s3.on(HeadObjectCommand, { Key: 'orders/ord_1.pdf' }).resolves({ ContentLength: pdf.length });
    s3.on(HeadObjectCommand, { Key: 'orders/missing.pdf' }).rejects(
      new NotFound({ message: 'NotFound', ...metadata(404) }),
    );
    expect(await store.exists('orders/ord_1.pdf')).toBe(true);
    expect(await store.exists('orders/missing.pdf')).toBe(false);
    expect(s3.commandCalls(HeadObjectCommand).map((call) => call.args[0].input.Bucket)).toEqual([
      'orders-bucket',
      'orders-bucket',
    ]);
  });

  it('treats an unnamed 404 of HeadObject as missing and throws anything else', async () => {
    s3.on(HeadObjectCommand, { Key: 'a' }).rejects(
      new S3ServiceException({ name: 'UnknownError', $fault: 'client', message: '', ...metadata(404) }),
    );
    s3.on(HeadObjectCommand, { Key: 'b' }).rejects(
      new S3ServiceException({ name: 'Forbidden', $fault: 'client', message: 'Forbidden', ...metadata(403) }),
    );
    expect(await store.exists('a')).toBe(false);
    await expect(store.exists('b')).rejects.toThrow('Forbidden');
  });
});

describe('SesMailer', () => {
  const mailer = new SesMailer('orders@company-register.example.com');
  const pdf = new Uint8Array([37, 80, 68, 70]);

  it('sends simple content with the attachments, and the idempotency key as a header and a tag', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await mailer.send({
      to: 'buyer@example.com',
      subject: 'Your charges extract',
      text: 'Attached.',
      attachments: [{ filename: 'ord_1.pdf', contentType: 'application/pdf', content: pdf }],
      idempotencyKey: 'order:ord_1:email',
    });
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      FromEmailAddress: 'orders@company-register.example.com',
      Destination: { ToAddresses: ['buyer@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Your charges extract', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Attached.', Charset: 'UTF-8' } },
          Headers: [{ Name: IDEMPOTENCY_HEADER, Value: 'order:ord_1:email' }],
          Attachments: [
            {
              FileName: 'ord_1.pdf',
              ContentType: 'application/pdf',
              RawContent: pdf,
              ContentDisposition: 'ATTACHMENT',
              ContentTransferEncoding: 'BASE64',
            },
          ],
        },
      },
      EmailTags: [{ Name: IDEMPOTENCY_TAG, Value: 'order_ord_1_email' }],
    });
  });

  it('sends no attachments when there are none', async () => {
    ses.on(SendEmailCommand).resolves({});
    await mailer.send({ to: 'a@example.com', subject: 's', text: 't', attachments: [], idempotencyKey: 'k' });
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input.Content?.Simple?.Attachments).toEqual([]);
  });

  it('makes tag values SES accepts: letters, digits, _ and -, at most 256 characters', () => {
    expect(tagValue('srch_1:email/0')).toBe('srch_1_email_0');
    expect(tagValue('x'.repeat(300))).toHaveLength(256);
  });

  it('throws what SES throws (a rejected send is retried by the workflow step)', async () => {
    ses.on(SendEmailCommand).rejects(new Error('Email address is not verified.'));
    await expect(
      mailer.send({ to: 'a@example.com', subject: 's', text: 't', attachments: [], idempotencyKey: 'k' }),
    ).rejects.toThrow('not verified');
  });
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
