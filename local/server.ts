import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { AppPorts } from '../shared/app/ports.ts';
import type { LocalControlRoute } from '../shared/kernel/capability-local.ts';
import type { AdjustableClock } from '../shared/kernel/clock.ts';
import { ApiError, errorEnvelope } from '../shared/kernel/errors/api-error.ts';
import type { ErrorType } from '../shared/kernel/errors/catalogue.ts';
import {
  AUTHORIZER_CACHE_SECONDS,
  authorizeToken,
  BEARER_HEADER_PATTERN,
} from '../shared/kernel/http/authorizer.ts';
import {
  AUTHORIZER_UNAVAILABLE,
  type CapacityAnswer,
  FUNCTION_UNAVAILABLE,
} from '../shared/kernel/http/gateway-answers.ts';
import type { LambdaHttpHandler } from '../shared/kernel/http/pipeline.ts';
import { bodyTooLarge, MAX_BODY_BYTES } from '../shared/kernel/http/request.ts';
import type { GrantedRoute } from '../shared/kernel/http/route.ts';
import { SECURITY_HEADERS } from '../shared/kernel/http/security-headers.ts';
import { functionTimeoutMs } from '../shared/kernel/http/time-budget.ts';
import type { ApiKeyRepository } from '../shared/kernel/ports/api-keys.ts';
import { unkeyedRateHeaders } from '../shared/kernel/rate-limit.ts';
import { handleControl } from './control.ts';
import { codeTablesPage } from './docs.ts';
import type { StorageFaults } from './faults.ts';
import { readBody } from './http-body.ts';
import { lambdaContext } from './lambda-context.ts';
import { declaredPortsOnly } from './route-ports.ts';

export interface CompiledRoute {
  route: GrantedRoute;
  pattern: RegExp;
  names: string[];
  handler: LambdaHttpHandler;
}

/**
 * Pages behind the `docsUrl` links the local stack hands out. The API reference (`/docs`), its
 * document and the error reference are routes (shared/docs/routes.ts), served as deployed.
 */
const LOCAL_DOCS: Record<string, () => string> = {
  '/docs/reference/code-tables': codeTablesPage,
};

/** Bodies over the service's limit are 400 `request_too_large`, as in Lambda (shared/kernel/http/request.ts). */
const bodyOf = (req: IncomingMessage) => readBody(req, MAX_BODY_BYTES, bodyTooLarge);

/**
 * The request line and headers together: at most 10,240 bytes, API Gateway REST's limit (Node's
 * default is 16 KB). Beyond it the answer is 400 `request_too_large` (`answerClientError`).
 */
export const MAX_HEADER_BYTES = 10 * 1024;

