import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../lib/bundling.ts';
import { routeList } from '../../shared/app/routes.ts';
import { FULFILMENT_STARTER, FULFILMENT_SWEEPER, workflowTasks } from '../../shared/orders/infra.ts';
import { WEBHOOK_DISPATCHER, WEBHOOK_RETRY } from '../../shared/webhooks/infra.ts';

/**
 * Lambda bundles replace three modules (lib/bundling.ts). This bundles, with the very settings
 * CDK uses, one call of every AWS client the service uses, answered by a fake HTTP handler, and
 * runs it: the stand-ins must serve every call, and the event-stream codec must be gone.
 */
const ENTRY = `
import { Readable } from 'node:stream';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

export async function callEveryClient(answers: Record<string, string>) {
  const seen: string[] = [];
  const requestHandler = {
    handle: async (request: { hostname: string; headers: Record<string, string> }) => {
      const service = request.hostname.split('.')[0] ?? '';
      seen.push(service + ' ' + (request.headers.authorization?.startsWith('AWS4-HMAC-SHA256') ? 'signed' : 'unsigned'));
      return {
        response: {
          statusCode: 200,
          headers: { 'content-type': 'application/json', etag: '"e"' },
          body: Readable.from([Buffer.from(answers[service] ?? '')]),
        },
      };
    },
  };
  const config = { region: 'ap-southeast-2', requestHandler } as never;
  const bucket = { Bucket: 'orders', Key: 'a.pdf' };
  const results = [
    await new DynamoDBClient(config).send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'k' } } })),
    await new S3Client(config).send(new PutObjectCommand({ ...bucket, Body: 'pdf' })),
    await new S3Client(config).send(new GetObjectCommand(bucket)),
    await new SQSClient(config).send(new SendMessageCommand({ QueueUrl: 'https://sqs.ap-southeast-2.amazonaws.com/1/q', MessageBody: '{}' })),
    await new SFNClient(config).send(new StartExecutionCommand({ stateMachineArn: 'arn:aws:states:ap-southeast-2:1:stateMachine:f', input: '{}' })),
    await new EventBridgeClient(config).send(new PutEventsCommand({ Entries: [{ Source: 's', DetailType: 'd', Detail: '{}' }] })),
    await new SESv2Client(config).send(new SendEmailCommand({ FromEmailAddress: 'a@example.com', Destination: { ToAddresses: ['b@example.com'] }, Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } } })),
  ];
  const body = await (results[2] as { Body: { transformToString(): Promise<string> } }).Body.transformToString();
  return { seen, body, messageId: (results[3] as { MessageId?: string }).MessageId };
}
`;

const ANSWERS = {
  dynamodb: '{"Item":{"pk":{"S":"k"}}}',
  orders: 'pdf', // S3 addresses the bucket by host name
  // The SDK checks the MD5 of the message body ('{}') that SQS echoes.
  sqs: '{"MessageId":"m-1","MD5OfMessageBody":"99914b932bd37a50b983c5e7c90ae93b"}',
  states: '{"executionArn":"arn:aws:states:ap-southeast-2:1:execution:f:x","startDate":1}',
  events: '{"FailedEntryCount":0,"Entries":[{"EventId":"e-1"}]}',
  email: '{"MessageId":"ses-1"}',
};

describe('Lambda bundles with the stand-in modules', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'crds-bundling-'));
  const outfile = join(outdir, 'calls.cjs');
  let bundle: string;
  let savedEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    savedEnv = { ...process.env };
    await build({
      ...esbuildOptions,
      sourcemap: false,
      stdin: { contents: ENTRY, resolveDir: resolve('.'), loader: 'ts', sourcefile: 'calls.ts' },
      outfile,
    });
    bundle = readFileSync(outfile, 'utf8');
  });

  afterAll(() => {
    process.env = savedEnv;
    rmSync(outdir, { recursive: true, force: true });
  });

  it('leave out the event-stream codec and the SDK credential chain', () => {
    expect(bundle).toContain('Event-stream operations are not bundled in this function');
    expect(bundle).not.toContain('EventStreamCodec');
    expect(bundle).not.toContain('fromSSO');
    expect(bundle).not.toContain('fromInstanceMetadata');
  });

  it('serve a call of every client the service uses, signed with the credentials Lambda passes', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    process.env.AWS_SESSION_TOKEN = 'token';
    const { callEveryClient } = (await import(pathToFileURL(outfile).href)) as {
      callEveryClient(
        answers: Record<string, string>,
      ): Promise<{ seen: string[]; body: string; messageId: string }>;
    };
    const result = await callEveryClient(ANSWERS);
    expect(result.seen).toEqual([
      'dynamodb signed',
      'orders signed',
      'orders signed',
      'sqs signed',
      'states signed',
      'events signed',
      'email signed',
    ]);
    expect(result.body).toBe('pdf');
    expect(result.messageId).toBe('m-1');
  });
});

