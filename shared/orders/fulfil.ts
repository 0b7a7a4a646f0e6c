/**
 * The fulfilment workflow's steps (lib/workflows/fulfilment.asl.json), one function per Task.
 * Each is safe to run again: a retried task or a restarted execution finds what an earlier run
 * recorded (image request ids by batch, the stored PDF, the dispatch, the outcome and its event)
 * and does not ask the registry, bill, send or publish a second time.
 */
import { createHash } from 'node:crypto';
import { presentCompanyMatch } from '../company/presenters.ts';
import { toTimestamp } from '../domain/clock.ts';
import { errorCodeForRegistryCode } from '../errors/catalogue.ts';
import type { FeeEntry } from '../ports/extracts.ts';
import type {
  BlobStore,
  EventPublisher,
  Mailer,
  OfflineSearchRecord,
  OfflineSearchStore,
  OrderFailure,
  OrderRecord,
  OrderStore,
  OwedEvent,
} from '../ports/orders.ts';
import { type Registry, type RegistryCaller, RegistryRejection } from '../ports/registry.ts';
import { compileOrderPdf } from './pdf.ts';
import { presentOfflineSearch, presentOrderForEvent, registryRequestIdsOf } from './present.ts';
import { encodeOfflineResults, offlineResultsCsv, offlineResultsKey, readOfflineResults } from './results.ts';

/** Documents per registry image request. */
export const DOCUMENTS_PER_IMAGE_REQUEST = 10;

/** Image polling: 15 s, doubling to 10 minutes, giving up after a day. */
export const IMAGE_POLLING = { firstWaitSeconds: 15, maxWaitSeconds: 600, giveUpAfterSeconds: 24 * 3600 };

export interface FulfilmentDeps {
  now(): Date;
  orders: OrderStore;
  searches: OfflineSearchStore;
  registryFor(environment: OrderRecord['environment']): Registry;
  blobs(): BlobStore;
  mailer(): Mailer;
  events(): EventPublisher;
  apiBaseUrl: string;
}

export interface WorkflowInput {
  kind: 'order' | 'offline_search';
  id: string;
}

export interface PollState {
  state: 'waiting' | 'ready' | 'failed';
  attempt: number;
  waitSeconds: number;
  /** Seconds waited so far, to give up after a day. */
  waitedSeconds: number;
  /** Documents the registry reported without an image. */
  unavailable: string[];
  failure?: OrderFailure;
}

/** The error names the state machine's Retry and Catch rules match. */
export class StepFailure extends Error {
  readonly failure: OrderFailure;
  constructor(name: 'RegistryRejected' | 'RegistryUnavailable', failure: OrderFailure) {
    // The message carries the failure: Step Functions passes only the name and message on.
    super(JSON.stringify(failure));
    this.name = name;
    this.failure = failure;
  }
}

const TRANSIENT_REGISTRY_CODES = new Set(['ZZ51', 'ZZ53']);
/** The registry's "could not retrieve the images" (an image request, or one document of it). */
const IMAGE_UNAVAILABLE = 'DI58';

/** A registry failure as the state machine sees it: transient ones are retried, others end the order. */
export function asStepFailure(error: unknown): unknown {
  if (error instanceof RegistryRejection) {
    const failure: OrderFailure = {
      code: errorCodeForRegistryCode(error.registryCode) ?? 'registry_application_error',
      registryCode: error.registryCode,
      message: error.message,
    };
    return new StepFailure(
      TRANSIENT_REGISTRY_CODES.has(error.registryCode) ? 'RegistryUnavailable' : 'RegistryRejected',
      failure,
    );
  }
  if (error instanceof Error && error.name === 'RegistryUnreachable') {
    return new StepFailure('RegistryUnavailable', {
      code: 'registry_unavailable',
      registryCode: null,
      message: 'The registry did not answer.',
    });
  }
  return error;
}

async function registryCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asStepFailure(error);
  }
}

const callerOf = (record: { accountId: string; requestId: string; clientReference: string | null }) =>
  ({
    accountId: record.accountId,
    requestId: record.requestId,
    clientReference: record.clientReference,
  }) satisfies RegistryCaller;

