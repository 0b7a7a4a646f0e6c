import type { LocalControlRoute } from '../../kernel/capability-local.ts';
import type { LocalOrders } from './stand-ins.ts';
import type { ExecutionRecord } from './workflow.ts';

const summary = ({ history: _history, ...rest }: ExecutionRecord) => rest;

/**
 * Local-only control of the fulfilment tier, for tests and demos (the stack serves the event bus's
 * and the outbox's, local/control.ts):
 *
 * - `GET /__local/executions[?id=]`: workflow executions (of one order or search), without history
 * - `GET /__local/executions/<name>[?wait=ms]`: one with its history; `wait` waits for its end (504 past it)
 * - `/__local/workflow`: GET faults, POST `{crashAfter: state}`, DELETE clears
 * - `GET /__local/queue`: the fulfilment queue's state
 * - `POST /__local/queue/redeliver {message}`: delivers a message again, answers once it is consumed or dead-lettered
 * - `POST /__local/sweep`: runs the sweeper now
 */
export const orderControl = (orders: LocalOrders): LocalControlRoute[] => [
  {
    pattern: /^\/__local\/executions\/?$/,
    methods: {
      GET: ({ url }) => {
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
      GET: async ({ url, params: [name = ''] }) => {
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
      GET: () => [200, orders.workflow.faults()],
      POST: ({ body }) => {
        if (typeof body.crashAfter !== 'string') return [400, { error: 'crashAfter: a state name' }];
        try {
          orders.workflow.crashAfter(body.crashAfter);
        } catch (error) {
          return [400, { error: (error as Error).message }];
        }
        return [200, orders.workflow.faults()];
      },
      DELETE: () => {
        orders.workflow.clearFaults();
        return [200, orders.workflow.faults()];
      },
    },
  },
  {
    pattern: /^\/__local\/queue\/?$/,
    methods: { GET: () => [200, orders.queue.state()] },
  },
  {
    pattern: /^\/__local\/queue\/redeliver\/?$/,
    methods: {
      POST: async ({ body }) => {
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
    methods: { POST: async () => [200, await orders.sweep()] },
  },
];
