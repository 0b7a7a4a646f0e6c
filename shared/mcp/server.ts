/**
 * The MCP server of one request (stateless: no session, JSON answers, so it runs on Lambda).
 * Each tool call is a request to the route itself, with the caller's key, through the whole API
 * (authorizer, limits, validation, billing, idempotency, logs): nothing per route here.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Clock } from '../kernel/clock.ts';
import type { CursorCodec } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { parseRequest } from '../kernel/http/request.ts';
import type { RouteDefinition } from '../kernel/http/route.ts';
import type { Fee, ParsedRequest } from './fees.ts';
import { checkBuy, issueToken } from './quotes.ts';
import { BUY_ARGUMENTS, type RouteTool, type ToolCatalogue } from './tools.ts';

export interface McpContext {
  /** The tools' list and how to call each (shared/mcp/tools.ts), on the first request that needs them. */
  catalogue: () => Promise<ToolCatalogue>;
  /** The route a tool calls, by name, loaded on the first call. */
  routeNamed: (name: string) => Promise<RouteDefinition>;
  /** The API the tools call: the same deployment, whose origin is the one `Origin` accepted. */
  apiBaseUrl: string;
  /** The caller's `Authorization` header, forwarded as it came. */
  authorization: string;
  keyId: string;
  clock: Clock;
  cursors: CursorCodec;
  /** The fee of a purchase by a billable route with this validated request (shared/mcp/fees.ts). */
  feeOf: (route: RouteDefinition, request: ParsedRequest) => Promise<Fee>;
}

/** What a call needs of its tool. */
type CalledTool = Pick<RouteTool, 'kind' | 'route' | 'argumentsIn'>;

/**
 * A JSON-RPC error as the SDK sends a thrown error's `code`, `message` and `data`. Not an
 * `McpError`, whose message starts "MCP error <code>: ", which the client's prefixes again.
 */
const protocolError = (message: string, data?: unknown) =>
  Object.assign(new Error(message), { code: ErrorCode.InvalidParams, data });

/** Held extracts as resources: `extract://<id>`, read with `GET /v1/extracts/{id}` (free). */
const EXTRACT_URI = 'extract://';

interface ApiAnswer {
  status: number;
  contentType: string;
  body: unknown;
}

async function callApi(
  context: McpContext,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { Authorization: context.authorization, ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${context.apiBaseUrl}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('json')) {
    const bytes = (await response.arrayBuffer()).byteLength;
    return { status: response.status, contentType, body: { contentType, bytes } };
  }
  return { status: response.status, contentType, body: await response.json() };
}

/** The request of a tool's arguments: path parameters in the path, the rest in the query or body. */
function requestOf(tool: CalledTool, args: Record<string, unknown>) {
  const { route, argumentsIn } = tool;
  let path = route.path;
  for (const name of argumentsIn.path) {
    path = path.replace(`{${name}}`, encodeURIComponent(String(args[name] ?? '')));
  }
  const query = new URLSearchParams();
  for (const name of argumentsIn.query) {
    const value = args[name];
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
  }
  const search = query.toString();
  const bodyArgs = argumentsIn.body.filter((name) => args[name] !== undefined);
  const body = route.request.body
    ? Object.fromEntries(bodyArgs.map((name) => [name, args[name]]))
    : undefined;
  return { method: route.method, path: search ? `${path}?${search}` : path, body };
}

/**
 * The arguments validated as the route validates its request (its own error codes and params), so
 * a quote never prices a purchase the route would refuse as malformed.
 */
function parsedOf(tool: CalledTool, args: Record<string, unknown>): ParsedRequest {
  const { body } = requestOf(tool, args);
  const pick = (names: readonly string[]) =>
    Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(pick(tool.argumentsIn.query))) {
    query[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  const parsed = parseRequest(tool.route, {
    method: tool.route.method,
    path: tool.route.path,
    headers: {},
    query,
    body: body === undefined ? null : JSON.stringify(body),
    pathParameters: Object.fromEntries(
      Object.entries(pick(tool.argumentsIn.path)).map(([name, value]) => [name, String(value)]),
    ),
  });
  return {
    path: parsed.path as Record<string, unknown>,
    body: (parsed.body ?? {}) as Record<string, unknown>,
  };
}

/**
 * A tool error: the API's error as text, with no `structuredContent`, which a client checks
 * against the tool's output schema (the SDK's does, error or not) and an error does not match.
 */
const errorResult = (error: {
  code: string;
  message: string;
  param?: unknown;
  details?: unknown;
}): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify({ error }) }],
});

const okResult = (body: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(body) }],
  structuredContent: body,
});

function answerOf(answer: ApiAnswer): CallToolResult {
  const body = (answer.body ?? {}) as Record<string, unknown>;
  if (answer.status >= 400) {
    const error = (body.error ?? { code: 'internal_error', message: 'The API answered an error.' }) as {
      code: string;
      message: string;
      param?: unknown;
      details?: unknown;
    };
    // `details` too: a refused purchase's cap, spend and cost (spend_cap_exceeded) for the agent to show.
    return errorResult({
      code: error.code,
      message: error.message,
      ...(error.param ? { param: error.param } : {}),
      ...(error.details ? { details: error.details } : {}),
    });
  }
  return okResult(body);
}