async function loadOrder(deps: FulfilmentDeps, id: string): Promise<OrderRecord> {
  const order = await deps.orders.get(id);
  if (!order) throw new Error(`order ${id} does not exist`);
  return order;
}

async function loadSearch(deps: FulfilmentDeps, id: string): Promise<OfflineSearchRecord> {
  const search = await deps.searches.get(id);
  if (!search) throw new Error(`offline search ${id} does not exist`);
  return search;
}

const isFinished = (status: string) => status === 'ready' || status === 'delivered' || status === 'failed';

/** Documents with an image, in order; batch `i` of image requests holds the i-th group of 10. */
const imageBatches = (order: OrderRecord) => {
  const available = order.documents.filter((document) => document.imageAvailable);
  const batches: (typeof available)[] = [];
  for (let i = 0; i < available.length; i += DOCUMENTS_PER_IMAGE_REQUEST) {
    batches.push(available.slice(i, i + DOCUMENTS_PER_IMAGE_REQUEST));
  }
  return batches;
};

export const SIMULATED_FAILURE: OrderFailure = {
  code: 'images_unavailable',
  registryCode: 'DI58',
  message: 'Sandbox: X-Sandbox-Simulate order_failed made this order fail as a registry failure would.',
};

// ---- steps ----------------------------------------------------------------------------------

/** pending → processing. Tells the workflow the delivery method, and whether there is nothing left to do. */
export async function markProcessing(deps: FulfilmentDeps, input: WorkflowInput) {
  const order = await loadOrder(deps, input.id);
  if (order.status === 'pending') {
    await deps.orders.transition(order.id, {
      from: ['pending'],
      to: 'processing',
      at: toTimestamp(deps.now()),
    });
  }
  return { deliveryMethod: order.delivery.method, finished: isFinished(order.status) };
}

/** One image request per 10 documents, each recorded under its batch index before the next. */
export async function requestImages(deps: FulfilmentDeps, input: WorkflowInput): Promise<PollState> {
  const order = await loadOrder(deps, input.id);
  if (order.simulateFailure) throw new StepFailure('RegistryRejected', SIMULATED_FAILURE);
  const registry = deps.registryFor(order.environment);
  const batches = imageBatches(order);
  for (const [index, batch] of batches.entries()) {
    if (order.imageRequests[String(index)]) continue;
    const { registryRequestId } = await registryCall(() =>
      registry.requestImages(
        {
          clientKey: `${order.id}#${index}`,
          documents: batch.map((document) => ({
            documentNumber: document.documentNumber,
            pages: document.pages,
          })),
        },
        callerOf(order),
      ),
    );
    await deps.orders.recordImageRequest(order.id, index, registryRequestId);
  }
  return {
    state: batches.length === 0 ? 'ready' : 'waiting',
    attempt: 0,
    waitSeconds: IMAGE_POLLING.firstWaitSeconds,
    waitedSeconds: 0,
    unavailable: [],
  };
}

/** Asks the registry where each image request stands; waits longer each time, up to a day. */
export async function checkImages(
  deps: FulfilmentDeps,
  input: WorkflowInput & { poll: PollState },
): Promise<PollState> {
  const order = await loadOrder(deps, input.id);
  const registry = deps.registryFor(order.environment);
  const waitedSeconds = input.poll.waitedSeconds + input.poll.waitSeconds;
  // Touching the order tells the sweeper this run is alive (see shared/orders/sweep.ts).
  await deps.orders.update(order.id, { updatedAt: toTimestamp(deps.now()) });
  const statuses = await Promise.all(
    registryRequestIdsOf(order).map((id) =>
      registryCall(() => registry.getImageRequest(id, callerOf(order))),
    ),
  );
  const failed = statuses.find((status) => status.status === 'failed');
  const base = { attempt: input.poll.attempt + 1, waitedSeconds, unavailable: [] as string[] };
  const failure = (registryCode: string | null, message: string): PollState => ({
    ...base,
    state: 'failed',
    waitSeconds: 0,
    failure: { code: 'images_unavailable', registryCode, message },
  });
  if (failed) {
    return failure(
      failed.failure?.registryCode ?? null,
      failed.failure?.message ?? `The registry could not fulfil image request ${failed.registryRequestId}.`,
    );
  }
  if (statuses.every((status) => status.status === 'complete')) {
    const unavailable = statuses.flatMap((status) =>
      status.documents.filter((document) => !document.available).map((document) => document.documentNumber),
    );
    const notices = unavailable.map(
      (number) => `The registry could not produce the image of document ${number}; it is not included.`,
    );
    if (notices.length > 0)
      await deps.orders.update(order.id, { notices, updatedAt: toTimestamp(deps.now()) });
    return { ...base, state: 'ready', waitSeconds: 0, unavailable };
  }
  if (waitedSeconds >= IMAGE_POLLING.giveUpAfterSeconds) {
    return failure(null, 'The registry had not produced the images after 24 hours.');
  }
  return {
    ...base,
    state: 'waiting',
    waitSeconds: Math.min(IMAGE_POLLING.firstWaitSeconds * 2 ** base.attempt, IMAGE_POLLING.maxWaitSeconds),
  };
}