export function compile(route: GrantedRoute, handler: LambdaHttpHandler): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1] as string);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}/?$`), names, handler };
}

/**
 * Imports each route's handler module, the same file CDK bundles for Lambda, and builds its
 * handler with `createHandler(ports)`: the local stack's ports where Lambda's are AWS's, only
 * those the route declares (local/route-ports.ts).
 */
export async function loadRoutes(routes: readonly GrantedRoute[], ports: AppPorts): Promise<CompiledRoute[]> {
  return Promise.all(
    routes.map(async (route) => {
      const module = (await import(/* @vite-ignore */ `../functions/${route.handler}.ts`)) as {
        createHandler?: (ports: AppPorts) => LambdaHttpHandler;
      };
      if (typeof module.createHandler !== 'function') {
        throw new Error(`functions/${route.handler}.ts exports no createHandler(ports)`);
      }
      return compile(route, module.createHandler(declaredPortsOnly(route, ports)));
    }),
  );
}

/** The API Gateway REST (v1) proxy event for a request, as Lambda would receive it. */
export function toProxyEvent(
  req: IncomingMessage,
  url: URL,
  body: string | null,
  match: { route: GrantedRoute; params: Record<string, string> },
): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    const value = req.rawHeaders[i + 1] as string;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    multiQuery[name] = [...(multiQuery[name] ?? []), value];
  }
  const hasQuery = Object.keys(query).length > 0;
  const requestId = randomUUID();
  return {
    resource: match.route.path,
    path: url.pathname,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: Object.keys(match.params).length > 0 ? match.params : null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: req.method ?? 'GET',
      identity: {
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? null,
      },
      path: url.pathname,
      stage: 'local',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: match.route.path,
    } as APIGatewayProxyEvent['requestContext'],
  };
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number | boolean>,
  body: string | Buffer,
) {
  res.writeHead(status, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])));
  res.end(body);
}

/**
 * An error the server answers itself, as API Gateway does (no route, no well-formed key, a
 * throttled function): no key is looked at. `type` is the envelope's when it is not the
 * catalogue's (a capacity answer, shared/kernel/http/gateway-answers.ts).
 */
function sendError(res: ServerResponse, error: ApiError, docsUrl: string, type?: ErrorType) {
  const requestId = `req_${randomUUID()}`;
  const envelope = errorEnvelope(error, requestId, docsUrl);
  send(
    res,
    error.status,
    {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Request-Id': requestId,
      ...SECURITY_HEADERS,
      ...unkeyedRateHeaders(),
      ...error.headers,
    },
    JSON.stringify(type ? { error: { ...envelope.error, type } } : envelope),
  );
}

/** The gateway's answer to a request its function could not take (a Lambda throttle). */
function sendCapacityAnswer(res: ServerResponse, answer: CapacityAnswer, docsUrl: string) {
  const error = new ApiError(answer.code, { headers: { 'Retry-After': String(answer.retryAfterSeconds) } });
  sendError(res, error, docsUrl, answer.type);
}

/**
 * Requests each route's function is running, against its reserved concurrency: a registry route
 * over `registryConcurrency` is throttled as Lambda would (API Gateway answers
 * `FUNCTION_UNAVAILABLE`), and nothing else is.
 */
class ReservedConcurrency {
  private readonly running = new Map<string, number>();
  constructor(private readonly registryConcurrency: number | undefined) {}

  /** Takes one of the route's instances, or answers false when they are all busy. */
  take(route: GrantedRoute): boolean {
    if (!route.usesRegistry || this.registryConcurrency === undefined) return true;
    const running = this.running.get(route.name) ?? 0;
    if (running >= this.registryConcurrency) return false;
    this.running.set(route.name, running + 1);
    return true;
  }

  give(route: GrantedRoute): void {
    if (!route.usesRegistry || this.registryConcurrency === undefined) return;
    this.running.set(route.name, (this.running.get(route.name) ?? 1) - 1);
  }
}

const BEARER_HEADER = new RegExp(BEARER_HEADER_PATTERN);
/** The method ARN the local stack hands the key authorizer (it allows or denies the whole stage). */
const LOCAL_METHOD_ARN = 'arn:aws:execute-api:local:000000000000:local/local/GET/';

/**
 * The key authorizer as API Gateway runs it in front of a keyed route: the validation expression
 * (401 without a function), then the authorizer's own lookup (401 on its Deny, 503 when it fails),
 * its answer kept per header value for `AUTHORIZER_CACHE_SECONDS` of the stack's clock.
 */
class LocalEdge {
  private readonly cache = new Map<string, { allowed: boolean; until: number }>();
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly clock: AdjustableClock,
  ) {}

  async check(req: IncomingMessage): Promise<'allow' | ApiError | CapacityAnswer> {
    const header = req.headers.authorization ?? '';
    if (!BEARER_HEADER.test(header)) return new ApiError('unauthorized');
    const now = this.clock.now();
    let cached = this.cache.get(header);
    if (!cached || cached.until <= now.getTime()) {
      try {
        const answer = await authorizeToken(
          { authorizationToken: header, methodArn: LOCAL_METHOD_ARN },
          this.apiKeys,
          now,
        );
        cached = {
          allowed: answer.policyDocument.Statement[0]?.Effect === 'Allow',
          until: now.getTime() + AUTHORIZER_CACHE_SECONDS * 1000,
        };
        this.cache.set(header, cached);
      } catch {
        return AUTHORIZER_UNAVAILABLE;
      }
    }
    return cached.allowed ? 'allow' : new ApiError('unauthorized');
  }
}

export interface LocalServerOptions {
  routes: CompiledRoute[];
  clock: AdjustableClock;
  faults: StorageFaults;
  docsUrl: string;
  /**
   * Local-only control endpoints under `/__local/` (the shared stand-ins' and those of the
   * capabilities' local modules), besides the clock's and the storage faults'.
   */
  control?: readonly LocalControlRoute[];
  /**
   * Reserved concurrency of each registry route's function, as a live stage sets it
   * (lib/registry-capacity.ts); unset, none (as on dev).
   */
  registryConcurrency?: number;
  /** What the key authorizer reads (keys and console sessions). */
  apiKeys: ApiKeyRepository;
}

/** Local-only storage faults: `/__local/faults` (GET, POST {failCommits}, DELETE). */
async function handleFaults(req: IncomingMessage, res: ServerResponse, faults: StorageFaults) {
  if (req.method === 'POST') {
    const body = JSON.parse((await bodyOf(req)) ?? '{}') as { failCommits?: number };
    if (typeof body.failCommits === 'number') faults.failCommits = body.failCommits;
  } else if (req.method === 'DELETE') {
    faults.failCommits = 0;
  }
  send(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify(faults.state()));
}

/** Local-only control of the clock: `/__local/clock` (GET, POST {advanceMs} or {now}, DELETE). */
async function handleClock(req: IncomingMessage, res: ServerResponse, clock: AdjustableClock) {
  if (req.method === 'POST') {
    const body = JSON.parse((await bodyOf(req)) ?? '{}') as { advanceMs?: number; now?: string };
    if (typeof body.advanceMs === 'number') clock.advance(body.advanceMs);
    if (typeof body.now === 'string') clock.set(new Date(body.now));
  } else if (req.method === 'DELETE') {
    clock.reset();
  }
  send(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify({ now: clock.now().toISOString() }));
}

export function createLocalServer({
  routes,
  clock,
  faults,
  docsUrl,
  control = [],
  registryConcurrency,
  apiKeys,
}: LocalServerOptions): Server {
  const reserved = new ReservedConcurrency(registryConcurrency);
  const edge = new LocalEdge(apiKeys, clock);
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/__local/clock') return await handleClock(req, res, clock);
      if (url.pathname === '/__local/faults') return await handleFaults(req, res, faults);
      if (url.pathname.startsWith('/__local/') && (await handleControl(req, res, url, control))) return;
      const doc = LOCAL_DOCS[url.pathname];
      if (doc && req.method === 'GET')
        return send(res, 200, { 'Content-Type': 'text/html; charset=utf-8' }, doc());
      // A literal segment wins over a parameter, as in API Gateway (/companies/search before /companies/{id}).
      const candidates = routes
        .map((compiled) => ({ compiled, found: compiled.pattern.exec(url.pathname) }))
        .filter((c) => c.found !== null)
        .sort((a, b) => a.compiled.names.length - b.compiled.names.length);
      const chosen = candidates.find((c) => c.compiled.route.method === req.method);
      if (!chosen?.found) {
        const allowed = candidates.map((c) => c.compiled.route.method);
        const message = allowed.length
          ? `${req.method} is not supported on ${url.pathname}; use ${allowed.join(' or ')}.`
          : `No endpoint at ${url.pathname}.`;
        return sendError(res, new ApiError('route_not_found', { message }), docsUrl);
      }
      const params = Object.fromEntries(
        chosen.compiled.names.map((name, i) => [name, chosen.found?.[i + 1] as string]),
      );
      const { route } = chosen.compiled;
      // The body is read first (a body over the service's limit is 400 `request_too_large` whatever the key), then the
      // key authorizer: no function runs without a usable key or console session.
      const body = await bodyOf(req);
      if (!route.public) {
        const answer = await edge.check(req);
        if (answer instanceof ApiError) return sendError(res, answer, docsUrl);
        if (answer !== 'allow') return sendCapacityAnswer(res, answer, docsUrl);
      }
      if (!reserved.take(route)) return sendCapacityAnswer(res, FUNCTION_UNAVAILABLE, docsUrl);
      const event = toProxyEvent(req, url, body, { route, params });
      let result: Awaited<ReturnType<LambdaHttpHandler>>;
      try {
        result = await chosen.compiled.handler(event, lambdaContext(route.name, functionTimeoutMs(route)));
      } finally {
        reserved.give(route);
      }
      // Binary media (a PDF) comes back base64-encoded; API Gateway decodes it before sending.
      const payload = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
      send(res, result.statusCode, result.headers ?? {}, payload);
    } catch (error) {
      if (!(error instanceof ApiError)) console.error('local server error', error);
      const answer = error instanceof ApiError ? error : new ApiError('internal_error');
      if (!res.headersSent) sendError(res, answer, docsUrl);
    }
  });
  server.on('clientError', answerClientError(docsUrl));
  return server;
}

/**
 * Node answers a request it cannot parse before any handler sees it, with a bare status line and
 * no body. An oversized request line or headers gets the error envelope here instead: 400
 * `request_too_large`, written straight to the socket, which is then closed. Anything else
 * (malformed HTTP, a timeout) keeps Node's own answer.
 */
function answerClientError(docsUrl: string) {
  return (error: Error & { code?: string }, socket: Duplex) => {
    const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
      ?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy();
      return;
    }
    if (error.code !== 'HPE_HEADER_OVERFLOW') {
      const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
      return;
    }
    const tooLarge = new ApiError('request_too_large', {
      message: `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes (10 KB), the most this API takes. Shorten the URL or the headers.`,
    });
    const requestId = `req_${randomUUID()}`;
    const body = JSON.stringify(errorEnvelope(tooLarge, requestId, docsUrl));
    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'X-Request-Id': requestId,
      ...unkeyedRateHeaders(),
      Connection: 'close',
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(`HTTP/1.1 400 ${STATUS_CODES[400]}\r\n${head.join('')}\r\n${body}`);
  };
}
