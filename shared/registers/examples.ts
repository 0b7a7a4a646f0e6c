/** The registers' request examples (OpenAPI), from the sandbox registers (docs/sandbox.md, "Registers"). */
import type { RequestExample } from '../http/openapi/examples.ts';

export const registerExamples: Readonly<Record<string, RequestExample>> = {
  ListRegisters: { summary: 'The twelve served registers' },
  BrowseRegister: {
    summary: 'Liquidators whose name begins with KOWALSKI',
    path: { register: 'RQ' },
    query: { browse: 'kowalski', limit: '20' },
  },
  GetRegisterEntry: {
    summary: 'The registered liquidator ANNA MARIA KOWALSKI (sandbox case liquidator)',
    path: { register: 'RQ', number: '401234' },
  },
  PurchaseRegisterExtract: {
    summary: 'A historical extract of the liquidator ANNA MARIA KOWALSKI',
    path: { register: 'RQ', number: '401234' },
    headers: { 'Idempotency-Key': 'demo-reg-1', 'X-Client-Reference': 'screening-17' },
    body: { history: true },
  },
};