export const orderPdfKey = (orderId: string) => `orders/${orderId}.pdf`;

/** The cover page and every available image in one PDF, stored once. */
export async function compilePdf(deps: FulfilmentDeps, input: WorkflowInput & { poll?: PollState }) {
  const order = await loadOrder(deps, input.id);
  const key = orderPdfKey(order.id);
  const blobs = deps.blobs();
  if (order.pdfKey === key && (await blobs.exists(key))) return { key, compiled: false };
  const registry = deps.registryFor(order.environment);
  const unavailable = new Set(input.poll?.unavailable ?? []);
  const requestOf = new Map<string, string>();
  for (const [index, batch] of imageBatches(order).entries()) {
    for (const document of batch)
      requestOf.set(document.documentNumber, order.imageRequests[String(index)] as string);
  }
  const company = order.company as { name: string; formatted: string; numberType?: { code: string } } | null;
  const { bytes, imagesMissing } = await compileOrderPdf({
    orderId: order.id,
    title: order.type === 'charges_extract' ? 'Charges extract' : 'Document images',
    createdAt: order.createdAt,
    company: company
      ? { name: company.name, formatted: `${company.numberType?.code ?? 'ACN'} ${company.formatted}` }
      : null,
    documents: order.documents.map((document) =>
      unavailable.has(document.documentNumber) ? { ...document, imageAvailable: false } : document,
    ),
    notices: order.notices,
    images: async (documentNumber) => {
      const requestId = requestOf.get(documentNumber);
      if (!requestId || unavailable.has(documentNumber)) return undefined;
      const pages =
        order.documents.find((document) => document.documentNumber === documentNumber)?.pages ?? null;
      try {
        return await registry.getImages(requestId, documentNumber, callerOf(order), pages);
      } catch (error) {
        // The registry could not retrieve this one image: the order goes on without it, noted.
        if (error instanceof RegistryRejection && error.registryCode === IMAGE_UNAVAILABLE) return undefined;
        throw asStepFailure(error);
      }
    },
  });
  await blobs.put(key, bytes, 'application/pdf');
  await deps.orders.update(order.id, {
    pdfKey: key,
    notices: imagesMissing.map(
      (number) => `The registry returned no image for document ${number}; it is not included.`,
    ),
    updatedAt: toTimestamp(deps.now()),
  });
  return { key, compiled: true };
}

const emailText = (order: OrderRecord) =>
  [
    `Your ${order.type === 'charges_extract' ? 'charges extract' : 'document image'} order ${order.id} is attached as a PDF.`,
    ...(order.company ? [`Company: ${(order.company as { name: string }).name}`] : []),
    ...order.notices.map((notice) => `Note: ${notice}`),
    '',
    'Company Register Data Service',
  ].join('\n');

