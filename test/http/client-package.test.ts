/**
 * The typed client as a package people install: built (`npm run client:build`), packed with
 * `npm pack`, installed offline into an empty project, type-checked there as a customer's code
 * would be (strict, the package's own declarations checked too), then run against the local stack:
 * it buys a sandbox extract, pages its documents and verifies a real webhook delivery. The
 * CommonJS entry is loaded too. Its `company-register-mcp` bin, the MCP stdio bridge, is spawned
 * as an MCP client spawns it and driven by the official SDK's client over stdio.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientPackage, CLIENT_DIR } from '../../scripts/build-client.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { baseUrl, call, createKey, type FeeEntryBody } from '../support/api.ts';
import { type IntegratorProject, integratorProject, run } from '../support/integrator-project.ts';
import { localStack } from '../support/stack.ts';

const program = fileURLToPath(new URL('client-package/program.ts', import.meta.url));

let project: IntegratorProject;

beforeAll(async () => {
  project = integratorProject('client-package', 'consumer');
  await buildClientPackage();
  const packed = await run('npm', ['pack', '--pack-destination', project.dir, '--silent'], {
    cwd: CLIENT_DIR,
  });
  const tarball = packed.stdout.trim().split('\n').pop() as string;
  // --offline: the package must install with no registry at hand (it depends on nothing).
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball}`], {
    cwd: project.dir,
  });
  project.addProgram(program);
}, 180_000);

afterAll(() => project?.remove());

describe('the packed client', () => {
  it('holds built JavaScript (ESM and CommonJS) and declarations only, with no .ts import', async () => {
    const files = readdirSync(project.path('node_modules/company-register-client'), { recursive: true });
    expect(files.map(String).sort()).toStrictEqual([
      'LICENSE',
      'README.md',
      'dist',
      'dist/THIRD-PARTY-NOTICES.md',
      'dist/index.cjs',
      'dist/index.d.cts',
      'dist/index.d.mts',
      'dist/index.mjs',
      'dist/mcp.mjs',
      'package.json',
    ]);
    const installed = project.path('node_modules/company-register-client/dist');
    for (const file of ['index.mjs', 'index.cjs', 'index.d.mts', 'index.d.cts', 'mcp.mjs']) {
      const text = readFileSync(`${installed}/${file}`, 'utf8');
      expect(text, file).not.toMatch(/(from|import|require)\s*\(?\s*['"][^'"]+\.ts['"]/);
      expect(text, file).not.toMatch(/(from|require\()\s*['"]openapi-fetch['"]/);
    }
  });

  it("type-checks a customer's program against its declarations (strict, declarations included)", async () => {
    expect(await project.typeCheck()).toBe('');
  }, 120_000);

  it('runs against the local stack: buys an extract, pages its documents, verifies a webhook', async () => {
    const key = await createKey('test');
    const tls = localStack.webhookTls;
    writeFileSync(project.path('tls.key'), tls.key);
    writeFileSync(project.path('tls.cert'), tls.cert);
    const { stdout } = await run(
      process.execPath,
      ['--experimental-strip-types', '--no-warnings', 'program.ts'],
      {
        cwd: project.dir,
        env: {
          ...process.env,
          API_URL: baseUrl,
          API_KEY: key.secret,
          COMPANY: SANDBOX.imageOrders,
          TLS_KEY: 'tls.key',
          TLS_CERT: 'tls.cert',
        },
      },
    );
    expect(JSON.parse(stdout)).toStrictEqual({
      extract: {
        id: expect.stringMatching(/^ext_[0-9a-f]{24}$/),
        type: 'current',
        company: 'LYREBIRD ARCHIVES PTY LTD',
      },
      // Three documents, two a page: the second page was fetched with the first one's cursor.
      documents: ['9E0250003', '9E0250002', '9E0250001'],
      event: { type: 'webhook_endpoint.test', livemode: false },
      tampered: 'refused: no v1 signature matches the payload and secret',
    });
  }, 60_000);

  it('loads through require (CommonJS) with the same exports', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '-e',
        "const c = require('company-register-client'); console.log(JSON.stringify(Object.keys(c).sort()))",
      ],
      { cwd: project.dir },
    );
    expect(JSON.parse(stdout)).toStrictEqual([
      'CompanyRegisterError',
      'CompanyRegisterNetworkError',
      'WebhookVerificationError',
      'createCompanyRegisterClient',
      'idempotencyKeyOf',
      'newIdempotencyKey',
      'replayable',
      'retryDelayMs',
      'retryable',
      'retryingFetch',
      'verifyWebhook',
    ]);
  });
});

describe('the packed MCP stdio bridge (company-register-mcp)', () => {
  const stderr: string[] = [];

  /** The SDK's client on the installed bin over stdio, as Claude Desktop and the others run it. */
  async function bridged(env: Record<string, string>): Promise<Client> {
    const transport = new StdioClientTransport({
      command: project.path('node_modules/.bin/company-register-mcp'),
      env,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'bridge-test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  /** The JSON-RPC error a client meets when the bridge cannot forward its `initialize`. */
  async function refusal(env: Record<string, string>): Promise<McpError> {
    const error = await bridged(env).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }

  const mcpUrl = `${baseUrl}/mcp`;

  it('lists the tools, calls a free one, quotes and buys once with a test key, and reads the extract', async () => {
    const key = await createKey('test');
    const client = await bridged({ COMPANY_REGISTER_API_KEY: key.secret, COMPANY_REGISTER_MCP_URL: mcpUrl });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['get_company', 'quote_purchase_company_extract', 'purchase_company_extract']),
    );
    const company = (await client.callTool({
      name: 'get_company',
      arguments: { id: SANDBOX.imageOrders },
    })) as CallToolResult;
    expect(company.structuredContent).toMatchObject({
      name: 'LYREBIRD ARCHIVES PTY LTD',
      meta: { billable: false },
    });

    const args = { id: SANDBOX.imageOrders, type: 'current' };
    const quote = (await client.callTool({ name: 'quote_purchase_company_extract', arguments: args }))
      .structuredContent as { fee: { amountCents: number; billed: boolean }; confirmationToken: string };
    expect(quote.fee).toMatchObject({ amountCents: 2500, billed: false });
    const buy = { ...args, confirmationToken: quote.confirmationToken, maxFee: quote.fee.amountCents };
    const first = (await client.callTool({
      name: 'purchase_company_extract',
      arguments: buy,
    })) as CallToolResult;
    expect(first.isError, JSON.stringify(first.content)).toBeUndefined();
    const extract = first.structuredContent as { id: string; type: string };
    expect(extract.type).toBe('current');
    const again = (await client.callTool({
      name: 'purchase_company_extract',
      arguments: buy,
    })) as CallToolResult;
    expect((again.structuredContent as { id: string }).id).toBe(extract.id);
    const usage = await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: key.secret });
    expect(usage.body.data.filter((entry) => entry.product === 'company_extract_current')).toHaveLength(1);

    const read = await client.readResource({ uri: `extract://${extract.id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: extract.id });
    // A route's error is a tool error, not a failure of the bridge.
    const refused = (await client.callTool({
      name: 'get_company',
      arguments: { id: '123' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content[0] as { text: string }).text)).toMatchObject({
      error: { code: 'acn_invalid' },
    });
    await client.close();
  }, 60_000);

  it('answers a JSON-RPC error, never a crash, without a key, with a refused key, an unreachable URL or a rate limit', async () => {
    const noKey = await refusal({ COMPANY_REGISTER_MCP_URL: mcpUrl });
    expect(noKey.code).toBe(-32001);
    expect(noKey.message).toContain('COMPANY_REGISTER_API_KEY is not set');
    const noUrl = await refusal({ COMPANY_REGISTER_API_KEY: 'sk_test_whatever' });
    expect(noUrl.code).toBe(-32001);
    expect(noUrl.message).toContain('COMPANY_REGISTER_MCP_URL is not set');

    const unknownKey = await refusal({
      COMPANY_REGISTER_API_KEY: 'sk_test_notAKeyOfAnyAccount',
      COMPANY_REGISTER_MCP_URL: mcpUrl,
    });
    expect(unknownKey.code).toBe(-32003);
    expect(unknownKey.message).toContain(
      'The API key was refused (HTTP 401): check COMPANY_REGISTER_API_KEY.',
    );
    expect(unknownKey.data).toMatchObject({ status: 401, body: { error: { code: expect.any(String) } } });

    // A port that was listening a moment ago: nothing answers there now.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await refusal({
      COMPANY_REGISTER_API_KEY: 'sk_test_whatever',
      COMPANY_REGISTER_MCP_URL: `http://127.0.0.1:${port}/mcp`,
    });
    expect(unreachable.code).toBe(-32002);
    expect(unreachable.message).toBe(
      `MCP error -32002: Cannot reach http://127.0.0.1:${port}/mcp: ECONNREFUSED.`,
    );

    // A deployment answering 429, as the API does past a key's limit.
    const limited = createServer((_request, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      response.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests.' } }));
    });
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
    try {
      const rateLimited = await refusal({
        COMPANY_REGISTER_API_KEY: 'sk_test_whatever',
        COMPANY_REGISTER_MCP_URL: `http://127.0.0.1:${(limited.address() as { port: number }).port}/mcp`,
      });
      expect(rateLimited.code).toBe(-32003);
      expect(rateLimited.message).toContain('Rate limited (HTTP 429): retry after 7 seconds.');
      expect(rateLimited.data).toEqual({
        status: 429,
        body: { error: { code: 'rate_limited', message: 'Too many requests.' } },
      });
    } finally {
      await new Promise((resolve) => limited.close(resolve));
    }
    // Its logs are on stderr: lines of its own, no stack trace, never the key.
    const logged = stderr.join('');
    expect(logged).toContain('company-register-mcp: COMPANY_REGISTER_API_KEY is not set');
    expect(logged).not.toMatch(/\n\s+at /);
    for (const key of ['sk_test_whatever', 'sk_test_notAKeyOfAnyAccount']) expect(logged).not.toContain(key);
  }, 60_000);
});
