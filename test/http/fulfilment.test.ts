import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import {
  baseUrl,
  call,
  clock,
  createKey,
  registryCalls,
  registryImageRequests,
  registryPostalDeliveries,
  simulator,
  type TestKey,
} from '../support/api.ts';
import { checkContract } from '../support/contract.ts';
import {
  clearCrash,
  crashAfter,
  eventView,
  executions,
  type HistoryEvent,
  type OrderBody,
  outbox,
  publishedEvents,
  queueState,
  redeliver,
  runSweeper,
  type UsageBody,
  waitForExecution,
} from '../support/orders.ts';

/**
 * Orders and offline searches fulfilled end to end: accepted through the API, run by the local
 * Step Functions workflow (the ASL file unchanged), asserted state by state on the execution
 * history, then on the order, the events, the outbox, the usage ledger and the registry
 * simulator's call log (live keys).
 */

interface SearchBody {
  object: 'offlineSearch';
  id: string;
  status: string;
  resultCount: number | null;
  resultsUrl: string | null;
  readyAt: string | null;
  failure?: { code: string; registryCode: string | null; message: string };
}

const WEB = { method: 'web' } as const;
const POST = {
  method: 'post',
  contactName: 'Jo Citizen',
  contactPhone: '+61 2 9999 0000',
  recipient: 'Citizen & Co Lawyers',
  address: '1 Example Street, Sydney NSW',
  postcode: '2000',
} as const;

/** The states entered, in order: the path the execution took. */
const path = (history: readonly HistoryEvent[]) =>
  history.filter((event) => event.type === 'StateEntered').map((event) => event.state);

/** Every event of one state, as `type` names. */
const eventsOf = (history: readonly HistoryEvent[], state: string) =>
  history.filter((event) => event.state === state).map((event) => event.type);

/** What each visit of `state` passed on (StateExited output), in order. */
const outputsOf = (history: readonly HistoryEvent[], state: string) =>
  history
    .filter((event) => event.type === 'StateExited' && event.state === state)
    .map((event) => event.output as Record<string, unknown>);

const UP_TO_REQUEST = ['ChooseKind', 'MarkProcessing', 'AlreadyFinished', 'RequestImages'];
const MAIN_PATH = [...UP_TO_REQUEST, 'RequestImagesRejected'];
const POLL_ONCE = ['WaitForImages', 'CheckImages', 'ImagesReady'];
const COMPILE = ['CompilePdf', 'CompilePdfRejected'];
const webPath = [...MAIN_PATH, ...POLL_ONCE, ...COMPILE, 'ChooseDelivery', 'MarkReady'];

/** The id Finish gives the event an outcome owes (shared/orders/steps/finish.ts). */
const eventId = (id: string, type: string) =>
  `evt_${createHash('sha256').update(`${id}#${type}`).digest('hex').slice(0, 24)}`;

