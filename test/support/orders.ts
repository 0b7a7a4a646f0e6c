/**
 * The local stack's control endpoints for the asynchronous tier (shared/orders/local/control.ts, local/control.ts):
 * events published, workflow executions and their histories, the fulfilment queue, the
 * sweeper and the outbox.
 */

import type { OutboxEntry } from '../../local/outbox-mailer.ts';
import type { DeliveryOutcome, QueueState } from '../../local/queue.ts';
import type { ExecutionRecord, ExecutionSummary, HistoryEvent } from '../../shared/orders/local/workflow.ts';
import type { FulfilmentMessage } from '../../shared/orders/store-port.ts';
import type { ServiceEvent } from '../../shared/webhooks/event-port.ts';
import { call, type FeeEntryBody, type Meta } from './api.ts';
import { localStack } from './stack.ts';

export type { ExecutionRecord, ExecutionSummary, HistoryEvent, OutboxEntry, QueueState };

const baseUrl = localStack.baseUrl;

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/__local${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /__local${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Every event published so far, in order. */
export const publishedEvents = async () =>
  (await control<{ events: ServiceEvent[] }>('GET', '/events')).events;

/** Workflow executions (without history), of one order or offline search when `id` is given. */
export const executions = async (filter: { id?: string } = {}) =>
  (
    await control<{ executions: ExecutionSummary[] }>(
      'GET',
      `/executions${filter.id ? `?id=${encodeURIComponent(filter.id)}` : ''}`,
    )
  ).executions;

/** An execution with its history. */
export const execution = (name: string) =>
  control<ExecutionRecord>('GET', `/executions/${encodeURIComponent(name)}`);

export const executionHistory = async (name: string): Promise<HistoryEvent[]> =>
  (await execution(name)).history;

/** The execution once it has ended (it may not have started yet); throws past `timeoutMs`. */
export const waitForExecution = (name: string, timeoutMs = 20_000) =>
  control<ExecutionRecord>('GET', `/executions/${encodeURIComponent(name)}?wait=${timeoutMs}`);

/** The next execution leaving `state` is aborted right after it, as if its run crashed (once). */
export async function crashAfter(state: string): Promise<void> {
  await control('POST', '/workflow', { crashAfter: state });
}

export async function clearCrash(): Promise<void> {
  await control('DELETE', '/workflow');
}

/** Delivers `message` to the starter again, as SQS may; resolves once it is consumed or dead-lettered. */
export const redeliver = (message: FulfilmentMessage) =>
  control<{ outcome: DeliveryOutcome; queue: QueueState }>('POST', '/queue/redeliver', { message });

export const queueState = () => control<QueueState>('GET', '/queue');

/** Runs the sweeper now, as its schedule would. */
export const runSweeper = () => control<{ restarted: number }>('POST', '/sweep');

/** Messages the mailer sent, oldest first (each with the folder of its .eml and attachments). */
export const outbox = async () => (await control<{ messages: OutboxEntry[] }>('GET', '/outbox')).messages;

export interface OrderDocumentBody {
  documentNumber: string;
  formCode: string;
  pageCount: number;
  pages?: { from: number; to: number } | null;
}

/** The order object as the API shows it. */
export interface OrderBody {
  object: 'order';
  id: string;
  type: string;
  status: string;
  company: Record<string, unknown> | null;
  documents: OrderDocumentBody[];
  delivery: Record<string, string | null>;
  downloadUrl: string | null;
  downloadExpiresAt: string | null;
  registryRequestIds: string[];
  notices: string[];
  extractSize: string;
  pageCount: number;
  clientReference: string | null;
  createdAt: string;
  readyAt: string | null;
  failure?: { code: string; registryCode: string | null; message: string };
  meta: Meta;
}

export interface UsageBody {
  data: FeeEntryBody[];
  totals: { product: string; feeCode: string | null; billable: boolean; quantity: number; entries: number }[];
}

/** An order as events carry it (spec 6.2; shared/orders/present.ts presentOrderForEvent), from the order a GET showed. */
export function eventView(order: Omit<OrderBody, 'meta'> & { meta?: Meta }) {
  return {
    object: order.object,
    id: order.id,
    type: order.type,
    status: order.status,
    documents: order.documents,
    delivery: { method: order.delivery.method, email: order.delivery.email ?? null },
    downloadUrl: order.downloadUrl,
    registryRequestIds: order.registryRequestIds,
    createdAt: order.createdAt,
    readyAt: order.readyAt,
    ...(order.failure ? { failure: order.failure } : {}),
  };
}

/**
 * An order or offline search (its GET at `path`) once its run has ended and it shows a final
 * status (`ready`, `delivered` or `failed`); throws past the bounded wait.
 */
export async function settledResource<T extends { id: string; status: string }>(
  secret: string,
  path: string,
): Promise<T> {
  const started = await call<T>(path, { key: secret });
  await waitForExecution(started.body.id, 25_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await call<T>(path, { key: secret });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
    if (['ready', 'delivered', 'failed'].includes(response.body.status)) return response.body;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${path} did not reach a final status`);
}
