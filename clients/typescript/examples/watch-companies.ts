/**
 * Example: watch a list of companies with one import (a dry run first, then the commit, followed
 * until it has succeeded), then fire a sandbox event for one of the monitors, every request and
 * response typed from the contract. Run it against the local stack:
 *
 *   npm start   # in another terminal
 *   API_URL=http://localhost:3000 API_KEY=sk_test_localAccountA npm exec -- tsx clients/typescript/examples/watch-companies.ts
 *
 * test/http/client.test.ts runs `watchCompanies` against the test stack.
 */
import { type CompanyRegisterClient, createCompanyRegisterClient, newIdempotencyKey } from '../index.ts';

/** Sandbox companies (docs/sandbox.md): BLUEGUM ORCHARDS, KIWI FERNLEAF TRADING, and a bad number. */
export const EXAMPLE_COMPANIES = ['990000014', '990000041', '123456789'];

export async function watchCompanies(client: CompanyRegisterClient, companies = EXAMPLE_COMPANIES) {
  const csv = `company\n${companies.join('\n')}\n`;
  const dry = await client.POST('/v1/monitors/imports', { body: { dryRun: true, csv } });
  if (dry.error) throw new Error(`dry run refused: ${dry.error.error.code}`);

  // One key for the commit: a retry answers the same import and creates nothing twice.
  const committed = await client.POST('/v1/monitors/imports', {
    params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
    body: { csv },
  });
  if (committed.error) throw new Error(`import refused: ${committed.error.error.code}`);
  let outcome = committed.data;
  // Over 1,000 rows the commit answers 202 `processing`: follow the import until it has succeeded.
  while (outcome.status === 'processing' && outcome.id) {
    await new Promise((done) => setTimeout(done, 1_000));
    const read = await client.GET('/v1/monitors/imports/{importId}', {
      params: { path: { importId: outcome.id } },
    });
    if (read.error) throw new Error(`import unreadable: ${read.error.error.code}`);
    outcome = read.data;
  }

  const listed = await client.GET('/v1/monitors', { params: { query: { company: companies[0] } } });
  if (listed.error) throw new Error(`list refused: ${listed.error.error.code}`);
  // The list is JSON unless you ask for CSV (Accept: text/csv): the contract types both.
  if (typeof listed.data === 'string') throw new Error('the list came as CSV');
  const monitor = listed.data.data[0];
  if (!monitor) throw new Error(`${companies[0]} is not watched`);
  // Test keys: see an event arrive without waiting for the register to change.
  const fired = await client.POST('/v1/sandbox/monitors/{monitorId}/events', {
    params: { path: { monitorId: monitor.id } },
    body: { type: 'company.status_changed' },
  });
  if (fired.error) throw new Error(`sandbox event refused: ${fired.error.error.code}`);
  return {
    wouldCreate: dry.data.totals.wouldCreate,
    problems: dry.data.problems.map((p) => ({ row: p.row, outcome: p.outcome, code: p.error?.code ?? null })),
    importId: outcome.id,
    created: outcome.totals.created,
    monitorId: monitor.id,
    sandboxEvent: fired.data.id,
  };
}

if (process.argv[1]?.endsWith('watch-companies.ts')) {
  const client = createCompanyRegisterClient({
    baseUrl: process.env.API_URL ?? 'http://localhost:3000',
    apiKey: process.env.API_KEY ?? 'sk_test_localAccountA',
  });
  console.log(JSON.stringify(await watchCompanies(client), null, 2));
}