/** Emails the PDF; the mailer sends a key once. */
export async function sendEmail(deps: FulfilmentDeps, input: WorkflowInput) {
  const order = await loadOrder(deps, input.id);
  if (isFinished(order.status) || order.dispatchedAt) return { sent: false };
  const pdf = order.pdfKey ? await deps.blobs().get(order.pdfKey) : undefined;
  if (!pdf) throw new Error(`order ${order.id} has no compiled PDF to email`);
  await deps.mailer().send({
    to: order.delivery.email as string,
    subject: `Your order ${order.id}`,
    text: emailText(order),
    attachments: [{ filename: `${order.id}.pdf`, contentType: 'application/pdf', content: pdf }],
    idempotencyKey: `${order.id}#email`,
  });
  await deps.orders.update(order.id, {
    dispatchedAt: toTimestamp(deps.now()),
    updatedAt: toTimestamp(deps.now()),
  });
  return { sent: true };
}

/** Hands the documents to the registry's postal service (one dispatch per order, keyed by its id). */
export async function handOverForPost(deps: FulfilmentDeps, input: WorkflowInput) {
  const order = await loadOrder(deps, input.id);
  const { delivery } = order;
  const { dispatchId } = await registryCall(() =>
    deps.registryFor(order.environment).requestPostalDelivery(
      {
        clientKey: `${order.id}#post`,
        registryRequestIds: registryRequestIdsOf(order),
        recipient: delivery.recipient as string,
        address: delivery.address as string,
        postcode: delivery.postcode as string,
        contactName: delivery.contactName as string,
        contactPhone: delivery.contactPhone as string,
      },
      callerOf(order),
    ),
  );
  return { dispatchId };
}

/** Runs the search (once: its results are kept), then emails them when asked. */
export async function runOfflineSearch(deps: FulfilmentDeps, input: WorkflowInput) {
  const search = await loadSearch(deps, input.id);
  if (isFinished(search.status)) return { resultCount: search.resultCount };
  if (search.status === 'pending') {
    await deps.searches.transition(search.id, {
      from: ['pending'],
      to: 'processing',
      at: toTimestamp(deps.now()),
    });
  }
  if (search.simulateFailure) throw new StepFailure('RegistryRejected', SIMULATED_FAILURE);
  const blobs = deps.blobs();
  const key = offlineResultsKey(search.id);
  let matches: Record<string, unknown>[];
  if (await blobs.exists(key)) {
    matches = await readOfflineResults(blobs, key);
  } else {
    const found = await registryCall(() =>
      deps.registryFor(search.environment).searchCompaniesOffline(
        { name: search.q, scope: search.scope as 'current' | 'all' },
        callerOf(search),
        // The search id keys the registry's search: a step retried after a lost answer is not billed again.
        search.id,
      ),
    );
    matches = found.matches.map(presentCompanyMatch);
    await blobs.put(key, encodeOfflineResults(matches), 'application/json');
  }
  if (search.delivery.method === 'email') {
    await deps.mailer().send({
      to: search.delivery.email,
      subject: `Offline search ${search.id}: ${matches.length} companies matching ${search.q}`,
      text: `Your offline name search for "${search.q}" (scope ${search.scope}) found ${matches.length} companies. They are attached as CSV.\n\nCompany Register Data Service`,
      attachments: [
        {
          filename: `${search.id}.csv`,
          contentType: 'text/csv',
          content: new Uint8Array(Buffer.from(offlineResultsCsv(matches))),
        },
      ],
      idempotencyKey: `${search.id}#email`,
    });
  }
  return { resultCount: matches.length };
}

// ---- outcomes -------------------------------------------------------------------------------

export interface FinishInput extends WorkflowInput {
  outcome: 'ready' | 'delivered' | 'failed';
  /** The execution's state when the outcome was chosen: a failure is read from it. */
  state: { error?: { Error?: string; Cause?: string }; poll?: PollState };
}

/** Same id for the same outcome of the same order, however often it is written. */
const eventIdFor = (id: string, type: string) =>
  `evt_${createHash('sha256').update(`${id}#${type}`).digest('hex').slice(0, 24)}`;

