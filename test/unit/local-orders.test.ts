import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEventBus } from '../../local/event-bus.ts';
import { OutboxMailer } from '../../local/outbox-mailer.ts';
import { LocalQueue } from '../../local/queue.ts';
import type { MailMessage } from '../../shared/kernel/ports/mailer.ts';
import { FileBlobStore } from '../../shared/orders/local/blob-store.ts';
import { LocalWorkflow, type TaskHandler } from '../../shared/orders/local/workflow.ts';
import type { FulfilmentMessage } from '../../shared/orders/store-port.ts';
import type { ServiceEvent } from '../../shared/webhooks/event-port.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-orders-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `${name}`, a substitution as the ASL files write them. */
const sub = (name: string) => `\${${name}}`;
const message = (id: string): FulfilmentMessage => ({ kind: 'order', id, attempt: 0 });

describe('LocalQueue', () => {
  it('delivers a message as an SQS event, asynchronously', async () => {
    const events: SQSEvent[] = [];
    const queue = new LocalQueue({ visibilityMs: 5 });
    queue.consume(async (event) => {
      events.push(event);
      return { batchItemFailures: [] };
    });
    await queue.send(message('ord_1'));
    expect(events).toHaveLength(0);
    await queue.idle();
    expect(events).toHaveLength(1);
    const [record] = events[0]?.Records ?? [];
    expect(JSON.parse(record?.body ?? '')).toStrictEqual(message('ord_1'));
    expect(record).toMatchObject({
      messageId: expect.any(String),
      receiptHandle: expect.any(String),
      eventSource: 'aws:sqs',
      attributes: { ApproximateReceiveCount: '1' },
    });
    expect(queue.state()).toStrictEqual({ inFlight: 0, delivered: 1, receives: 1, deadLetters: [] });
    await queue.stop();
  });

  it('redelivers a record reported as failed until maxReceiveCount, then dead-letters it', async () => {
    const receives: Record<string, string[]> = {};
    const queue = new LocalQueue({ visibilityMs: 5 });
    queue.consume(async (event) => {
      for (const r of event.Records) {
        const id = (JSON.parse(r.body) as FulfilmentMessage).id;
        receives[id] = [...(receives[id] ?? []), r.attributes.ApproximateReceiveCount];
      }
      const failing = event.Records.filter((r) => r.body.includes('ord_bad'));
      return { batchItemFailures: failing.map((r) => ({ itemIdentifier: r.messageId })) };
    });
    await queue.send(message('ord_good'));
    await queue.send(message('ord_bad'));
    await queue.idle();
    expect(receives).toStrictEqual({ ord_good: ['1'], ord_bad: ['1', '2', '3', '4', '5'] });
    expect(queue.state()).toStrictEqual({
      inFlight: 0,
      delivered: 1,
      receives: 6,
      deadLetters: [
        {
          messageId: expect.any(String),
          message: message('ord_bad'),
          receiveCount: 5,
          error: 'reported in batchItemFailures',
        },
      ],
    });
    await queue.stop();
  });

  it('redelivers the whole batch when the consumer throws', async () => {
    let calls = 0;
    const queue = new LocalQueue({ visibilityMs: 5, maxReceiveCount: 3 });
    queue.consume(async (event) => {
      calls += 1;
      if (calls === 1) {
        expect(event.Records).toHaveLength(2);
        throw new Error('starter crashed');
      }
      return { batchItemFailures: [] };
    });
    await queue.send(message('ord_1'));
    await queue.send(message('ord_2'));
    await queue.idle();
    expect(calls).toBe(2);
    expect(queue.state()).toMatchObject({ delivered: 2, receives: 4, deadLetters: [] });
    await queue.stop();
  });

  it('lets a test deliver a message again, with its message id, and waits for the outcome', async () => {
    const ids: string[] = [];
    const queue = new LocalQueue({ visibilityMs: 5 });
    queue.consume(async (event: SQSEvent, context: Context) => {
      expect(context.functionName).toBe('QueueConsumer');
      ids.push(...event.Records.map((r) => r.messageId));
    });
    await queue.send(message('ord_1'));
    await queue.idle();
    expect(await queue.redeliver(message('ord_1'))).toBe('delivered');
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    await queue.stop();
  });
});

/** The headers and body of a MIME entity. */
function entity(text: string) {
  const split = text.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of text
    .slice(0, split)
    .replace(/\r\n[ \t]/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: text.slice(split + 4) };
}

