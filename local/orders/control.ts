import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http-body.ts';
import type { LocalOrders } from './stand-ins.ts';
import type { ExecutionRecord } from './workflow.ts';

/**
 * Local-only control of the asynchronous tier, for tests and demos:
 *
 * - `GET /__local/events`: events published, in order
 * - `GET /__local/executions[?id=]`: workflow executions (of one order or search), without history
 * - `GET /__local/executions/<name>[?wait=ms]`: one with its history; `wait` waits for its end (504 past it)
 * - `/__local/workflow`: GET faults, POST `{crashAfter: state}`, DELETE clears
 * - `GET /__local/queue`: the fulfilment queue's state
 * - `POST /__local/queue/redeliver {message}`: delivers a message again, answers once it is consumed or dead-lettered
 * - `POST /__local/sweep`: runs the sweeper now
 * - `GET /__local/outbox`: messages sent
 *
 * Returns false for any other path.
 */
export async function handleOrderControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  orders: LocalOrders,
): Promise<boolean> {
  const route = ROUTES.find((r) => r.pattern.test(url.pathname));
  if (!route) return false;
  const handler = route.methods[req.method ?? 'GET'];
  if (!handler) {
    reply(res, 405, { error: `${req.method} is not supported on ${url.pathname}` });
    return true;
  }
  try {
    const raw =
      req.method === 'POST' ? await readBody(req, 1024 * 1024, () => new Error('body too large')) : null;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw ?? '{}');
    } catch {
      reply(res, 400, { error: 'the body is not JSON' });
      return true;
    }
    const params = route.pattern.exec(url.pathname)?.slice(1).map(decodeURIComponent) ?? [];
    const [status, answer] = await handler({ orders, url, body, params });
    reply(res, status, answer);
  } catch (error) {
    reply(res, 500, { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
  return true;
}

interface ControlRequest {
  orders: LocalOrders;
  url: URL;
  body: Record<string, unknown>;
  params: string[];
}
type Answer = [status: number, body: unknown];
type ControlHandler = (request: ControlRequest) => Promise<Answer> | Answer;

const summary = ({ history: _history, ...rest }: ExecutionRecord) => rest;

const ROUTES: { pattern: RegExp; methods: Record<string, ControlHandler> }[] = [
  {
    pattern: /^\/__local\/events\/?$/,
    methods: { GET: ({ orders }) => [200, { events: orders.events.list() }] },
  },
  {
    pattern: /^\/__local\/executions\/?$/,
    methods: {
      GET: ({ orders, url }) => {
        const id = url.searchParams.get('id');
        const all = orders.workflow.executions();
        const chosen = id ? all.filter((e) => (e.input as { id?: unknown } | null)?.id === id) : all;
        return [200, { executions: chosen.map(summary) }];
      },
    },
  },
  {
    pattern: /^\/__local\/executions\/([^/]+)\/?$/,
    methods: {
      GET: async ({ orders, url, params: [name = ''] }) => {
        const wait = url.searchParams.get('wait');
        if (wait === null) {
          const execution = orders.workflow.execution(name);
          return execution ? [200, execution] : [404, { error: `no execution named ${name}` }];
        }
        try {
          return [200, await orders.workflow.waitFor(name, Number(wait) || 20_000)];
        } catch (error) {
          return [
            504,
            { error: (error as Error).message, execution: orders.workflow.execution(name) ?? null },
          ];
        }
      },
    },
  },
  {
    pattern: /^\/__local\/workflow\/?$/,
    methods: {
      GET: ({ orders }) => [200, orders.workflow.faults()],
      POST: ({ orders, body }) => {
        if (typeof body.crashAfter !== 'string') return [400, { error: 'crashAfter: a state name' }];
        try {
          orders.workflow.crashAfter(body.crashAfter);
        } catch (error) {
          return [400, { error: (error as Error).message }];
        }
        return [200, orders.workflow.faults()];
      },
      DELETE: ({ orders }) => {
        orders.workflow.clearFaults();
        return [200, orders.workflow.faults()];
      },
    },
  },
  {
    pattern: /^\/__local\/queue\/?$/,
    methods: { GET: ({ orders }) => [200, orders.queue.state()] },
  },
  {
    pattern: /^\/__local\/queue\/redeliver\/?$/,
    methods: {
      POST: async ({ orders, body }) => {
        const message = body.message;
        if (!message || (typeof message !== 'object' && typeof message !== 'string'))
          return [400, { error: 'message: the message body to deliver again' }];
        const outcome = await orders.queue.redeliver(
          message as Parameters<LocalOrders['queue']['redeliver']>[0],
        );
        return [200, { outcome, queue: orders.queue.state() }];
      },
    },
  },
  {
    pattern: /^\/__local\/sweep\/?$/,
    methods: { POST: async ({ orders }) => [200, await orders.sweep()] },
  },
  {
    pattern: /^\/__local\/outbox\/?$/,
    methods: { GET: async ({ orders }) => [200, { messages: await orders.outbox.list() }] },
  },
];

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
