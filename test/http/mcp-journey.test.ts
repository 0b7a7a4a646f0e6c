import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { defaultLocalKeys, seedKeys, seedSpendCap } from '../../local/keys.ts';
import { defaultLocalMembers, seedMembers } from '../../local/members.ts';
import { DynamoKeyAdministration } from '../../shared/adapters/dynamodb/key-admin.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { DynamoConsoleMembers } from '../../shared/console/adapters/dynamodb-members.ts';
import { DynamoSpendCaps } from '../../shared/spend-caps/adapters/dynamodb.ts';
import { baseUrl, call, sweepLater } from '../support/api.ts';
import { outbox } from '../support/orders.ts';
import { testConfig, testPorts } from '../support/ports.ts';

/**
 * Issue 43's "Done means", walked as written against the local stack seeded as `npm start` seeds it
 * (local/start.ts: the default keys, acct_a's members and its 500.00 test cap): an MCP client at
 * /mcp with sk_test_localAccountA searches a sandbox company, reads its free details, quotes a
 * historical extract (40.00 at the example prices), buys it once with the token, reads it as a
 * resource; a second buy with the same token returns the same extract; with a cap of $1 a second
 * purchase is refused and the 80 % alert is in the event log (and mailed to the billing member).
 *
 * The cap of $1 is set after the first purchase: set before it, it would refuse the first 40.00
 * extract too. A cap set at or below what the month spent alerts its thresholds at once.
 */

const SECRET = 'sk_test_localAccountA';

async function seedAsNpmStart(): Promise<void> {
  const now = new Date();
  await seedKeys(defaultLocalKeys, now, testPorts.apiKeys);
  const members = new DynamoConsoleMembers(testConfig.keysTable);
  await seedMembers(defaultLocalMembers, now, { consoleMembers: members, memberSignInLinks: members });
  const spendCaps = new DynamoSpendCaps(
    testConfig.mainTable,
    new DynamoKeyAdministration(testConfig.keysTable),
  );
  await seedSpendCap(spendCaps, defaultLocalKeys[0] as (typeof defaultLocalKeys)[number], now);
}

const tool = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return result;
};
const structured = <T>(result: CallToolResult) => {
  expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
  return result.structuredContent as T;
};

describe("issue 43's Done means, with sk_test_localAccountA", () => {
  it('searches, reads details, quotes, buys once, reads the resource, buys again with the token (same extract); with a $1 cap a second purchase is refused and the 80 % alert is in the event log', async () => {
    await seedAsNpmStart();
    const client = new Client({ name: 'done-means', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${SECRET}`, Connection: 'close' } },
      }),
    );
    await client.listTools();

    const details = structured<{ acn: string; name: string }>(
      await tool(client, 'get_company', { id: SANDBOX.satisfiedCharges }),
    );
    const found = structured<{ data: { acn: string }[] }>(
      await tool(client, 'search_companies', { q: details.name }),
    );
    expect(found.data.map((company) => company.acn)).toContain(SANDBOX.satisfiedCharges);

    const extract = { id: SANDBOX.satisfiedCharges, type: 'historical' };
    const quoteOf = async () =>
      structured<{ fee: { amountCents: number }; confirmationToken: string }>(
        await tool(client, 'quote_purchase_company_extract', extract),
      );
    const quote = await quoteOf();
    expect(quote.fee.amountCents).toBe(4_000);
    const buy = { ...extract, confirmationToken: quote.confirmationToken, maxFee: quote.fee.amountCents };
    const bought = structured<{ id: string }>(await tool(client, 'purchase_company_extract', buy));
    const read = await client.readResource({ uri: `extract://${bought.id}` });
    expect((JSON.parse((read.contents[0] as { text: string }).text) as { id: string }).id).toBe(bought.id);
    const again = structured<{ id: string }>(await tool(client, 'purchase_company_extract', buy));
    expect(again.id).toBe(bought.id);

    // The account's cap lowered to $1 with the same key (a key may lower a cap).
    const capped = await call<{ amountCents: number; spentCents: number; alertsSent: number[] }>(
      '/v1/spend-caps/account',
      { key: SECRET, method: 'PUT', body: { amountCents: 100 } },
    );
    expect(capped.status, capped.text).toBe(200);
    expect(capped.body).toMatchObject({ amountCents: 100, spentCents: 4_000, alertsSent: [50, 80, 100] });

    const second = await quoteOf();
    const refused = await tool(client, 'purchase_company_extract', {
      ...extract,
      confirmationToken: second.confirmationToken,
      maxFee: second.fee.amountCents,
    });
    expect(refused.isError).toBe(true);
    const [content] = refused.content;
    const error = (
      JSON.parse(content?.type === 'text' ? content.text : '{}') as { error: Record<string, unknown> }
    ).error;
    expect(error).toMatchObject({
      code: 'spend_cap_exceeded',
      details: {
        cap: { scope: 'account', keyId: null, amountCents: 100 },
        spentCents: 4_000,
        purchaseCents: 4_000,
      },
    });

    const alerts = await call<{ data: { type: string; data: { threshold: number } }[] }>(
      '/v1/events?type=spend_cap.threshold_reached',
      { key: SECRET },
    );
    expect(alerts.body.data.map((event) => event.data.threshold)).toContain(80);
    await client.close();

    // The sweeper publishes the alerts and mails them to acct_a's billing and admin members first.
    await sweepLater();
    const mailed = (await outbox())
      .filter((message) => message.subject === 'Spend alert: 80% of your monthly spend cap reached')
      .map((message) => message.to)
      .filter((to) => to.endsWith('@acct-a.example'))
      .sort();
    expect(mailed).toStrictEqual(['admin@acct-a.example', 'billing@acct-a.example']);
  });
});
