/**
 * An integrator's program on a client generated from the served contract by @hey-api/openapi-ts
 * (not the generator our own client uses): five calls against the API, typed by the contract's
 * named types. test/http/third-party-client.test.ts generates the client next to this file,
 * type-checks both strictly and runs it; it prints what it saw as JSON.
 */
import { client } from './generated/client.gen.js';
import {
  listCodeTables,
  listCompanyCharges,
  purchaseCompanyExtract,
  searchCompanies,
  validateIdentifier,
} from './generated/sdk.gen.js';
import type {
  Charge,
  CodeTableSummary,
  CompanyExtract,
  CompanyMatch,
  Identifier,
  PurchaseCompanyExtractRequest,
} from './generated/types.gen.js';

const need = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const API_URL = need('API_URL');
const API_KEY = need('API_KEY');
const COMPANY = need('COMPANY');
const IDEMPOTENCY_KEY = need('IDEMPOTENCY_KEY');
client.setConfig({ baseUrl: API_URL, auth: API_KEY });

function ok<T>(answer: { data?: T; error?: unknown; response?: Response }): T {
  if (answer.data === undefined)
    throw new Error(`${answer.response?.status}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

const identifier: Identifier = ok(await validateIdentifier({ path: { value: '51824753556' } }));
const tables: CodeTableSummary[] = ok(await listCodeTables()).data;
const matches: CompanyMatch[] = ok(await searchCompanies({ query: { q: 'southern cross', limit: 5 } })).data;

const body: PurchaseCompanyExtractRequest = { type: 'historical' };
const purchase = () =>
  purchaseCompanyExtract({
    path: { id: COMPANY },
    body,
    headers: { 'Idempotency-Key': IDEMPOTENCY_KEY },
  });
const extract: CompanyExtract = ok(await purchase());
const retried: CompanyExtract = ok(await purchase());
const charges: Charge[] = ok(
  await listCompanyCharges({ path: { id: COMPANY }, query: { extract: extract.id, status: 'all' } }),
).data;

console.log(
  JSON.stringify({
    identifier: { type: identifier.type, valid: identifier.valid },
    tables: tables.length,
    matches: matches.length,
    extract: { id: extract.id, type: extract.type, company: extract.company.name },
    retriedSameExtract: retried.id === extract.id,
    charges: charges.map((charge) => charge.chargeNumber),
  }),
);
