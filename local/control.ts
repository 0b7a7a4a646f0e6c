import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalControlRoute } from '../shared/kernel/capability-local.ts';
import type { LocalEventBus } from './event-bus.ts';
import { readBody } from './http-body.ts';
import type { OutboxMailer } from './outbox-mailer.ts';

/** The shared stand-ins' control: `GET /__local/events` (published, in order), `GET /__local/outbox` (mail sent). */
export const standInControl = (bus: LocalEventBus, outbox: OutboxMailer): LocalControlRoute[] => [
  { pattern: /^\/__local\/events\/?$/, methods: { GET: () => [200, { events: bus.list() }] } },
  {
    pattern: /^\/__local\/outbox\/?$/,
    methods: { GET: async () => [200, { messages: await outbox.list() }] },
  },
];

/**
 * Answers a local-only control request (`/__local/…`) with the first of `routes` whose pattern
 * matches its path: 405 for a method it has no handler for, 400 for a body that is not JSON, 500
 * with the error for a handler that throws. Returns false when no route matches.
 */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  routes: readonly LocalControlRoute[],
): Promise<boolean> {
  const route = routes.find((r) => r.pattern.test(url.pathname));
  if (!route) return false;
  const handler = route.methods[(req.method ?? 'GET') as keyof LocalControlRoute['methods']];
  if (!handler) {
    reply(res, 405, { error: `${req.method} is not supported on ${url.pathname}` });
    return true;
  }
  try {
    const raw =
      req.method === 'POST' ? await readBody(req, 1024 * 1024, () => new Error('body too large')) : null;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw || '{}');
    } catch {
      reply(res, 400, { error: 'the body is not JSON' });
      return true;
    }
    const params = route.pattern.exec(url.pathname)?.slice(1).map(decodeURIComponent) ?? [];
    const [status, answer] = await handler({ url, body, params });
    reply(res, status, answer);
  } catch (error) {
    reply(res, 500, { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
  return true;
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
