/** Spend caps' request examples (OpenAPI), on the sandbox's local account. */
import type { RequestExample } from '../kernel/http/request-example.ts';

export const spendCapExamples: Readonly<Record<string, RequestExample>> = {
  ListSpendCaps: { summary: "The account's cap and its keys' caps" },
  GetAccountSpendCap: { summary: "The account's cap and this month's spend" },
  SetAccountSpendCap: {
    summary: 'Cap the account at 500.00 a month; alerts to billing@example.com',
    body: { amountCents: 50000, alertEmails: ['billing@example.com'] },
  },
  DeleteAccountSpendCap: { summary: "Remove the account's cap" },
  GetKeySpendCap: { summary: "A key's cap", path: { keyId: 'key_0d317200d54aa549a1e6' } },
  SetKeySpendCap: {
    summary: 'Cap an agent key at 50.00 a month',
    path: { keyId: 'key_0d317200d54aa549a1e6' },
    body: { amountCents: 5000 },
  },
  DeleteKeySpendCap: { summary: "Remove a key's cap", path: { keyId: 'key_0d317200d54aa549a1e6' } },
};
