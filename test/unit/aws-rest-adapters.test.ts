import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_TAG,
  SesMailer,
  tagValue,
} from '../../shared/adapters/aws/ses-mailer.ts';
import { AwsCallError } from '../../shared/adapters/aws/signed-request.ts';
import { S3BlobStore } from '../../shared/orders/adapters/s3-blobs.ts';

/**
 * The orders bucket and SES adapters over their REST APIs (shared/adapters/aws/signed-request.ts)
 * against a fake endpoint: what they send, how it is signed, what they make of the answers.
 */
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Answer = (response: ServerResponse) => void;

const answer =
  (status: number, body = '', headers: Record<string, string> = {}): Answer =>
  (response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
const s3Error = (status: number, code: string, message: string) =>
  answer(status, `<?xml version="1.0"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`, {
    'content-type': 'application/xml',
  });

let received: Received[] = [];
let answers: Answer[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks),
    });
    (answers.shift() ?? answer(200))(response);
  });
});

const saved = { ...process.env };

beforeAll(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_ENDPOINT_URL_S3 = endpoint;
  process.env.AWS_ENDPOINT_URL_SESV2 = endpoint;
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

const signedFor = (request: Received | undefined, service: string) => {
  expect(String(request?.headers.authorization)).toMatch(
    new RegExp(`^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\\d{8}/ap-southeast-2/${service}/aws4_request, `),
  );
  expect(request?.headers['x-amz-security-token']).toBe('session-token');
};

describe('S3BlobStore', () => {
  const store = new S3BlobStore('orders-bucket');
  const pdf = new TextEncoder().encode('%PDF-1.7 …');

  it('puts the object with its content type and SSE-S3, the bucket’s default encryption, signed with its hash', async () => {
    await store.put('orders/ord_1.pdf', pdf, 'application/pdf');
    expect(received).toHaveLength(1);
    const [put] = received;
    expect([put?.method, put?.url]).toEqual(['PUT', '/orders-bucket/orders/ord_1.pdf']);
    expect(put?.headers).toMatchObject({
      'content-type': 'application/pdf',
      'x-amz-server-side-encryption': 'AES256',
      'x-amz-content-sha256': createHash('sha256').update(pdf).digest('hex'),
    });
    expect(new Uint8Array(put?.body ?? [])).toEqual(pdf);
    signedFor(put, 's3');
  });

  it('gets the object’s bytes', async () => {
    answers = [(response) => response.end(Buffer.from(pdf))];
    expect(await store.get('orders/ord_1.pdf')).toEqual(pdf);
    expect([received[0]?.method, received[0]?.url]).toEqual(['GET', '/orders-bucket/orders/ord_1.pdf']);
    signedFor(received[0], 's3');
  });

  it('gets undefined for a missing key (NoSuchKey)', async () => {
    answers = [s3Error(404, 'NoSuchKey', 'The specified key does not exist.')];
    expect(await store.get('orders/missing.pdf')).toBeUndefined();
  });

  const listing =
    (...keys: string[]) =>
    (response: ServerResponse) =>
      response.end(
        `<ListBucketResult>${keys.map((key) => `<Contents><Key>${key}</Key></Contents>`).join('')}</ListBucketResult>`,
      );

  it('reads a 403 to a missing key (no list without a prefix) as missing, after listing under the key', async () => {
    answers = [s3Error(403, 'AccessDenied', 'Access Denied'), listing()];
    expect(await store.get('orders/missing.pdf')).toBeUndefined();
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /orders-bucket/orders/missing.pdf',
      'GET /orders-bucket/?list-type=2&max-keys=1&prefix=orders%2Fmissing.pdf',
    ]);
    signedFor(received[1], 's3');
    // A longer key under it is not the key.
    answers = [answer(403), listing('orders/missing.pdf.old')];
    expect(await store.exists('orders/missing.pdf')).toBe(false);
  });

  it('throws a 403 to a key that is there (AccessDenied is not "missing"), and a missing bucket', async () => {
    answers = [s3Error(403, 'AccessDenied', 'Access Denied'), listing('orders/ord_1.pdf')];
    const denied = await store.get('orders/ord_1.pdf').catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(AwsCallError);
    expect(denied).toMatchObject({ name: 'AccessDenied', statusCode: 403 });
    answers = [answer(403), listing('orders/ord_1.pdf')];
    await expect(store.exists('orders/ord_1.pdf')).rejects.toMatchObject({ name: 'AccessDenied' });
    answers = [s3Error(404, 'NoSuchBucket', 'The specified bucket does not exist')];
    await expect(store.get('orders/ord_1.pdf')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    // None is retried: asking again would be answered the same.
    expect(received).toHaveLength(5);
  });

  it('tells whether an object exists with a HEAD (a 404 has no body)', async () => {
    answers = [answer(200), answer(404)];
    expect(await store.exists('orders/ord_1.pdf')).toBe(true);
    expect(await store.exists('orders/missing.pdf')).toBe(false);
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'HEAD /orders-bucket/orders/ord_1.pdf',
      'HEAD /orders-bucket/orders/missing.pdf',
    ]);
  });

  it('retries a 5xx or a throttling answer, as the SDK does, then gives up after three attempts', async () => {
    answers = [s3Error(503, 'SlowDown', 'Reduce your request rate.'), answer(200)];
    await store.put('orders/ord_2.pdf', pdf, 'application/pdf');
    expect(received).toHaveLength(2);
    received = [];
    answers = [1, 2, 3].map(() => s3Error(500, 'InternalError', 'We encountered an internal error.'));
    await expect(store.put('orders/ord_3.pdf', pdf, 'application/pdf')).rejects.toMatchObject({
      name: 'InternalError',
    });
    expect(received).toHaveLength(3);
  });
});

