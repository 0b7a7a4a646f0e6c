/**
 * One request example per operation, taken from the sandbox (docs/sandbox.md): a test key gets
 * the documented answer for each. The generator turns each into parameter and body examples and
 * a curl sample; test/unit/openapi.test.ts checks that every operation has one and that each
 * passes its route's request schemas.
 */

import type { RequestExample } from '../../kernel/http/request-example.ts';
import { type ApiArea, apiAreas } from '../areas.ts';

/**
 * Ids in the examples. Each purchase, search or order issues its own; the recorded responses
 * (response-examples.json, `npm run openapi:examples`) have theirs replaced by these.
 */
export const EXAMPLE_IDS = {
  peopleSearch: 'psr_4f1c2b7a9e0d3c6b5a4f1e2d',
  person: 'prs_7b3e9d1c5a2f4e6b8c0d1a3f',
  extract: 'ext_5d2c8a1f3b4e6d7c9a0b1c2d',
  order: 'ord_0a1b2c3d4e5f60718293a4b5',
  offlineSearch: 'ofs_9f8e7d6c5b4a39281706f5e4',
  event: 'evt_3c9a1f0e7b2d4c6a8e5f1a2b',
  webhookEndpoint: 'we_6e1d2c3b4a5f60718293a4b5',
  weeklySummary: 'ext_6e3d9b2a4c5f7e8d0a1b2c3e',
} as const;
const EVENT_ID = EXAMPLE_IDS.event;
const ENDPOINT_ID = EXAMPLE_IDS.webhookEndpoint;
const SEARCH_ID = EXAMPLE_IDS.peopleSearch;
const PERSON_ID = EXAMPLE_IDS.person;

