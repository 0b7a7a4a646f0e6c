/**
 * The MCP conformance suite of the protocol's maintainers (`@modelcontextprotocol/conformance`)
 * against the local stack's /mcp: the server scenarios that apply to this server (docs/mcp.md,
 * "Conformance", says which and why the others do not). The suite's client sends no header of its
 * own, so it reaches /mcp through a reverse proxy that adds a test key, as a client's
 * configuration would, and maps its own address to the stack's (Host, and an Origin of its own).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, createKey } from '../support/api.ts';
import { run } from '../support/integrator-project.ts';

const cli = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const stack = new URL(`${baseUrl}/mcp`);
const results = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
let proxy: Server;
let proxyUrl: URL;

beforeAll(async () => {
  const key = await createKey('test');
  proxy = createServer((incoming, outgoing) => {
    const { origin, ...headers } = incoming.headers;
    const forwarded = httpRequest(
      {
        host: stack.hostname,
        port: stack.port,
        path: stack.pathname,
        method: incoming.method,
        agent: false,
        headers: {
          ...headers,
          host: stack.host,
          authorization: `Bearer ${key.secret}`,
          ...(origin ? { origin: origin === proxyUrl.origin ? stack.origin : origin } : {}),
        },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = new URL(`http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`);
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  rmSync(results, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Runs one scenario with the suite's CLI and answers its checks (id, status, and any error). */
async function scenario(name: string): Promise<Check[]> {
  const output = join(results, name);
  // The CLI exits 1 when a check fails: the checks themselves are what is asserted.
  await run(process.execPath, [
    cli,
    'server',
    '--url',
    proxyUrl.href,
    '--scenario',
    name,
    '-o',
    output,
  ]).catch(() => undefined);
  const [dir] = readdirSync(output);
  const checks = JSON.parse(readFileSync(join(output, dir as string, 'checks.json'), 'utf8')) as Check[];
  return checks.map(({ id, status, errorMessage }) => ({
    id,
    status,
    ...(errorMessage ? { errorMessage } : {}),
  }));
}

describe('the MCP conformance suite against /mcp', () => {
  it.each([
    ['server-initialize', ['server-initialize']],
    ['ping', ['ping']],
    ['tools-list', ['tools-list']],
    ['resources-list', ['resources-list']],
    ['dns-rebinding-protection', ['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted']],
  ])(
    'passes %s',
    async (name, ids) => {
      expect(await scenario(name)).toStrictEqual(ids.map((id) => ({ id, status: 'SUCCESS' })));
    },
    60_000,
  );
});
