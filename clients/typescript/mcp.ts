/**
 * `company-register-mcp`: the service's MCP server for clients that speak only stdio. It reads
 * newline-delimited JSON-RPC messages on stdin, POSTs each to the deployment's `/mcp` (Streamable
 * HTTP) with the API key from the environment, and writes the answers to stdout, one a line.
 * Whatever goes wrong (no key, no URL, a refused key, a rate limit, an unreachable host) is
 * answered to the request as a JSON-RPC error on stdout; logs go to stderr only, and never the key.
 *
 *   COMPANY_REGISTER_API_KEY  the API key (sk_test_… for the sandbox, sk_live_…)
 *   COMPANY_REGISTER_MCP_URL  the deployment's MCP URL, e.g. https://api.example.com/prod/mcp
 */

const KEY_VARIABLE = 'COMPANY_REGISTER_API_KEY';
const URL_VARIABLE = 'COMPANY_REGISTER_MCP_URL';

/** JSON-RPC error codes: the standard parse error, and this bridge's (server error range). */
const BRIDGE_ERRORS = {
  parse: -32700,
  notConfigured: -32001,
  unreachable: -32002,
  http: -32003,
} as const;

type Id = string | number | null;
interface Message {
  jsonrpc?: string;
  id?: Id;
  method?: string;
  result?: { protocolVersion?: unknown };
}

const log = (text: string) => process.stderr.write(`company-register-mcp: ${text}\n`);
const write = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

const errorAnswer = (id: Id, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

/** The configuration from the environment, or why there is none. */
function configuration(env: NodeJS.ProcessEnv): { url: URL; key: string } | { problem: string } {
  const key = env[KEY_VARIABLE]?.trim();
  const url = env[URL_VARIABLE]?.trim();
  if (!key)
    return { problem: `${KEY_VARIABLE} is not set: set it to your API key (sk_test_… or sk_live_…).` };
  if (!url) return { problem: `${URL_VARIABLE} is not set: set it to your deployment's MCP URL (…/mcp).` };
  try {
    return { url: new URL(url), key };
  } catch {
    return { problem: `${URL_VARIABLE} is not a URL: ${url}` };
  }
}

/** The JSON-RPC messages of an SSE body (`data:` lines, events separated by a blank line). */
function sseMessages(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as unknown);
}

/** Why an HTTP status refused the request, in the words an agent's user can act on. */
function httpProblem(status: number, retryAfter: string | null): string {
  if (status === 401) return `The API key was refused (HTTP 401): check ${KEY_VARIABLE}.`;
  if (status === 403) return 'The request was forbidden (HTTP 403).';
  if (status === 429)
    return `Rate limited (HTTP 429)${retryAfter ? `: retry after ${retryAfter} seconds` : ''}.`;
  return `The MCP server answered HTTP ${status}.`;
}

interface Bridge {
  url: URL;
  key: string;
  /** Sent on every request after `initialize`, as Streamable HTTP asks. */
  protocolVersion?: string;
  sessionId?: string;
}

/** Forwards one line's message (or batch) and writes what answers it. */
async function forward(bridge: Bridge, line: string): Promise<void> {
  let message: Message | Message[];
  try {
    message = JSON.parse(line) as Message | Message[];
  } catch {
    write(errorAnswer(null, BRIDGE_ERRORS.parse, 'Parse error: the line is not JSON.'));
    return;
  }
  const requests = (Array.isArray(message) ? message : [message]).filter(
    (one) => one.method !== undefined && one.id !== undefined,
  );
  const failAll = (code: number, text: string, data?: unknown) => {
    if (requests.length === 0) log(text);
    for (const request of requests) write(errorAnswer(request.id ?? null, code, text, data));
  };
  let response: Response;
  try {
    response = await fetch(bridge.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${bridge.key}`,
        ...(bridge.protocolVersion ? { 'MCP-Protocol-Version': bridge.protocolVersion } : {}),
        ...(bridge.sessionId ? { 'Mcp-Session-Id': bridge.sessionId } : {}),
      },
      body: line,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    failAll(
      BRIDGE_ERRORS.unreachable,
      `Cannot reach ${bridge.url.href}: ${cause?.code ?? cause?.message ?? (error as Error).message}.`,
    );
    return;
  }
  bridge.sessionId = response.headers.get('mcp-session-id') ?? bridge.sessionId;
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let answers: unknown[] = [];
  try {
    if (type.includes('text/event-stream')) answers = sseMessages(text);
    else if (type.includes('json') && text) answers = [JSON.parse(text) as unknown].flat();
  } catch {
    answers = [];
  }
  const answered = answers.filter(
    (answer): answer is Message => typeof answer === 'object' && answer !== null && 'jsonrpc' in answer,
  );
  if (!response.ok && answered.length === 0) {
    // The API's own error envelope (a refused key, a rate limit): kept as the error's data.
    const body = (() => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    })();
    failAll(BRIDGE_ERRORS.http, httpProblem(response.status, response.headers.get('retry-after')), {
      status: response.status,
      ...(body === undefined ? {} : { body }),
    });
    return;
  }
  for (const answer of answered) {
    const version = answer.result?.protocolVersion;
    if (typeof version === 'string') bridge.protocolVersion = version;
    write(answer);
  }
}

/** Runs the bridge on this process's stdin and stdout until stdin ends. */
async function runBridge(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = configuration(env);
  if ('problem' in config) log(config.problem);
  else log(`forwarding stdio to ${config.url.href}`);
  const bridge: Bridge | undefined = 'problem' in config ? undefined : { ...config };
  const pending = new Set<Promise<void>>();
  let buffered = '';
  const handle = (line: string) => {
    if (line.trim() === '') return;
    if (!bridge) {
      const problem = (config as { problem: string }).problem;
      try {
        const message = JSON.parse(line) as Message | Message[];
        for (const one of Array.isArray(message) ? message : [message]) {
          if (one.method !== undefined && one.id !== undefined)
            write(errorAnswer(one.id, BRIDGE_ERRORS.notConfigured, problem));
        }
      } catch {
        write(errorAnswer(null, BRIDGE_ERRORS.parse, 'Parse error: the line is not JSON.'));
      }
      return;
    }
    const done = forward(bridge, line)
      .catch((error: unknown) => {
        log(`unexpected: ${(error as Error).message}`);
      })
      .finally(() => pending.delete(done));
    pending.add(done);
  };
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) {
    buffered += chunk as string;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) handle(line);
  }
  handle(buffered);
  await Promise.all(pending);
}

// Whatever escapes is one line on stderr, never a stack trace.
process.on('uncaughtException', (error) => {
  log(`unexpected: ${error.message}`);
  process.exitCode = 1;
});
await runBridge();