function parseEml(eml: string) {
  const message = entity(eml);
  const boundary = /boundary="([^"]+)"/.exec(message.headers['content-type'] ?? '')?.[1];
  if (!boundary) throw new Error('no boundary');
  const [, ...rest] = message.body.split(`--${boundary}`);
  const closing = rest.pop();
  expect(closing?.startsWith('--')).toBe(true);
  const parts = rest.map((p) => entity(p.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  const decode = (part: (typeof parts)[number]) =>
    part.headers['content-transfer-encoding'] === 'base64'
      ? Buffer.from(part.body.replace(/\r\n/g, ''), 'base64')
      : Buffer.from(part.body);
  return { headers: message.headers, parts, decode };
}

describe('OutboxMailer', () => {
  const pdf = new Uint8Array(Array.from({ length: 300 }, (_, i) => i % 256));
  const mail = (overrides: Partial<MailMessage> = {}): MailMessage => ({
    to: 'jane@example.com',
    subject: 'Your order ord_1 — documents',
    text: 'Hello Jane,\nyour documents are attached.\n',
    attachments: [{ filename: 'ord_1.pdf', contentType: 'application/pdf', content: pdf }],
    idempotencyKey: 'order/ord_1/email',
    ...overrides,
  });

  it('writes a MIME message, its JSON and the attachment in the folder of its key', async () => {
    const outbox = new OutboxMailer(dir, 'orders@company-register.local');
    await outbox.send(mail());
    const [entry, ...others] = await outbox.list();
    expect(others).toHaveLength(0);
    expect(entry).toStrictEqual({
      idempotencyKey: 'order/ord_1/email',
      sentAt: expect.any(String),
      to: 'jane@example.com',
      from: 'orders@company-register.local',
      subject: 'Your order ord_1 — documents',
      text: 'Hello Jane,\nyour documents are attached.\n',
      attachments: [{ filename: 'ord_1.pdf', contentType: 'application/pdf', bytes: 300, file: 'ord_1.pdf' }],
      folder: expect.stringContaining(dir),
    });
    const folder = entry?.folder as string;
    expect((await readdir(folder)).sort()).toStrictEqual(['message.eml', 'message.json', 'ord_1.pdf']);
    expect(new Uint8Array(await readFile(join(folder, 'ord_1.pdf')))).toStrictEqual(pdf);

    const eml = parseEml(await readFile(join(folder, 'message.eml'), 'utf8'));
    expect(eml.headers).toMatchObject({
      from: 'orders@company-register.local',
      to: 'jane@example.com',
      'mime-version': '1.0',
      'content-type': expect.stringMatching(/^multipart\/mixed; boundary=/),
    });
    const subject = eml.headers.subject?.split(' ').map((w) => {
      const word = /^=\?UTF-8\?B\?(.*)\?=$/.exec(w);
      return word ? Buffer.from(word[1] as string, 'base64').toString('utf8') : w;
    });
    expect(subject?.join('')).toBe('Your order ord_1 — documents');
    const [text, attachment] = eml.parts;
    expect(text?.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(eml.decode(text as NonNullable<typeof text>).toString('utf8')).toBe(
      'Hello Jane,\r\nyour documents are attached.\r\n',
    );
    expect(attachment?.headers).toMatchObject({
      'content-type': 'application/pdf; name="ord_1.pdf"',
      'content-disposition': 'attachment; filename="ord_1.pdf"',
      'content-transfer-encoding': 'base64',
    });
    expect(new Uint8Array(eml.decode(attachment as NonNullable<typeof attachment>))).toStrictEqual(pdf);
    expect(eml.parts).toHaveLength(2);
  });

  it('sends nothing again for a key already sent, even concurrently', async () => {
    const outbox = new OutboxMailer(dir);
    await Promise.all([outbox.send(mail()), outbox.send(mail({ subject: 'second' }))]);
    const [first] = await outbox.list();
    await outbox.send(mail({ subject: 'third', attachments: [] }));
    const all = await outbox.list();
    expect(all).toHaveLength(1);
    expect(all[0]).toStrictEqual(first);
    expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toStrictEqual([]);
  });

  it('keeps messages of different keys apart, however the keys are spelt', async () => {
    const outbox = new OutboxMailer(dir);
    await outbox.send(mail({ idempotencyKey: 'a/b' }));
    await outbox.send(mail({ idempotencyKey: 'a_b' }));
    await outbox.send(mail({ idempotencyKey: '..' }));
    const keys = (await outbox.list()).map((m) => m.idempotencyKey).sort();
    expect(keys).toStrictEqual(['..', 'a/b', 'a_b']);
    for (const name of await readdir(dir)) expect(name).toMatch(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
  });
});

describe('FileBlobStore', () => {
  it('stores bytes under keys with folders and replaces them whole', async () => {
    const blobs = new FileBlobStore(dir);
    expect(await blobs.get('orders/ord_1/extract.pdf')).toBeUndefined();
    expect(await blobs.exists('orders/ord_1/extract.pdf')).toBe(false);
    await blobs.put('orders/ord_1/extract.pdf', new Uint8Array([1, 2, 3]), 'application/pdf');
    await blobs.put('orders/ord_1/extract.pdf', new Uint8Array([4, 5]), 'application/pdf');
    expect(await blobs.get('orders/ord_1/extract.pdf')).toStrictEqual(new Uint8Array([4, 5]));
    expect(await blobs.exists('orders/ord_1/extract.pdf')).toBe(true);
    expect(await blobs.exists('orders/ord_1')).toBe(false);
    expect(await readdir(join(dir, 'orders', 'ord_1'))).toStrictEqual(['extract.pdf']);
  });

  it('refuses keys that would leave its folder', async () => {
    const blobs = new FileBlobStore(dir);
    for (const key of ['../escape', 'a/../../b', '/abs', 'a//b', ''])
      await expect(blobs.put(key, new Uint8Array([1]), 'text/plain')).rejects.toThrow(/not allowed/);
  });
});

describe('LocalEventBus', () => {
  it('keeps events in order, in memory and as JSON lines', async () => {
    const file = join(dir, 'events', 'events.jsonl');
    const bus = new LocalEventBus(file);
    const event = (id: string): ServiceEvent => ({
      id,
      type: 'order.ready',
      createdAt: '2026-01-01T00:00:00.000Z',
      livemode: false,
      accountId: 'acct_1',
      data: { id },
    });
    await Promise.all([bus.publish(event('evt_1')), bus.publish(event('evt_2'))]);
    expect(bus.list().map((e) => e.id)).toStrictEqual(['evt_1', 'evt_2']);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as ServiceEvent).id)).toStrictEqual(['evt_1', 'evt_2']);
  });
});