describe('SesMailer', () => {
  const mailer = new SesMailer('orders@company-register.example.com');
  const pdf = new Uint8Array([37, 80, 68, 70]);

  it('sends simple content with the attachments, and the idempotency key as a header and a tag', async () => {
    answers = [answer(200, '{"MessageId":"m-1"}', { 'content-type': 'application/json' })];
    await mailer.send({
      to: 'buyer@example.com',
      subject: 'Your charges extract',
      text: 'Attached.',
      attachments: [{ filename: 'ord_1.pdf', contentType: 'application/pdf', content: pdf }],
      idempotencyKey: 'order:ord_1:email',
    });
    expect(received).toHaveLength(1);
    const [sent] = received;
    expect([sent?.method, sent?.url, sent?.headers['content-type']]).toEqual([
      'POST',
      '/v2/email/outbound-emails',
      'application/json',
    ]);
    signedFor(sent, 'ses');
    expect(JSON.parse(sent?.body.toString('utf8') ?? '')).toEqual({
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
              RawContent: Buffer.from(pdf).toString('base64'),
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
    await mailer.send({ to: 'a@example.com', subject: 's', text: 't', attachments: [], idempotencyKey: 'k' });
    expect(JSON.parse(received[0]?.body.toString('utf8') ?? '').Content.Simple.Attachments).toEqual([]);
  });

  it('makes tag values SES accepts: letters, digits, _ and -, at most 256 characters', () => {
    expect(tagValue('srch_1:email/0')).toBe('srch_1_email_0');
    expect(tagValue('x'.repeat(300))).toHaveLength(256);
  });

  it('throws what SES refuses, named by its error type (a rejected send is retried by the workflow step)', async () => {
    answers = [
      answer(400, '{"message":"Email address is not verified."}', {
        'content-type': 'application/json',
        'x-amzn-errortype': 'MessageRejected:http://internal.amazon.com/coral/com.amazonaws.sesv2/',
      }),
    ];
    await expect(
      mailer.send({ to: 'a@example.com', subject: 's', text: 't', attachments: [], idempotencyKey: 'k' }),
    ).rejects.toMatchObject({ name: 'MessageRejected', message: 'Email address is not verified.' });
    expect(received).toHaveLength(1);
  });
});