/** Every function CDK deploys: the routes, the workflow's tasks, its starter and sweeper, the webhook functions. */
const deployed = [
  ...routeList,
  ...workflowTasks,
  FULFILMENT_STARTER,
  FULFILMENT_SWEEPER,
  WEBHOOK_DISPATCHER,
  WEBHOOK_RETRY,
];

describe('the bundle of every deployed function', () => {
  it('carries no AWS SDK client: DynamoDB, SQS, EventBridge, Step Functions, S3, SES and KMS go through the lean clients', async () => {
    const { outputFiles, metafile } = await build({
      ...esbuildOptions,
      sourcemap: false,
      write: false,
      metafile: true,
      entryPoints: Object.fromEntries(deployed.map((fn) => [fn.name, `functions/${fn.handler}.ts`])),
      outdir: 'bundles',
    });
    expect(outputFiles).toHaveLength(deployed.length);
    for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
      const clients = Object.keys(inputs).filter((input) => /@aws-sdk\/(client-|lib-dynamodb)/.test(input));
      expect(clients, output).toEqual([]);
      // The credential reader is the service's own: not the SDK's client core and INI-file loader.
      const credentialChain = Object.keys(inputs).filter((input) =>
        /@aws-sdk\/(core|credential-provider-)|@smithy\/core\/dist-es\/submodules\/config/.test(input),
      );
      expect(credentialChain, output).toEqual([]);
      const jmespath = Object.keys(inputs).filter((input) =>
        input.includes('@aws-lambda-powertools/jmespath'),
      );
      expect(jmespath, output).toEqual([]);
    }
    for (const file of outputFiles) {
      expect(file.text, file.path).not.toContain('x-amz-user-agent');
      expect(file.text, file.path).not.toContain('fromSSO');
    }
  }, 120_000);
});

/**
 * Idempotent runs in a Lambda bundle, where Powertools' JMESPath is the field-path stand-in
 * (lib/bundling.ts): the runner's key and request expressions must be served by it. Records are
 * kept in memory here; test/unit/idempotency-persistence.test.ts covers the DynamoDB layer.
 */
const IDEMPOTENT_ENTRY = `
import { IdempotencyItemAlreadyExistsError, IdempotencyItemNotFoundError } from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import { createIdempotencyRunner } from './shared/adapters/dynamodb/idempotency.ts';

class MemoryLayer extends BasePersistenceLayer {
  records = new Map();
  async _getRecord(key) {
    const record = this.records.get(key);
    if (!record) throw new IdempotencyItemNotFoundError();
    return record;
  }
  async _putRecord(record) {
    const existing = this.records.get(record.idempotencyKey);
    if (existing && !existing.isExpired()) throw new IdempotencyItemAlreadyExistsError('exists', existing);
    this.records.set(record.idempotencyKey, record);
  }
  async _updateRecord(record) { this.records.set(record.idempotencyKey, record); }
  async _deleteRecord(record) { this.records.delete(record.idempotencyKey); }
  async renewInProgress() { return true; }
}

export async function purchaseTwiceThenDiffer() {
  const runner = createIdempotencyRunner(new MemoryLayer());
  const context = { getRemainingTimeInMillis: () => 30_000, functionName: 'f', awsRequestId: 'r' };
  let runs = 0;
  const call = (request) => runner({ scope: 'acct#test#Purchase#/v1/x', key: 'k-1', request, context, run: async () => ({ bought: ++runs }) });
  const first = await call({ body: { type: 'current' } });
  const replayed = await call({ body: { type: 'current' } });
  const conflict = await call({ body: { type: 'historical' } }).then(() => 'ran', (error) => error.code);
  return { first, replayed, conflict, runs };
}
`;

describe('an idempotent run in a Lambda bundle', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'crds-idempotent-'));
  const outfile = join(outdir, 'idempotent.cjs');

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('finds its key and request with the field-path stand-in, and replays or refuses as Powertools does', async () => {
    await build({
      ...esbuildOptions,
      sourcemap: false,
      stdin: {
        contents: IDEMPOTENT_ENTRY,
        resolveDir: resolve('.'),
        loader: 'ts',
        sourcefile: 'idempotent.ts',
      },
      outfile,
    });
    const bundle = readFileSync(outfile, 'utf8');
    expect(bundle.includes('only field paths are bundled'), 'the stand-in is bundled').toBe(true);
    expect(bundle.includes('powertools_base64_gzip'), "Powertools' JMESPath is bundled").toBe(false);
    const { purchaseTwiceThenDiffer } = (await import(pathToFileURL(outfile).href)) as {
      purchaseTwiceThenDiffer(): Promise<{
        first: unknown;
        replayed: unknown;
        conflict: string;
        runs: number;
      }>;
    };
    expect(await purchaseTwiceThenDiffer()).toEqual({
      first: { bought: 1 },
      replayed: { bought: 1 },
      conflict: 'idempotency_conflict',
      runs: 1,
    });
  }, 60_000);
});