describe('LocalWorkflow', () => {
  const retry = [
    { ErrorEquals: ['RegistryRejected'], MaxAttempts: 0 },
    {
      ErrorEquals: ['RegistryUnavailable'],
      IntervalSeconds: 60,
      MaxAttempts: 3,
      BackoffRate: 2,
      JitterStrategy: 'FULL',
    },
  ];
  const definition = {
    StartAt: 'Fetch',
    States: {
      Fetch: {
        Type: 'Task',
        Resource: sub('FetchArn'),
        ResultPath: '$.fetched',
        Retry: retry,
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' }],
        Next: 'Pause',
      },
      Pause: { Type: 'Wait', Seconds: 3600, Next: 'Deliver' },
      Deliver: { Type: 'Task', Resource: sub('DeliverArn'), ResultPath: null, Next: 'Done' },
      MarkFailed: { Type: 'Task', Resource: sub('MarkFailedArn'), ResultPath: null, Next: 'Done' },
      Done: { Type: 'Succeed' },
    },
  };

  interface Input {
    id: string;
    unavailable?: number;
    reject?: boolean;
    deliverFails?: boolean;
  }

  function setup() {
    const calls: { task: string; input: unknown; context: Context }[] = [];
    const failuresSeen = new Map<string, number>();
    const handler =
      (task: string, body: (input: Input) => unknown): TaskHandler =>
      async (input, context) => {
        calls.push({ task, input, context });
        return body(input as Input);
      };
    const handlers: Record<string, TaskHandler> = {
      FetchArn: handler('Fetch', (input) => {
        const seen = failuresSeen.get(input.id) ?? 0;
        if (seen < (input.unavailable ?? 0)) {
          failuresSeen.set(input.id, seen + 1);
          throw Object.assign(new Error(`registry down (${seen + 1})`), { name: 'RegistryUnavailable' });
        }
        if (input.reject) throw Object.assign(new Error('no such document'), { name: 'RegistryRejected' });
        return { pages: 3 };
      }),
      DeliverArn: handler('Deliver', (input) => {
        if (input.deliverFails) throw new TypeError('mail server said no');
        return 'ignored';
      }),
      MarkFailedArn: handler('MarkFailed', () => null),
    };
    const workflow = new LocalWorkflow({ definition, handlers, waitMs: 5, retryIntervalMs: 1 });
    const tasks = () => calls.map((c) => c.task);
    return { workflow, calls, tasks };
  }

  const stateTrail = (history: { type: string; state?: string }[]) =>
    history.filter((e) => e.type === 'StateEntered').map((e) => e.state);

  it('runs the tasks, overrides the wait and records the history state by state', async () => {
    const { workflow, calls } = setup();
    const started = Date.now();
    await workflow.start('ord_1-0', { id: 'ord_1' });
    const execution = await workflow.waitFor('ord_1-0');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(execution).toMatchObject({
      name: 'ord_1-0',
      input: { id: 'ord_1' },
      status: 'SUCCEEDED',
      output: { id: 'ord_1', fetched: { pages: 3 } },
      error: null,
    });
    expect(stateTrail(execution.history)).toStrictEqual(['Fetch', 'Pause', 'Deliver', 'Done']);
    expect(execution.history.map((e) => e.type)).toStrictEqual([
      'ExecutionStarted',
      ...['Fetch', 'Pause', 'Deliver', 'Done'].flatMap(() => ['StateEntered', 'StateExited']),
      'ExecutionSucceeded',
    ]);
    expect(execution.history.find((e) => e.type === 'StateExited' && e.state === 'Fetch')).toMatchObject({
      stateType: 'Task',
      input: { id: 'ord_1' },
      output: { id: 'ord_1', fetched: { pages: 3 } },
    });
    expect(calls.map((c) => c.task)).toStrictEqual(['Fetch', 'Deliver']);
    expect(calls[1]?.input).toStrictEqual({ id: 'ord_1', fetched: { pages: 3 } });
    expect(calls[0]?.context.functionName).toBe('Fetch');
    expect(calls[0]?.context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('retries a task on its named error, with the error name as Error and Lambda’s error as Cause', async () => {
    const { workflow, tasks } = setup();
    await workflow.start('ord_2-0', { id: 'ord_2', unavailable: 2 });
    const execution = await workflow.waitFor('ord_2-0');
    expect(execution.status).toBe('SUCCEEDED');
    expect(tasks()).toStrictEqual(['Fetch', 'Fetch', 'Fetch', 'Deliver']);
    const failed = execution.history.filter((e) => e.type === 'StateFailed');
    expect(failed.map((e) => [e.state, e.error])).toStrictEqual([
      ['Fetch', 'RegistryUnavailable'],
      ['Fetch', 'RegistryUnavailable'],
    ]);
    expect(JSON.parse(failed[0]?.cause as string)).toMatchObject({
      errorType: 'RegistryUnavailable',
      errorMessage: 'registry down (1)',
      trace: expect.any(Array),
    });
    const retried = execution.history.filter((e) => e.type === 'StateRetried');
    expect(retried.map((e) => [e.state, e.attempt, e.errorEquals])).toStrictEqual([
      ['Fetch', 1, ['RegistryUnavailable']],
      ['Fetch', 2, ['RegistryUnavailable']],
    ]);
  });

  it('catches a permanent error without retrying it and hands it to the next state', async () => {
    const { workflow, calls, tasks } = setup();
    await workflow.start('ord_3-0', { id: 'ord_3', reject: true });
    const execution = await workflow.waitFor('ord_3-0');
    expect(execution.status).toBe('SUCCEEDED');
    expect(tasks()).toStrictEqual(['Fetch', 'MarkFailed']);
    const input = calls[1]?.input as { error?: { Error: string; Cause: string } } | undefined;
    expect(input?.error?.Error).toBe('RegistryRejected');
    expect(JSON.parse(input?.error?.Cause ?? '')).toMatchObject({
      errorType: 'RegistryRejected',
      errorMessage: 'no such document',
    });
    expect(execution.history.find((e) => e.type === 'StateCaught')).toMatchObject({
      state: 'Fetch',
      errorEquals: ['States.ALL'],
      next: 'MarkFailed',
    });
    expect(execution.history.some((e) => e.type === 'StateRetried')).toBe(false);
  });

  it('fails the execution on an error nothing catches', async () => {
    const { workflow } = setup();
    await workflow.start('ord_4-0', { id: 'ord_4', deliverFails: true });
    const execution = await workflow.waitFor('ord_4-0');
    expect(execution.status).toBe('FAILED');
    expect(execution.error?.Error).toBe('TypeError');
    expect(JSON.parse(execution.error?.Cause as string)).toMatchObject({
      errorMessage: 'mail server said no',
    });
    expect(execution.history.at(-1)?.type).toBe('ExecutionFailed');
  });

  it('aborts the next execution leaving a state, once, before the next state runs', async () => {
    const { workflow, tasks } = setup();
    expect(() => workflow.crashAfter('NoSuchState')).toThrow(/no state named/);
    workflow.crashAfter('Fetch');
    expect(workflow.faults()).toStrictEqual({ crashAfter: 'Fetch' });
    await workflow.start('ord_5-0', { id: 'ord_5' });
    const crashed = await workflow.waitFor('ord_5-0');
    expect(crashed.status).toBe('ABORTED');
    expect(tasks()).toStrictEqual(['Fetch']);
    expect(crashed.history.slice(-2)).toMatchObject([
      { type: 'StateExited', state: 'Fetch', output: { fetched: { pages: 3 } } },
      { type: 'ExecutionAborted', state: 'Fetch', reason: 'crashAfter' },
    ]);
    expect(workflow.faults()).toStrictEqual({ crashAfter: null });
    await workflow.start('ord_5-1', { id: 'ord_5' });
    expect((await workflow.waitFor('ord_5-1')).status).toBe('SUCCEEDED');
  });

  it('aborts after a state even when only the end follows it', async () => {
    const { workflow } = setup();
    workflow.crashAfter('Deliver');
    await workflow.start('ord_6-0', { id: 'ord_6' });
    const crashed = await workflow.waitFor('ord_6-0');
    expect(crashed.status).toBe('ABORTED');
    expect(stateTrail(crashed.history)).toStrictEqual(['Fetch', 'Pause', 'Deliver']);
  });

  it('starts a name once: a no-op while it runs, ExecutionAlreadyExists once it has ended', async () => {
    const { workflow, tasks } = setup();
    const waiting = workflow.waitFor('ord_7-0');
    await workflow.start('ord_7-0', { id: 'ord_7' });
    await workflow.start('ord_7-0', { id: 'ord_7' });
    await expect(workflow.start('ord_7-0', { id: 'other' })).rejects.toMatchObject({
      name: 'ExecutionAlreadyExists',
    });
    expect((await waiting).status).toBe('SUCCEEDED');
    expect(tasks()).toStrictEqual(['Fetch', 'Deliver']);
    await expect(workflow.start('ord_7-0', { id: 'ord_7' })).rejects.toMatchObject({
      name: 'ExecutionAlreadyExists',
    });
    await expect(workflow.start('order:ord_7', { id: 'ord_7' })).rejects.toMatchObject({
      name: 'InvalidName',
    });
    expect(workflow.executions().map((e) => e.name)).toStrictEqual(['ord_7-0']);
  });

  it('refuses a definition with a task it has no handler for', () => {
    expect(
      () =>
        new LocalWorkflow({
          definition: {
            StartAt: 'A',
            States: { A: { Type: 'Task', Resource: sub('NowhereArn'), End: true } },
          },
        }),
    ).toThrow(/no handler for \$\{NowhereArn\}/);
  });

  it('loads the fulfilment workflow and maps every task to its handler module', () => {
    expect(() => new LocalWorkflow()).not.toThrow();
  });

  it('builds each task module’s handler with the ports it is given (createHandler), as the local stack does', async () => {
    const transitions: unknown[] = [];
    const order = { id: 'ord_9', status: 'pending', delivery: { method: 'email' } };
    const ports = {
      orders: {
        get: async (id: string) => (id === order.id ? order : undefined),
        transition: async (id: string, transition: unknown) => {
          transitions.push([id, transition]);
          return true;
        },
      },
      now: () => new Date('2026-11-21T01:02:03.456Z'),
    };
    const workflow = new LocalWorkflow({
      definition: {
        StartAt: 'MarkProcessing',
        States: {
          MarkProcessing: {
            Type: 'Task',
            Resource: sub('MarkProcessingArn'),
            ResultPath: '$.order',
            End: true,
          },
        },
      },
      ports,
    });
    await workflow.start('ord_9', { kind: 'order', id: 'ord_9' });
    const execution = await workflow.waitFor('ord_9');
    expect(execution.status).toBe('SUCCEEDED');
    expect(execution.output).toStrictEqual({
      kind: 'order',
      id: 'ord_9',
      order: { deliveryMethod: 'email', finished: false },
    });
    expect(transitions).toStrictEqual([
      ['ord_9', { from: ['pending'], to: 'processing', at: '2026-11-21T01:02:03Z' }],
    ]);
  });
});