async function orderCharges(
  key: TestKey,
  company: string,
  delivery: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<OrderBody> {
  const response = await call<OrderBody>(`/v1/companies/${company}/charges/extract-orders`, {
    key: key.secret,
    method: 'POST',
    body: { delivery },
    headers,
  });
  expect(response.status, response.text.slice(0, 500)).toBe(202);
  expect(response.body.status).toBe('pending');
  return response.body;
}

const getOrder = async (key: TestKey, id: string) => {
  const response = await call<OrderBody>(`/v1/orders/${id}`, { key: key.secret });
  expect(response.status, response.text.slice(0, 500)).toBe(200);
  const { meta: _meta, ...order } = response.body;
  return order;
};

/** The execution named `name` once ended, and the order as the API then shows it. */
async function fulfilled(key: TestKey, id: string, name = id) {
  const execution = await waitForExecution(name, 25_000);
  return { execution, order: await getOrder(key, id) };
}

const eventsFor = async (id: string) =>
  (await publishedEvents()).filter((event) => (event.data as { id?: string }).id === id);

const usageOf = async (key: TestKey) => (await call<UsageBody>('/v1/usage', { key: key.secret })).body;

async function download(key: TestKey, id: string) {
  const response = await fetch(`${baseUrl}/v1/orders/${id}/download`, {
    headers: { Authorization: `Bearer ${key.secret}` },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const json = (response.headers.get('content-type') ?? '').includes('json');
  const body: unknown = json ? JSON.parse(Buffer.from(bytes).toString('utf8')) : null;
  checkContract('GET', `/v1/orders/${id}/download`, {
    status: response.status,
    headers: response.headers,
    body,
  });
  return { status: response.status, headers: response.headers, bytes };
}

afterEach(async () => {
  await simulator.clearFaults();
  await clearCrash();
  await clock.reset();
});

describe('web delivery', () => {
  it('ends ready with a download, one image request per 10 documents and one order.ready event', async () => {
    const key = await createKey('test');
    const placed = await orderCharges(key, SANDBOX.mediumChargesExtract, WEB);
    const { execution, order } = await fulfilled(key, placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(execution.name).toBe(placed.id);
    expect(execution.input).toStrictEqual({ kind: 'order', id: placed.id, attempt: 0 });
    expect(path(execution.history)).toStrictEqual(webPath);
    expect(execution.history.filter((e) => ['StateFailed', 'StateRetried'].includes(e.type))).toStrictEqual(
      [],
    );
    const passed = (state: string, field: string) =>
      outputsOf(execution.history, state).map((output) => output[field]);
    expect(passed('MarkProcessing', 'order')).toStrictEqual([{ deliveryMethod: 'web', finished: false }]);
    expect(passed('RequestImages', 'poll')).toStrictEqual([
      { state: 'waiting', attempt: 0, waitSeconds: 15, waitedSeconds: 0, unavailable: [] },
    ]);
    expect(passed('CheckImages', 'poll')).toStrictEqual([
      { state: 'ready', attempt: 1, waitSeconds: 0, waitedSeconds: 15, unavailable: [] },
    ]);

    expect(order.status).toBe('ready');
    expect(order.readyAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(order.downloadUrl).toMatch(new RegExp(`^https?://.+/v1/orders/${placed.id}/download$`));
    expect(order.downloadExpiresAt).toBe(
      new Date(Date.parse(order.readyAt as string) + 7 * 24 * 3600_000).toISOString().replace('.000Z', 'Z'),
    );
    // 12 charges of three documents, every one imaged: 10 documents per registry request.
    expect(order.documents).toHaveLength(36);
    expect(order.registryRequestIds).toHaveLength(4);
    expect(new Set(order.registryRequestIds).size).toBe(4);
    expect(order.pageCount).toBe(240);
    expect(order.notices).toStrictEqual([]);

    const events = await eventsFor(placed.id);
    expect(events).toStrictEqual([
      {
        id: eventId(placed.id, 'order.ready'),
        type: 'order.ready',
        createdAt: order.readyAt,
        livemode: false,
        accountId: key.accountId,
        data: eventView(order),
      },
    ]);

    const file = await download(key, placed.id);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const pdf = await PDFDocument.load(file.bytes, { updateMetadata: false });
    expect(pdf.getTitle()).toBe(`Charges extract ${placed.id}`);
    expect(pdf.getPageCount()).toBe(1 + 240);
  });

  it('leaves out a document whose image is unavailable, and keeps its notice on the order', async () => {
    const key = await createKey('test');
    const placed = await orderCharges(key, SANDBOX.unavailableChargeImage, WEB);
    const notice = placed.notices.find((n) => n.includes(SANDBOX.documents.unavailableCharge));
    expect(notice).toMatch(/^No image is available for document 9E0230002 \(form 309, received /);
    expect(placed.notices).toStrictEqual([notice]);
    const { execution, order } = await fulfilled(key, placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(path(execution.history)).toStrictEqual(webPath);
    expect(order.status).toBe('ready');
    // The notice accepted with the order is still there once it is fulfilled.
    expect(order.notices).toStrictEqual([notice]);
    expect(order.documents.map((d) => [d.formCode, d.pageCount])).toStrictEqual([
      ['309', 3],
      ['312', 2],
      ['309', 2],
      ['312', 1],
    ]);
    expect(order.documents[0]?.documentNumber).toBe(SANDBOX.documents.unavailableCharge);
    // Three documents with an image: one registry request.
    expect(order.registryRequestIds).toHaveLength(1);

    // The cover and the 2 + 2 + 1 pages of the imaged documents; the 3 pages without an image are not compiled.
    const pdf = await PDFDocument.load((await download(key, placed.id)).bytes, { updateMetadata: false });
    expect(pdf.getPageCount()).toBe(1 + 5);
    expect((await eventsFor(placed.id)).map((e) => e.type)).toStrictEqual(['order.ready']);
    // docs/decisions/0046-orders.md: `pageCount` is the pages compiled.
    expect(order.pageCount).toBe(5);
  });
});

describe('email delivery', () => {
  it('ends delivered, with one message carrying the PDF, through SendEmail then MarkDelivered', async () => {
    const key = await createKey('test');
    const email = `fulfil-${randomBytes(4).toString('hex')}@example.com`;
    const placed = await orderCharges(key, SANDBOX.smallChargesExtract, { method: 'email', email });
    const { execution, order } = await fulfilled(key, placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(path(execution.history)).toStrictEqual([
      ...MAIN_PATH,
      ...POLL_ONCE,
      ...COMPILE,
      'ChooseDelivery',
      'SendEmail',
      'MarkDelivered',
    ]);
    expect(order.status).toBe('delivered');
    expect(order.downloadUrl).toBeNull();
    expect(order.delivery).toStrictEqual({
      method: 'email',
      email,
      contactName: null,
      contactPhone: null,
      recipient: null,
      address: null,
      postcode: null,
    });

    const messages = (await outbox()).filter((m) => m.to === email);
    expect(messages).toHaveLength(1);
    const [message] = messages as [(typeof messages)[number]];
    expect(message.idempotencyKey).toBe(`${placed.id}#email`);
    expect(message.subject).toBe(`Your order ${placed.id}`);
    expect(message.attachments).toHaveLength(1);
    const [attachment] = message.attachments as [(typeof message.attachments)[number]];
    expect(attachment).toMatchObject({ filename: `${placed.id}.pdf`, contentType: 'application/pdf' });
    const bytes = await readFile(join(message.folder, attachment.file));
    expect(bytes.byteLength).toBe(attachment.bytes);
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(pdf.getPageCount()).toBe(1 + 5);

    const events = await eventsFor(placed.id);
    expect(events).toStrictEqual([
      {
        id: eventId(placed.id, 'order.ready'),
        type: 'order.ready',
        createdAt: order.readyAt,
        livemode: false,
        accountId: key.accountId,
        data: eventView(order),
      },
    ]);
  });
});

describe('post delivery', () => {
  it('over 500 pages: handed over to the registry once (live key), ends delivered', async () => {
    const key = await createKey('live');
    const placed = await orderCharges(key, SANDBOX.hugeChargesExtract, POST);
    expect(placed.pageCount).toBe(570);
    const { execution, order } = await fulfilled(key, placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(path(execution.history)).toStrictEqual([
      ...MAIN_PATH,
      ...POLL_ONCE,
      ...COMPILE,
      'ChooseDelivery',
      'HandOverForPost',
      'HandOverForPostRejected',
      'MarkDelivered',
    ]);
    expect(order.status).toBe('delivered');
    expect(order.downloadUrl).toBeNull();
    // 30 charges of three documents: 9 registry requests.
    expect(order.documents).toHaveLength(90);
    expect(order.registryRequestIds).toHaveLength(9);
    expect(await registryImageRequests(key.accountId)).toStrictEqual(order.registryRequestIds);

    const handOvers = await registryCalls(key.accountId, 'post.request');
    expect(handOvers).toHaveLength(1);
    expect(handOvers[0]?.clientKey).toBe(`${placed.id}#post`);
    expect(await registryPostalDeliveries(key.accountId)).toHaveLength(1);

    expect(await eventsFor(placed.id)).toStrictEqual([
      {
        id: eventId(placed.id, 'order.ready'),
        type: 'order.ready',
        createdAt: order.readyAt,
        livemode: true,
        accountId: key.accountId,
        data: eventView(order),
      },
    ]);
  });
});

describe('failures', () => {
  it('X-Sandbox-Simulate: order_failed → RequestImages reports the rejection as its result → MarkFailed', async () => {
    const key = await createKey('test');
    const placed = await orderCharges(key, SANDBOX.smallChargesExtract, WEB, {
      'X-Sandbox-Simulate': 'order_failed',
    });
    const { execution, order } = await fulfilled(key, placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(path(execution.history)).toStrictEqual([...MAIN_PATH, 'MarkFailed', 'Done']);
    expect(eventsOf(execution.history, 'RequestImages')).toStrictEqual(['StateEntered', 'StateExited']);
    expect(execution.history.some((e) => e.type === 'StateFailed')).toBe(false);

    const failure = {
      code: 'images_unavailable',
      registryCode: 'DI58',
      message: 'Sandbox: X-Sandbox-Simulate order_failed made this order fail as a registry failure would.',
    };
    // The failure travels as data in the execution's state, where the Choice after the task reads it.
    expect(outputsOf(execution.history, 'RequestImages').map((output) => output.poll)).toStrictEqual([
      { failure },
    ]);
    expect(order.status).toBe('failed');
    expect(order.failure).toStrictEqual(failure);
    expect(order.readyAt).toBeNull();
    expect(order.downloadUrl).toBeNull();
    expect(order.registryRequestIds).toStrictEqual([]);

    const events = await eventsFor(placed.id);
    expect(events).toStrictEqual([
      {
        id: eventId(placed.id, 'order.failed'),
        type: 'order.failed',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        livemode: false,
        accountId: key.accountId,
        data: eventView(order),
      },
    ]);
    expect((await download(key, placed.id)).status).toBe(409);
  });

  it('an image request the registry fails (live key) → CheckImages reports failed → MarkFailed; fee voided', async () => {
    const key = await createKey('live');
    await simulator.addFault({
      accountId: key.accountId,
      times: 1,
      image: { failure: { code: 'DI58', message: 'The image server lost the documents.' } },
    });
    const placed = await orderCharges(key, SANDBOX.smallChargesExtract, WEB);
    const { execution, order } = await fulfilled(key, placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(path(execution.history)).toStrictEqual([...MAIN_PATH, ...POLL_ONCE, 'MarkFailed', 'Done']);
    expect(outputsOf(execution.history, 'CheckImages').map((output) => output.poll)).toStrictEqual([
      {
        state: 'failed',
        attempt: 1,
        waitSeconds: 0,
        waitedSeconds: 15,
        unavailable: [],
        failure: {
          code: 'images_unavailable',
          registryCode: 'DI58',
          message: 'The image server lost the documents.',
        },
      },
    ]);
    expect(order.status).toBe('failed');
    expect(order.failure).toStrictEqual({
      code: 'images_unavailable',
      registryCode: 'DI58',
      message: 'The image server lost the documents.',
    });
    expect(order.registryRequestIds).toHaveLength(1);
    expect(await registryCalls(key.accountId, 'images.get')).toStrictEqual([]);

    const usage = await usageOf(key);
    expect(usage.data.map((e) => [e.product, e.feeCode, e.quantity, e.billable, e.resourceId])).toStrictEqual(
      [
        ['charges_extract', '955E', 1, true, placed.id],
        ['charges_extract', '955E', -1, true, placed.id],
      ],
    );
    expect(usage.totals).toStrictEqual([
      {
        product: 'charges_extract',
        feeCode: '955E',
        billable: true,
        quantity: 0,
        entries: 2,
        amountCents: 0,
      },
    ]);
    expect((await eventsFor(placed.id)).map((e) => [e.type, e.livemode])).toStrictEqual([
      ['order.failed', true],
    ]);
  });

  it('an image request pending for 3 checks → 4 rounds of WaitForImages and CheckImages, then ready', async () => {
    const key = await createKey('live');
    await simulator.addFault({ accountId: key.accountId, times: 1, image: { pendingChecks: 3 } });
    const placed = await orderCharges(key, SANDBOX.smallChargesExtract, WEB);
    const { execution, order } = await fulfilled(key, placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(path(execution.history)).toStrictEqual([
      ...MAIN_PATH,
      ...POLL_ONCE,
      ...POLL_ONCE,
      ...POLL_ONCE,
      ...POLL_ONCE,
      ...COMPILE,
      'ChooseDelivery',
      'MarkReady',
    ]);
    const polls = outputsOf(execution.history, 'CheckImages').map(
      (output) => output.poll as { state: string; attempt: number; waitSeconds: number },
    );
    expect(polls.map((p) => [p.state, p.attempt, p.waitSeconds])).toStrictEqual([
      ['waiting', 1, 30],
      ['waiting', 2, 60],
      ['waiting', 3, 120],
      ['ready', 4, 0],
    ]);
    expect(order.status).toBe('ready');
    expect(await registryCalls(key.accountId, 'images.status')).toHaveLength(4);
    expect(await registryImageRequests(key.accountId)).toStrictEqual(order.registryRequestIds);
  });
});

describe('a run that stops between steps', () => {
  // crashAfter takes the next execution leaving the state, whichever it is: let other runs end first.
  beforeEach(async () => {
    await expect
      .poll(async () => (await executions()).filter((e) => e.status === 'RUNNING').length, {
        timeout: 25_000,
      })
      .toBe(0);
  });

  it('crash after RequestImages: the redelivered message starts nothing; the sweeper restarts it once', async () => {
    const key = await createKey('live');
    await crashAfter('RequestImages');
    const placed = await orderCharges(key, SANDBOX.mediumChargesExtract, WEB);
    const first = await waitForExecution(placed.id);

    expect(first.status).toBe('ABORTED');
    expect(path(first.history)).toStrictEqual(UP_TO_REQUEST);
    expect(first.history.at(-1)).toMatchObject({
      type: 'ExecutionAborted',
      state: 'RequestImages',
      reason: 'crashAfter',
    });
    const crashed = await getOrder(key, placed.id);
    expect(crashed.status).toBe('processing');
    const batches = 4;
    expect(crashed.registryRequestIds).toHaveLength(batches);

    // SQS delivers the first message again: its execution name exists, nothing starts.
    const again = await redeliver({ kind: 'order', id: placed.id, attempt: 0 });
    expect(again.outcome).toBe('delivered');
    expect((await executions({ id: placed.id })).map((e) => e.name)).toStrictEqual([placed.id]);

    // Unfinished, but touched less than an hour ago: not stalled yet.
    await runSweeper();
    await expect.poll(async () => (await queueState()).inFlight, { timeout: 5_000 }).toBe(0);
    expect((await executions({ id: placed.id })).map((e) => e.name)).toStrictEqual([placed.id]);
    await clock.advance(61 * 60_000);
    const swept = await runSweeper();
    await clock.reset();
    expect(swept.restarted).toBeGreaterThanOrEqual(1);
    const names = () => executions({ id: placed.id }).then((all) => all.map((e) => e.name));
    await expect.poll(names, { timeout: 5_000 }).toHaveLength(2);
    const restartName = (await names()).find((name) => name !== placed.id) as string;
    expect(restartName).toMatch(new RegExp(`^${placed.id}-r\\d+$`));

    const { execution: second, order } = await fulfilled(key, placed.id, restartName);
    expect(second.status).toBe('SUCCEEDED');
    expect(second.input).toMatchObject({ kind: 'order', id: placed.id });
    expect(path(second.history)).toStrictEqual(webPath);
    expect(order.status).toBe('ready');
    expect(order.registryRequestIds).toStrictEqual(crashed.registryRequestIds);

    for (let index = 0; index < batches; index++) {
      const calls = await registryCalls(key.accountId, 'images.request', `${placed.id}#${index}`);
      expect(calls.map((c) => [c.outcome, c.repeated, c.billed])).toStrictEqual([['ok', false, true]]);
    }
    expect(await registryImageRequests(key.accountId)).toStrictEqual(order.registryRequestIds);
    const usage = await usageOf(key);
    expect(usage.data.map((e) => [e.product, e.feeCode, e.quantity, e.resourceId])).toStrictEqual([
      ['charges_extract', '955E', 1, placed.id],
    ]);
    expect((await eventsFor(placed.id)).map((e) => [e.id, e.type])).toStrictEqual([
      [eventId(placed.id, 'order.ready'), 'order.ready'],
    ]);
  });

  it('crash after CompilePdf: the restart neither requests nor compiles again, and publishes once', async () => {
    const key = await createKey('live');
    await crashAfter('CompilePdf');
    const placed = await orderCharges(key, SANDBOX.smallChargesExtract, WEB);
    const first = await waitForExecution(placed.id);
    expect(first.status).toBe('ABORTED');
    expect(path(first.history)).toStrictEqual([...MAIN_PATH, ...POLL_ONCE, 'CompilePdf']);
    expect((await getOrder(key, placed.id)).status).toBe('processing');
    const before = await simulator.calls();
    const ofAccount = (calls: typeof before.calls, operation: string) =>
      calls.filter((c) => c.accountId === key.accountId && c.operation === operation).length;
    expect(ofAccount(before.calls, 'images.request')).toBe(1);
    expect(ofAccount(before.calls, 'images.get')).toBe(placed.documents.length);

    await clock.advance(61 * 60_000);
    await runSweeper();
    await clock.reset();
    await expect
      .poll(() => executions({ id: placed.id }).then((all) => all.length), { timeout: 5_000 })
      .toBe(2);
    const restartName = (await executions({ id: placed.id })).find((e) => e.name !== placed.id)
      ?.name as string;
    const { execution: second, order } = await fulfilled(key, placed.id, restartName);

    expect(second.status).toBe('SUCCEEDED');
    expect(path(second.history)).toStrictEqual(webPath);
    const after = await simulator.calls();
    // The recorded batch is skipped, and the stored PDF is not compiled again (no image fetched).
    expect(ofAccount(after.calls, 'images.request')).toBe(1);
    expect(ofAccount(after.calls, 'images.get')).toBe(placed.documents.length);
    expect(outputsOf(first.history, 'CompilePdf').map((output) => output.pdf)).toStrictEqual([
      { key: `orders/${placed.id}.pdf`, compiled: true },
    ]);
    expect(outputsOf(second.history, 'CompilePdf').map((output) => output.pdf)).toStrictEqual([
      { key: `orders/${placed.id}.pdf`, compiled: false },
    ]);
    expect(order.status).toBe('ready');
    expect((await eventsFor(placed.id)).map((e) => e.type)).toStrictEqual(['order.ready']);
    expect((await download(key, placed.id)).status).toBe(200);
  });

  it('the message of a finished order, delivered again, starts nothing and publishes nothing', async () => {
    const key = await createKey('test');
    const placed = await orderCharges(key, SANDBOX.smallChargesExtract, WEB);
    await fulfilled(key, placed.id);
    const eventsBefore = await publishedEvents();

    const again = await redeliver({ kind: 'order', id: placed.id, attempt: 0 });
    expect(again.outcome).toBe('delivered');
    expect(
      again.queue.deadLetters.filter((l) => JSON.stringify(l.message).includes(placed.id)),
    ).toStrictEqual([]);
    expect((await executions({ id: placed.id })).map((e) => [e.name, e.status])).toStrictEqual([
      [placed.id, 'SUCCEEDED'],
    ]);
    expect(await publishedEvents()).toStrictEqual(eventsBefore);
    expect((await getOrder(key, placed.id)).status).toBe('ready');
  });
});

describe('offline search through the workflow', () => {
  const createSearch = async (key: TestKey, headers: Record<string, string> = {}) => {
    const response = await call<SearchBody>('/v1/companies/search/offline', {
      key: key.secret,
      method: 'POST',
      body: { q: SANDBOX.search.offline, delivery: { method: 'webhook' } },
      headers,
    });
    expect(response.status, response.text.slice(0, 500)).toBe(202);
    return response.body;
  };
  const getSearch = async (key: TestKey, id: string) =>
    (await call<SearchBody>(`/v1/companies/search/offline/${id}`, { key: key.secret })).body;

  it('ChooseKind → RunOfflineSearch → OfflineSearchReady: ready with every match, one event', async () => {
    const key = await createKey('test');
    const placed = await createSearch(key);
    const execution = await waitForExecution(placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(execution.input).toStrictEqual({ kind: 'offline_search', id: placed.id, attempt: 0 });
    expect(path(execution.history)).toStrictEqual([
      'ChooseKind',
      'RunOfflineSearch',
      'RunOfflineSearchRejected',
      'OfflineSearchReady',
    ]);
    const search = await getSearch(key, placed.id);
    expect(search.status).toBe('ready');
    expect(search.resultCount).toBe(SANDBOX.offlineMatches);
    const events = await eventsFor(placed.id);
    expect(events.map((e) => [e.id, e.type, e.livemode])).toStrictEqual([
      [eventId(placed.id, 'offline_search.ready'), 'offline_search.ready', false],
    ]);
  });

  it('a simulated failure (test key) → OfflineSearchFailed: failed, no event', async () => {
    const key = await createKey('test');
    const placed = await createSearch(key, { 'X-Sandbox-Simulate': 'order_failed' });
    const execution = await waitForExecution(placed.id);

    expect(execution.status).toBe('SUCCEEDED');
    expect(path(execution.history)).toStrictEqual([
      'ChooseKind',
      'RunOfflineSearch',
      'RunOfflineSearchRejected',
      'OfflineSearchFailed',
      'Done',
    ]);
    expect(execution.history.some((e) => e.type === 'StateFailed')).toBe(false);
    const search = await getSearch(key, placed.id);
    expect(search.status).toBe('failed');
    expect(search.resultsUrl).toBeNull();
    expect(search.failure).toStrictEqual({
      code: 'images_unavailable',
      registryCode: 'DI58',
      message: 'Sandbox: X-Sandbox-Simulate order_failed made this order fail as a registry failure would.',
    });
    expect(await eventsFor(placed.id)).toStrictEqual([]);
  });

  it('a registry rejection (live key) → OfflineSearchFailed: failed, fee voided, no event', async () => {
    const key = await createKey('live');
    await simulator.addFault({
      accountId: key.accountId,
      operations: ['search.offline'],
      code: 'ZZ02',
      message: 'Offline searches are not enabled for this account.',
    });
    const placed = await createSearch(key);
    const execution = await waitForExecution(placed.id);

    expect(path(execution.history)).toStrictEqual([
      'ChooseKind',
      'RunOfflineSearch',
      'RunOfflineSearchRejected',
      'OfflineSearchFailed',
      'Done',
    ]);
    expect(eventsOf(execution.history, 'RunOfflineSearch')).toStrictEqual(['StateEntered', 'StateExited']);
    const search = await getSearch(key, placed.id);
    expect(search.status).toBe('failed');
    expect(search.failure).toStrictEqual({
      code: 'product_not_enabled',
      registryCode: 'ZZ02',
      message: 'Offline searches are not enabled for this account.',
    });
    expect(await registryCalls(key.accountId, 'search.offline')).toHaveLength(1);
    const usage = await usageOf(key);
    expect(usage.data.map((e) => [e.product, e.feeCode, e.quantity, e.billable])).toStrictEqual([
      ['name_search', '934', 1, true],
      ['name_search', '934', -1, true],
    ]);
    expect(usage.totals).toStrictEqual([
      { product: 'name_search', feeCode: '934', billable: true, quantity: 0, entries: 2, amountCents: 0 },
    ]);
    expect(await eventsFor(placed.id)).toStrictEqual([]);
  });
});
