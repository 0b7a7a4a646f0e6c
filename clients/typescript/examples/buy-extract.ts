/**
 * Example: buy a historical extract of a sandbox company, then read its charges for free, with
 * every request and response typed from the contract. Run it against the local stack:
 *
 *   npm start   # in another terminal
 *   API_URL=http://localhost:3000 API_KEY=sk_test_localAccountA npm exec -- tsx clients/typescript/examples/buy-extract.ts
 *
 * test/http/client.test.ts runs `buyExtractAndReadCharges` against the test stack.
 */
import { type CompanyRegisterClient, createCompanyRegisterClient, newIdempotencyKey } from '../index.ts';

/** IRONBARK ENGINEERING PTY LTD, the sandbox company with satisfied charges (docs/sandbox.md). */
export const SANDBOX_COMPANY_WITH_CHARGES = '990000149';

export async function buyExtractAndReadCharges(
  client: CompanyRegisterClient,
  company = SANDBOX_COMPANY_WITH_CHARGES,
) {
  // One key per purchase: a retry (the client's, or yours) sends the same one and is never billed twice.
  const idempotencyKey = newIdempotencyKey();
  const bought = await client.POST('/v1/companies/{id}/extracts', {
    params: {
      path: { id: company },
      header: { 'Idempotency-Key': idempotencyKey, 'X-Client-Reference': 'example' },
    },
    body: { type: 'historical' },
  });
  if (bought.error)
    throw new Error(`purchase refused: ${bought.error.error.code} ${bought.error.error.message}`);
  const extract = bought.data;

  const listed = await client.GET('/v1/companies/{id}/charges', {
    params: { path: { id: company }, query: { status: 'all', extract: extract.id } },
  });
  if (listed.error) throw new Error(`charges refused: ${listed.error.error.code}`);
  return {
    extract: {
      id: extract.id,
      type: extract.type,
      billable: extract.meta.billable,
      company: extract.company.name,
    },
    charges: listed.data.data.map((charge) => ({
      chargeNumber: charge.chargeNumber,
      status: charge.status.code,
      chargees: charge.chargees.map(
        ({ party }) => party.organisation?.name ?? party.person?.formatted ?? null,
      ),
    })),
    idempotencyKey,
  };
}

if (process.argv[1]?.endsWith('buy-extract.ts')) {
  const client = createCompanyRegisterClient({
    baseUrl: process.env.API_URL ?? 'http://localhost:3000',
    apiKey: process.env.API_KEY ?? 'sk_test_localAccountA',
  });
  console.log(JSON.stringify(await buyExtractAndReadCharges(client), null, 2));
}