/** The arguments a quote binds: what the route is sent, without the buy's own. */
const routeArguments = (args: Record<string, unknown>) => {
  const { [BUY_ARGUMENTS.token]: _token, [BUY_ARGUMENTS.maxFee]: _max, ...rest } = args;
  return rest;
};

async function callTool(
  context: McpContext,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const { calls } = await context.catalogue();
  const call = Object.hasOwn(calls, name) ? calls[name] : undefined;
  if (!call) throw protocolError(`Unknown tool: ${name}`);
  const tool: CalledTool = { ...call, route: await context.routeNamed(call.route) };
  const bound = routeArguments(args);
  try {
    // The route's own schemas check the arguments first, so a missing or malformed one answers the
    // route's code and param instead of reaching the API as an empty path segment.
    const parsed = parsedOf(tool, bound);
    if (tool.kind === 'quote') {
      const fee = await context.feeOf(tool.route, parsed);
      const token = await issueToken(
        context.cursors,
        context.keyId,
        tool.route,
        bound,
        fee,
        context.clock.now(),
      );
      return okResult({ fee, ...token });
    }
    const request = requestOf(tool, bound);
    const headers: Record<string, string> = {};
    if (tool.kind === 'buy') {
      const buy = await checkBuy(
        context.cursors,
        context.keyId,
        tool.route,
        bound,
        args[BUY_ARGUMENTS.token],
        args[BUY_ARGUMENTS.maxFee],
        context.clock.now(),
      );
      // A spend cap is the route's own check (issue 43 part 1): refused there, it answers here as a tool error.
      headers['Idempotency-Key'] = buy.idempotencyKey;
    }
    return answerOf(await callApi(context, request.method, request.path, { body: request.body, headers }));
  } catch (error) {
    if (error instanceof ApiError) {
      return errorResult({
        code: error.code,
        message: error.message,
        ...(error.param ? { param: error.param } : {}),
      });
    }
    throw error;
  }
}

const extractIdOf = (uri: string) => {
  if (!uri.startsWith(EXTRACT_URI)) throw protocolError(`Unknown resource: ${uri}`);
  return uri.slice(EXTRACT_URI.length);
};

function apiFailure(answer: ApiAnswer): Error {
  const error = (answer.body as { error?: { code: string; message: string } }).error;
  return protocolError(`${error?.code}: ${error?.message}`, error);
}

/**
 * The SDK checks a client's answer to an elicitation with its JSON Schema validator, by default a
 * new Ajv instance with its formats for each server, so each request: this server never elicits.
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => {
    throw new Error('this server never asks the client for input');
  },
};

export function mcpServer(context: McpContext): Server {
  const server = new Server(
    { name: 'company-register-data-service', version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {} },
      jsonSchemaValidator: noElicitation,
      instructions:
        'Company register data. Free tools read; paid tools come in two steps: quote_* answers the fee and a confirmationToken, the buy tool needs both. Always show the fee to the user before buying. Held extracts are resources (extract://<id>), free to read.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => (await context.catalogue()).list);
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(context, request.params.name, request.params.arguments ?? {}),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const cursor = request.params?.cursor;
    const answer = await callApi(
      context,
      'GET',
      `/v1/extracts?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (answer.status >= 400) throw apiFailure(answer);
    const page = answer.body as {
      data: { id: string; kind: string; type?: string }[];
      nextCursor: string | null;
    };
    return {
      resources: page.data.map((extract) => ({
        uri: `${EXTRACT_URI}${extract.id}`,
        name: extract.id,
        title: `${extract.kind} extract${extract.type ? ` (${extract.type})` : ''}`,
        mimeType: 'application/json',
      })),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const id = extractIdOf(request.params.uri);
    const answer = await callApi(context, 'GET', `/v1/extracts/${encodeURIComponent(id)}`);
    if (answer.status >= 400) throw apiFailure(answer);
    return {
      contents: [
        { uri: request.params.uri, mimeType: 'application/json', text: JSON.stringify(answer.body) },
      ],
    };
  });
  return server;
}

/**
 * A request whose `Origin` is not the deployment's own is refused with 403, as the transport
 * requires against DNS rebinding: no other site's page calls this API (it sends no CORS headers).
 */
function foreignOrigin(context: McpContext, request: Request): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin === null || origin === new URL(context.apiBaseUrl).origin) return undefined;
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: `Origin not allowed: ${origin}` }, id: null },
    { status: 403 },
  );
}

/** Answers one MCP request (a JSON-RPC message or batch) with a fresh stateless server. */
export async function answerMcp(
  context: McpContext,
  request: Request,
  parsedBody: unknown,
): Promise<Response> {
  const refused = foreignOrigin(context, request);
  if (refused) return refused;
  const server = mcpServer(context);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}