/** Reads the failure a Catch passed on: ours (StepFailure) or anything else that ended the run. */
export function failureFromState(state: FinishInput['state']): OrderFailure {
  if (state.poll?.failure) return state.poll.failure;
  const cause = state.error?.Cause ?? '';
  let message = cause;
  try {
    // Lambda wraps the thrown error as {errorType, errorMessage, trace}.
    const wrapped = JSON.parse(cause) as { errorMessage?: string };
    if (typeof wrapped.errorMessage === 'string') message = wrapped.errorMessage;
  } catch {
    // A plain message.
  }
  try {
    const failure = JSON.parse(message) as OrderFailure;
    if (typeof failure.code === 'string' && typeof failure.message === 'string') return failure;
  } catch {
    // Not one of ours.
  }
  return {
    code: 'fulfilment_failed',
    registryCode: null,
    message: 'The order could not be fulfilled. It has not been billed.',
  };
}

/** The fees of a failed order, cancelled: same product and code, negative quantity. */
const voidsOf = (fees: readonly FeeEntry[], at: string): FeeEntry[] =>
  fees.filter((fee) => fee.billable).map((fee) => ({ ...fee, at, quantity: -fee.quantity }));

async function publishOwed(
  deps: FulfilmentDeps,
  record: { id: string; accountId: string; environment: string; event: OwedEvent | null },
  data: Record<string, unknown>,
  markPublished: (at: string) => Promise<void>,
) {
  const event = record.event;
  if (!event || event.publishedAt) return;
  await deps.events().publish({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    livemode: record.environment === 'live',
    accountId: record.accountId,
    data,
  });
  await markPublished(toTimestamp(deps.now()));
}

async function finishOrder(deps: FulfilmentDeps, input: FinishInput) {
  const at = toTimestamp(deps.now());
  const order = await loadOrder(deps, input.id);
  if (!isFinished(order.status)) {
    const failed = input.outcome === 'failed';
    const type = failed ? 'order.failed' : 'order.ready';
    await deps.orders.transition(order.id, {
      from: ['pending', 'processing'],
      to: input.outcome,
      at,
      set: failed ? { failure: failureFromState(input.state) } : { readyAt: at },
      event: { id: eventIdFor(order.id, type), type, createdAt: at, publishedAt: null },
      ...(failed ? { fees: voidsOf(order.fees, at) } : {}),
    });
  }
  const finished = await loadOrder(deps, input.id);
  await publishOwed(deps, finished, presentOrderForEvent(finished, deps.apiBaseUrl), (publishedAt) =>
    deps.orders.markEventPublished(finished.id, publishedAt),
  );
  return { status: finished.status };
}

async function finishOfflineSearch(deps: FulfilmentDeps, input: FinishInput) {
  const at = toTimestamp(deps.now());
  const search = await loadSearch(deps, input.id);
  if (!isFinished(search.status)) {
    if (input.outcome === 'failed') {
      // There is no offline_search.failed event: the search shows the failure when read.
      await deps.searches.transition(search.id, {
        from: ['pending', 'processing'],
        to: 'failed',
        at,
        set: { failure: failureFromState(input.state) },
        fees: voidsOf(search.fees, at),
      });
    } else {
      const key = offlineResultsKey(search.id);
      const results = await readOfflineResults(deps.blobs(), key);
      const type = 'offline_search.ready';
      await deps.searches.transition(search.id, {
        from: ['pending', 'processing'],
        to: 'ready',
        at,
        set: { readyAt: at, resultsKey: key, resultCount: results.length },
        event: { id: eventIdFor(search.id, type), type, createdAt: at, publishedAt: null },
      });
    }
  }
  const finished = await loadSearch(deps, input.id);
  await publishOwed(deps, finished, presentOfflineSearch(finished, deps.apiBaseUrl), (publishedAt) =>
    deps.searches.markEventPublished(finished.id, publishedAt),
  );
  return { status: finished.status };
}

/**
 * Writes the outcome (with the event it owes, and for a failure the voids of its fees) once,
 * then publishes the event unless it was published already. A run that stops between the two
 * publishes on its retry, with the same event id, which subscribers deduplicate on.
 */
export const finish = (deps: FulfilmentDeps, input: FinishInput) =>
  input.kind === 'offline_search' ? finishOfflineSearch(deps, input) : finishOrder(deps, input);
