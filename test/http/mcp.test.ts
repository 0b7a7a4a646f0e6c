import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { baseUrl, call, clock, createKey, type FeeEntryBody } from '../support/api.ts';

/** The MCP server at /mcp (issue 43 part 2), through the official SDK's client. */

async function connect(secret: string, { list = true } = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    // A connection per request: compiling the listed tools' output schemas blocks this process for
    // seconds on a loaded machine, past the stack's keep-alive, and the next request would go out on
    // a socket the stack has closed.
    requestInit: { headers: { Authorization: `Bearer ${secret}`, Connection: 'close' } },
  });
  await client.connect(transport);
  // As every client does: the SDK's client then checks each tool's answer against its output schema.
  if (list) await client.listTools();
  return client;
}

const call_ = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const structured = <T = Record<string, unknown>>(result: CallToolResult) => result.structuredContent as T;

/** A tool error's API error: in its text, never as structured content (no output schema matches it). */
function errorOf<T = { code: string; message: string; param?: string }>(result: CallToolResult): T {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const [content] = result.content;
  return (JSON.parse(content?.type === 'text' ? content.text : '{}') as { error: T }).error;
}

const historical = { id: SANDBOX.satisfiedCharges, type: 'historical' };

describe('the MCP server', () => {
  // The stack's first /mcp request loads the MCP function and derives every tool: slow on a loaded machine.
  it('lists the routes as tools with their schemas and annotations', async () => {
    const client = await connect((await createKey('test')).secret, { list: false });
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const search = byName.get('search_companies');
    expect(search?.annotations).toEqual({
      title: 'Search companies by name, ACN or ABN (free)',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['q', 'acn', 'abn', 'limit', 'cursor']),
    );
    const quote = byName.get('quote_purchase_company_extract');
    expect(quote?.annotations?.readOnlyHint).toBe(true);
    expect(quote?.description).toMatch(/Show the quoted fee to your user/);
    const buy = byName.get('purchase_company_extract');
    expect(buy?.inputSchema.required).toEqual(['id', 'type', 'confirmationToken', 'maxFee']);
    expect(buy?.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(buy?.description).toMatch(/Show the quoted fee to your user/);
    expect(buy?.outputSchema?.type).toBe('object');
    // Neither the console's routes nor /mcp itself are tools.
    expect([...byName.keys()].some((name) => name.includes('console') || name === 'mcp')).toBe(false);
    await client.close();
  }, 120_000);

  it('calls a free tool: a sandbox company, through the route', async () => {
    const client = await connect((await createKey('test')).secret);
    const result = await call_(client, 'get_company', { id: SANDBOX.satisfiedCharges });
    expect(result.isError).toBeUndefined();
    const company = structured<{ acn: string; meta: { billable: boolean } }>(result);
    expect(company.acn).toBe(SANDBOX.satisfiedCharges);
    expect(company.meta.billable).toBe(false);
    await client.close();
  });

  it("answers a route's error as a tool error with the API's code and message", async () => {
    const client = await connect((await createKey('test')).secret);
    const result = await call_(client, 'get_company', { id: '123' });
    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error.code).toBe('acn_invalid');
    expect(error.message).not.toMatch(/at .*\.ts/);
    await client.close();
  });

  it("checks a tool's arguments with the route's own schemas before calling it: a missing path argument names its param", async () => {
    const key = await createKey('test');
    const client = await connect(key.secret);
    const result = await call_(client, 'get_company', {});
    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error).toMatchObject({ code: 'validation_error', param: 'id' });
    await client.close();
  });

  it('quotes, buys once with the token, and a retry returns the same extract', async () => {
    const key = await createKey('test');
    const client = await connect(key.secret);
    const quote = structured<{ fee: { amountCents: number; product: string }; confirmationToken: string }>(
      await call_(client, 'quote_purchase_company_extract', historical),
    );
    // The example schedule's historical extract (shared/usage/prices.ts): a test key is not billed.
    expect(quote.fee).toEqual({
      product: 'company_extract_historical',
      feeCode: '955A',
      quantity: 1,
      unitAmountCents: 4000,
      amountCents: 4000,
      currency: 'AUD',
      priceVersion: '2020-01-01',
      maxPossible: false,
      billed: false,
      examplePrices: true,
    });
    const buy = { ...historical, confirmationToken: quote.confirmationToken, maxFee: quote.fee.amountCents };
    const first = await call_(client, 'purchase_company_extract', buy);
    expect(first.isError, JSON.stringify(first.content)).toBeUndefined();
    const extract = structured<{ id: string; type: string; meta: { product: string } }>(first);
    expect(extract.type).toBe('historical');
    expect(extract.meta.product).toBe('company_extract_historical');
    const again = structured<{ id: string }>(await call_(client, 'purchase_company_extract', buy));
    expect(again.id).toBe(extract.id);
    const usage = await call<{ data: (FeeEntryBody & { amountCents: number | null })[] }>('/v1/usage', {
      key: key.secret,
    });
    const entries = usage.body.data.filter((entry) => entry.product === 'company_extract_historical');
    expect(entries.map((entry) => entry.amountCents)).toEqual([quote.fee.amountCents]);

    // The extract is a resource, read for free.
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`extract://${extract.id}`);
    const read = await client.readResource({ uri: `extract://${extract.id}` });
    const content = read.contents[0] as { text: string; mimeType: string };
    expect(content.mimeType).toBe('application/json');
    expect((JSON.parse(content.text) as { id: string }).id).toBe(extract.id);
    await client.close();
  });

  it('quotes a current extract at its own price, and refuses to quote arguments the route refuses', async () => {
    const client = await connect((await createKey('live')).secret);
    const current = structured<{ fee: Record<string, unknown> }>(
      await call_(client, 'quote_purchase_company_extract', { ...historical, type: 'current' }),
    );
    expect(current.fee).toMatchObject({
      product: 'company_extract_current',
      feeCode: '955A',
      quantity: 1,
      unitAmountCents: 2500,
      amountCents: 2500,
      maxPossible: false,
      billed: true,
    });
    const bad = await call_(client, 'quote_purchase_company_extract', { ...historical, type: 'everything' });
    expect(bad.isError).toBe(true);
    expect(errorOf(bad)).toMatchObject({
      code: 'extract_type_invalid',
      param: 'type',
    });
    await client.close();
  });

  it('refuses a wrong token, a token for other arguments, an expired token and a maxFee below the quote', async () => {
    const key = await createKey('test');
    const client = await connect(key.secret);
    const quote = structured<{ fee: { amountCents: number }; confirmationToken: string }>(
      await call_(client, 'quote_purchase_company_extract', historical),
    );
    const refused = async (args: Record<string, unknown>) => {
      const result = await call_(client, 'purchase_company_extract', args);
      expect(result.isError).toBe(true);
      return errorOf(result);
    };
    const token = quote.confirmationToken;
    const fee = quote.fee.amountCents;
    expect(await refused({ ...historical, confirmationToken: `${token}x`, maxFee: fee })).toMatchObject({
      code: 'validation_error',
      param: 'confirmationToken',
    });
    expect(
      await refused({ ...historical, type: 'current', confirmationToken: token, maxFee: fee }),
    ).toMatchObject({ code: 'validation_error', param: 'confirmationToken' });
    expect(await refused({ ...historical, confirmationToken: token, maxFee: fee - 1 })).toMatchObject({
      code: 'validation_error',
      param: 'maxFee',
      message: `maxFee ${fee - 1} is below the quoted fee of ${fee} cents: nothing was bought.`,
    });
    // Another key's token is not this key's.
    const other = await connect((await createKey('test', { accountId: key.accountId })).secret);
    const otherResult = await call_(other, 'purchase_company_extract', {
      ...historical,
      confirmationToken: token,
      maxFee: fee,
    });
    expect(errorOf(otherResult).param).toBe('confirmationToken');
    await other.close();
    await clock.advance(5 * 60_000 + 1_000);
    try {
      expect(await refused({ ...historical, confirmationToken: token, maxFee: fee })).toMatchObject({
        code: 'validation_error',
        param: 'confirmationToken',
        message: 'confirmationToken expired: quotes are valid for 5 minutes. Quote again.',
      });
    } finally {
      await clock.reset();
    }
    const usage = await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: key.secret });
    expect(usage.body.data).toHaveLength(0);
    await client.close();
  });

  it('answers an unknown tool or resource, and an extract it cannot read, as one JSON-RPC error with a plain message', async () => {
    const client = await connect((await createKey('test')).secret, { list: false });
    const failure = async (attempt: Promise<unknown>) => {
      const error = await attempt.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(McpError);
      return error as McpError;
    };
    // The SDK's client prefixes "MCP error <code>: " once: the server's message has no prefix of its own.
    const tool = await failure(client.callTool({ name: 'no_such_tool', arguments: {} }));
    expect([tool.code, tool.message]).toEqual([-32602, 'MCP error -32602: Unknown tool: no_such_tool']);
    const resource = await failure(client.readResource({ uri: 'file:///etc/passwd' }));
    expect(resource.message).toBe('MCP error -32602: Unknown resource: file:///etc/passwd');
    const missing = await failure(client.readResource({ uri: 'extract://ext_000000000000000000000000' }));
    const { code } = missing.data as { code: string };
    expect(missing.message).toMatch(new RegExp(`^MCP error -32602: ${code}: [^:]`));
    await client.close();
  });

  it('offers no tool that raises or removes a spend cap; reading one is a tool', async () => {
    const client = await connect((await createKey('test')).secret);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['list_spend_caps', 'get_account_spend_cap', 'get_key_spend_cap']),
    );
    for (const name of [
      'set_account_spend_cap',
      'delete_account_spend_cap',
      'set_key_spend_cap',
      'delete_key_spend_cap',
    ]) {
      expect(names).not.toContain(name);
    }
    await client.close();
  });

  it("is refused beyond the key's spend cap with the API's code, and the 80 % alert is in the event log", async () => {
    const key = await createKey('test');
    // Room for one historical extract (4000 cents at the example prices), which takes it to 80 %.
    const cap = await call(`/v1/spend-caps/keys/${key.keyId}`, {
      key: key.secret,
      method: 'PUT',
      body: { amountCents: 5000 },
    });
    expect(cap.status, cap.text).toBe(200);
    const client = await connect(key.secret);
    const buyOnce = async () => {
      const quote = structured<{ fee: { amountCents: number }; confirmationToken: string }>(
        await call_(client, 'quote_purchase_company_extract', historical),
      );
      return call_(client, 'purchase_company_extract', {
        ...historical,
        confirmationToken: quote.confirmationToken,
        maxFee: quote.fee.amountCents,
      });
    };
    const first = await buyOnce();
    expect(first.isError, JSON.stringify(first.content)).toBeUndefined();
    const second = await buyOnce();
    expect(second.isError).toBe(true);
    expect(errorOf<{ code: string; details: unknown }>(second)).toMatchObject({
      code: 'spend_cap_exceeded',
      details: {
        cap: { scope: 'key', keyId: key.keyId, amountCents: 5000 },
        spentCents: 4000,
        purchaseCents: 4000,
      },
    });
    const events = await call<{ data: { type: string; data: { threshold: number } }[] }>(
      '/v1/events?type=spend_cap.threshold_reached',
      { key: key.secret },
    );
    expect(events.body.data.map((event) => event.data.threshold).sort()).toEqual([50, 80]);
    const usage = await call<{ data: FeeEntryBody[] }>('/v1/usage', { key: key.secret });
    expect(usage.body.data).toHaveLength(1);
    await client.close();
  });

  it('answers 401 without a key, as every keyed route', async () => {
    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });
});