export const requestExamples: Readonly<Record<string, RequestExample>> = {
  ...Object.assign({}, ...(apiAreas as readonly ApiArea[]).map((area) => area.examples ?? {})),
  ValidateIdentifier: {
    summary: 'The ABN of the sandbox company BLUEGUM ORCHARDS PTY LTD',
    path: { value: '23990000014' },
    query: { hint: 'abn' },
  },
  ListCodeTables: { summary: 'Every code table' },
  GetCodeTable: { summary: 'The organisation types', path: { table: 'organisation-types' } },
  ListForms: { summary: 'The first five debt forms', query: { category: 'debt', limit: '5' } },
  SearchCompanies: {
    summary: 'The sandbox name search `southern cross`: four scored matches',
    query: { q: 'southern cross', scope: 'current' },
  },
  GetCompany: {
    summary: 'IRONBARK ENGINEERING PTY LTD (sandbox case satisfiedCharges)',
    path: { id: '990000149' },
  },
  PurchaseCompanyExtract: {
    summary: 'A historical extract of IRONBARK ENGINEERING PTY LTD, which holds three charges',
    path: { id: '990000149' },
    headers: { 'Idempotency-Key': 'demo-1', 'X-Client-Reference': 'matter-4411' },
    body: { type: 'historical' },
  },
  ListOfficeholders: {
    summary: 'Current office holders of BLUEGUM ORCHARDS PTY LTD, from a held extract',
    path: { id: '990000014' },
    query: { status: 'current', limit: '20' },
  },
  ListCompanyAddresses: { summary: 'Addresses of KIWI FERNLEAF TRADING LIMITED', path: { id: '990000041' } },
  GetShareStructure: {
    summary: 'Share classes and members of BLUEGUM ORCHARDS PTY LTD',
    path: { id: '990000014' },
  },
  ListCompanyDocuments: {
    summary: 'Documents of MERIDIAN NATIONAL HOLDINGS LIMITED received in the last five years',
    path: { id: '990000201' },
    query: { years: '5', limit: '20' },
  },
  GetExternalAdministration: {
    summary: 'External administration of COASTAL BUILDERS PTY LTD',
    path: { id: '990000096' },
  },
  ListCompanyRelationships: {
    summary: 'The six roles SOUTHERN CROSS HOLDINGS LIMITED holds in others (relational extract)',
    path: { id: '990000023' },
  },
  ListCompanyCharges: {
    summary: 'The satisfied charges of IRONBARK ENGINEERING PTY LTD, from its historical extract',
    path: { id: '990000149' },
    query: { status: 'satisfied' },
  },
  GetCharge: { summary: 'Charge 9900142: a joint chargee of two persons', path: { chargeNumber: '9900142' } },
  SearchPeople: {
    summary: 'People named BRIDGET HALLORAN',
    body: { familyName: 'HALLORAN', givenName: 'BRIDGET' },
  },
  GetPerson: {
    summary: 'The first BRIDGET HALLORAN the people search example found',
    path: { personId: PERSON_ID },
  },
  PurchasePersonExtracts: {
    summary: 'A person extract with history for one person of a search',
    headers: { 'Idempotency-Key': 'demo-2' },
    body: { searchId: SEARCH_ID, personIds: [PERSON_ID], history: true },
  },
  ListPersonRoles: {
    summary: 'Every director role of a person, from a held person extract',
    path: { personId: PERSON_ID },
    query: { status: 'all', 'role[]': ['DR'], limit: '5' },
  },
  GetExtract: {
    summary: 'The historical extract of IRONBARK ENGINEERING PTY LTD bought in the purchase example',
    path: { id: EXAMPLE_IDS.extract },
  },
  ListExtracts: { summary: 'Held company extracts, newest first', query: { kind: 'company', limit: '20' } },
  PurchaseWeeklySummary: {
    summary:
      'Name changes of a completed week, with a live key (the simulator; test keys get sandbox_product_unavailable)',
    headers: { 'Idempotency-Key': 'demo-ws-1', 'X-Client-Reference': 'weekly-watch' },
    body: { type: 'name-changes', weekStarting: '2026-11-16' },
    live: true,
  },
  GetWeeklySummary: {
    summary: 'The name changes bought in the purchase example, five items at a time',
    path: { id: EXAMPLE_IDS.weeklySummary },
    query: { limit: '5' },
    live: true,
  },
  ListWeeklySummaries: {
    summary: 'Held name-change summaries, newest first',
    query: { type: 'name-changes' },
    live: true,
  },
  GetUsage: { summary: 'Fees of November 2026', query: { from: '2026-11-01', to: '2026-11-30' } },
  OrderChargesExtract: {
    summary: 'The 30-page charges extract of KOOKABURRA FREIGHT PTY LTD, by web download',
    path: { id: '990000210' },
    headers: { 'Idempotency-Key': 'demo-3' },
    body: { delivery: { method: 'web' } },
  },
  OrderDocumentImages: {
    summary: 'Pages 1 to 10 of the 64-page financial report 9E0250004, by email',
    headers: { 'Idempotency-Key': 'demo-4' },
    body: {
      documents: [{ documentNumber: '9E0250004', pages: { from: 1, to: 10 } }],
      delivery: { method: 'email', email: 'you@example.com' },
    },
  },
  GetOrder: {
    summary: 'The charges extract order of the example above, ready',
    path: { orderId: EXAMPLE_IDS.order },
  },
  ListOrders: { summary: 'Ready orders, newest first', query: { status: 'ready', limit: '20' } },
  DownloadOrder: { summary: "A ready order's PDF", path: { orderId: EXAMPLE_IDS.order } },
  CreateOfflineSearch: {
    summary: 'The offline search `widgets`: all 180 names, past the 100-name cap',
    headers: { 'Idempotency-Key': 'demo-5' },
    body: { q: 'widgets', scope: 'current', delivery: { method: 'webhook' } },
  },
  ListOfflineSearches: { summary: "The account's offline searches, newest first", query: { limit: '20' } },
  GetOfflineSearch: {
    summary: 'The offline search `widgets` of the example above, ready',
    path: { searchId: EXAMPLE_IDS.offlineSearch },
  },
  ListOfflineSearchResults: {
    summary: 'The first 100 matches of a ready offline search',
    path: { searchId: EXAMPLE_IDS.offlineSearch },
    query: { limit: '100' },
  },
  ListEvents: {
    summary: 'The order.ready events of the last 30 days, newest first',
    query: { type: 'order.ready', limit: '20' },
  },
  GetEvent: {
    summary: 'The order.ready event of the charges extract order above',
    path: { eventId: EVENT_ID },
  },
  ListEventDeliveries: {
    summary: 'Every delivery of that event, with its attempts',
    path: { eventId: EVENT_ID },
    query: { limit: '20' },
  },
  ResendEvent: {
    summary: 'The event sent again to one endpoint, with the same id',
    path: { eventId: EVENT_ID },
    body: { endpointId: ENDPOINT_ID },
  },
  CreateWebhookEndpoint: {
    summary: 'An endpoint for the order events; the signing secret is in this answer only',
    body: {
      url: 'https://hooks.example.com/company-register',
      enabledEvents: ['order.ready', 'order.failed'],
      description: 'Order fulfilment',
    },
  },
  ListWebhookEndpoints: { summary: 'The endpoints of this environment', query: { limit: '20' } },
  GetWebhookEndpoint: { summary: 'One endpoint with its delivery stats', path: { endpointId: ENDPOINT_ID } },
  UpdateWebhookEndpoint: {
    summary: 'The endpoint subscribed to every event type',
    path: { endpointId: ENDPOINT_ID },
    body: { enabledEvents: ['*'] },
  },
  DeleteWebhookEndpoint: { summary: 'The endpoint deleted', path: { endpointId: ENDPOINT_ID } },
  RotateWebhookSecret: {
    summary: 'A new signing secret; for 24 hours deliveries are signed with both',
    path: { endpointId: ENDPOINT_ID },
    body: {},
  },
  ListEndpointDeliveries: {
    summary: "The endpoint's deliveries, newest first",
    path: { endpointId: ENDPOINT_ID },
    query: { limit: '20' },
  },
  RecoverWebhookEndpoint: {
    summary: 'Every failed delivery since 1 November 2026 sent again',
    path: { endpointId: ENDPOINT_ID },
    body: { since: '2026-11-01T00:00:00Z' },
  },
  TestWebhookEndpoint: {
    summary: 'A webhook_endpoint.test event to this endpoint only',
    path: { endpointId: ENDPOINT_ID },
    body: {},
  },
  GetOpenApiDocument: { summary: 'This document' },
};
