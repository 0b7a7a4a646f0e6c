import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_ORDERS, simulatorDataset } from '../../local/generated-data.ts';
import {
  DEFAULT_IMAGE_FAILURE,
  type RegistrySimulator,
  simulatorControl,
  startRegistrySimulator,
} from '../../local/registry-simulator.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { renderDocumentImages } from '../../shared/adapters/sandbox/page-images.ts';
import type { Registry } from '../../shared/app/registry.ts';
import type {
  CompanyExtractType,
  CompanySearchScope,
  RegistryCompanyExtract,
  RegistryCompanyMatch,
} from '../../shared/companies/registry-port.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import {
  HttpRegistry,
  type HttpRegistryOptions,
  RegistryUnreachable,
} from '../../shared/composition/registry/http-registry.ts';
import type { RegistryPurchaseOutcome } from '../../shared/extracts/registry-port.ts';
import { withDeadline } from '../../shared/kernel/http/time-budget.ts';
import { setMetricSink } from '../../shared/kernel/metric-line.ts';
import { logger } from '../../shared/kernel/observability.ts';
import {
  type RegistryCaller,
  type RegistryCharge,
  type RegistryCompany,
  RegistryRejection,
} from '../../shared/kernel/registry-port.ts';
import type {
  RegistryChargesExtractPlan,
  RegistryImageableDocument,
  RegistryImageRequestStatus,
} from '../../shared/orders/registry-port.ts';
import type {
  PeopleSearchQuery,
  PersonExtractOptions,
  RegistryPersonExtract,
  RegistryPersonMatch,
} from '../../shared/people/registry-port.ts';
import type {
  RegistryBusinessName,
  RegistryDocumentDetails,
  RegistryNameReservation,
} from '../../shared/records/registry-port.ts';
import type { RegistryCodeTable, RegistryForm } from '../../shared/reference/registry-port.ts';
import type {
  RegistryRegisterEntry,
  RegistryRegisterExtract,
  RegistryRegisterPage,
} from '../../shared/registers/registry-port.ts';
import type {
  RegistryWeeklySummary,
  RegistryWeeklySummaryPage,
} from '../../shared/weekly-summaries/registry-port.ts';
import { postalDelivery } from '../support/registry.ts';

const company: RegistryCompany = {
  number: '000000019',
  numberType: 'ACN',
  name: 'EXAMPLE HOLDINGS PTY LTD',
  type: 'APTY',
  class: 'LMSH',
  subClass: 'PROP',
  status: 'REGD',
  abn: '51000000019',
  registeredCharity: false,
  registeredAt: '1991-07-01',
  governanceType: null,
  schemeCategories: [],
  deregistration: null,
  formerNames: [{ name: 'EXAMPLE PTY LTD', from: null, to: '2001-03-04' }],
  chargesExtractPages: 3,
};
const match: RegistryCompanyMatch = {
  company,
  matchedName: company.name,
  nameStatus: 'current',
  score: 100,
  address: { locality: 'SYDNEY', state: 'NSW', postcode: '2000', country: 'AUSTRALIA' },
};
const extract = (type: CompanyExtractType): RegistryCompanyExtract => ({
  type,
  asOf: '2026-11-21T10:00:00Z',
  company,
  officeholders: [],
  addresses: [],
  contactAddress: null,
  shareClasses: [],
  members: [],
  documents: [],
  externalAdministration: null,
  charges: [],
  relationships: [],
});
const charge: RegistryCharge = {
  chargeNumber: '1234567',
  company,
  status: 'SATF',
  type: 'F',
  registeredAt: '2004-05-06T00:00:00Z',
  createdAt: '2004-05-01',
  expiresAt: null,
  satisfiedAt: '2010-01-02',
  preAsicChargeNumber: null,
  chargees: [],
  documents: [],
};

const personMatch: RegistryPersonMatch = {
  registryIdentifier: '123456789',
  name: { familyName: 'EXAMPLE', givenNames: ['JOHN', 'PAUL'] },
  birth: { date: '1970-01-02', locality: 'SYDNEY', stateOrCountry: 'NSW' },
  formerName: null,
  roleCount: 1,
};
const personExtract = (options: PersonExtractOptions): RegistryPersonExtract => ({
  type: options.history ? 'historical' : 'current',
  asOf: '2026-11-21T10:00:00Z',
  person: personMatch,
  roles: [
    {
      role: 'DR',
      status: 'C',
      appointedAt: '2001-03-04',
      ceasedAt: null,
      company,
      address: null,
      sourceDocument: null,
    },
  ],
  licences: [],
  shareholdings: [],
  documents: [],
  notices: [{ type: 'same_name', acn: null, text: 'Namesakes exist.' }],
});

const personQuery: PeopleSearchQuery = {
  familyName: 'EXAMPLE',
  givenName: 'J',
  birthDateFrom: null,
  birthDateTo: null,
};

/** A registry that knows one company, one charge and one person, and records who asked. */
class FakeRegistry implements Registry {
  readonly seen: { method: string; caller: RegistryCaller }[] = [];

  async getCompany(number: string, caller: RegistryCaller) {
    this.seen.push({ method: 'getCompany', caller });
    if (number === company.number) return company;
    throw new RegistryRejection('CE03', 'No organisation with this number');
  }
  async getCompanyByAbn(abn: string, caller: RegistryCaller) {
    this.seen.push({ method: 'getCompanyByAbn', caller });
    if (abn === company.abn) return company;
    throw new RegistryRejection('CE13', 'No organisation matches the ACN in this ABN');
  }
  async searchCompanies(query: { name: string; scope: CompanySearchScope }, caller: RegistryCaller) {
    this.seen.push({ method: 'searchCompanies', caller });
    if (query.name === 'SMITH')
      throw new RegistryRejection('ON52', 'Too many names selected', { counts: { returned: 0, found: 250 } });
    return { found: 1, matches: [match] };
  }
  async purchaseCompanyExtract(number: string, type: CompanyExtractType, caller: RegistryCaller) {
    this.seen.push({ method: 'purchaseCompanyExtract', caller });
    if (number !== company.number) throw new RegistryRejection('CE03', 'No organisation with this number');
    return extract(type);
  }
  async getCharge(chargeNumber: string, caller: RegistryCaller) {
    this.seen.push({ method: 'getCharge', caller });
    if (chargeNumber === charge.chargeNumber) return charge;
    throw new RegistryRejection('CH01', 'Charge number invalid or unknown');
  }
  async listCompanyDocuments(number: string, caller: RegistryCaller) {
    this.seen.push({ method: 'listCompanyDocuments', caller });
    if (number !== company.number) throw new RegistryRejection('CD07', 'No organisation with this number');
    return extract('historical').documents;
  }
  readonly queries: PeopleSearchQuery[] = [];
  readonly options: PersonExtractOptions[] = [];
  async searchPeople(query: PeopleSearchQuery, caller: RegistryCaller) {
    this.seen.push({ method: 'searchPeople', caller });
    this.queries.push(query);
    if (query.familyName === 'SMITH')
      throw new RegistryRejection('PN52', 'Too many people selected', {
        counts: { returned: 0, found: 140 },
      });
    return { found: 1, matches: [personMatch] };
  }
  async purchasePersonExtract(
    registryIdentifier: string,
    options: PersonExtractOptions,
    caller: RegistryCaller,
  ) {
    this.seen.push({ method: 'purchasePersonExtract', caller });
    this.options.push(options);
    if (registryIdentifier !== personMatch.registryIdentifier)
      throw new RegistryRejection('PE03', 'No name record has this identifier');
    return personExtract(options);
  }
  // The orders operations are exercised against a dataset registry (below), not this fake.
  planChargesExtract(): Promise<RegistryChargesExtractPlan> {
    throw new Error('not served by the fake');
  }
  getDocuments(): Promise<RegistryImageableDocument[]> {
    throw new Error('not served by the fake');
  }
  requestImages(): Promise<{ registryRequestId: string }> {
    throw new Error('not served by the fake');
  }
  getImageRequest(): Promise<RegistryImageRequestStatus> {
    throw new Error('not served by the fake');
  }
  getImages(): Promise<Uint8Array> {
    throw new Error('not served by the fake');
  }
  requestPostalDelivery(): Promise<{ dispatchId: string }> {
    throw new Error('not served by the fake');
  }
  searchCompaniesOffline(): Promise<{ matches: RegistryCompanyMatch[] }> {
    throw new Error('not served by the fake');
  }
  // The simulator answers purchase.outcome from its own record of keyed calls.
  findPurchase(): Promise<RegistryPurchaseOutcome> {
    throw new Error('not served by the fake');
  }
  // Weekly summaries go through the simulator in test/unit/weekly-summaries-registry.test.ts.
  purchaseWeeklySummary(): Promise<RegistryWeeklySummary> {
    throw new Error('not served by the fake');
  }
  weeklySummaryItems(): Promise<RegistryWeeklySummaryPage> {
    throw new Error('not served by the fake');
  }
  // Record lookups go through the simulator in test/unit/records-registry.test.ts.
  getDocumentDetails(): Promise<RegistryDocumentDetails[]> {
    throw new Error('not served by the fake');
  }
  findBusinessNames(): Promise<RegistryBusinessName[]> {
    throw new Error('not served by the fake');
  }
  getNameReservation(): Promise<RegistryNameReservation> {
    throw new Error('not served by the fake');
  }
  // Registers go through the sandbox and the simulator in test/unit/registers.test.ts and test/http/registers.test.ts.
  browseRegister(): Promise<RegistryRegisterPage> {
    throw new Error('not served by the fake');
  }
  getRegisterEntry(): Promise<RegistryRegisterEntry> {
    throw new Error('not served by the fake');
  }
  purchaseRegisterExtract(): Promise<RegistryRegisterExtract> {
    throw new Error('not served by the fake');
  }
  // Reference data goes through the simulator in test/unit/reference/refresh.test.ts.
  getFormSchedule(): Promise<{ forms: RegistryForm[] }> {
    throw new Error('not served by the fake');
  }
  getCodeTables(): Promise<{ tables: RegistryCodeTable[] }> {
    throw new Error('not served by the fake');
  }
}

const CREDENTIAL = 'broker-credential';
const caller: RegistryCaller = { accountId: 'acct_1', requestId: 'req_abc', clientReference: 'file 7' };
/** A fresh client key for each billable call. */
let keys = 0;
const nextKey = () => `key_${++keys}`;
const fake = new FakeRegistry();
let simulator: RegistrySimulator;
let sleeps: number[] = [];

/** Sleeps are recorded and skipped; timeout tests pass small timeouts of their own. */
function adapter(overrides: Partial<HttpRegistryOptions> = {}): HttpRegistry {
  return new HttpRegistry({
    baseUrl: simulator.url,
    credential: async () => CREDENTIAL,
    timeouts: { lookupMs: 2_000, purchaseMs: 2_000 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

async function rejection(promise: Promise<unknown>): Promise<RegistryRejection> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(RegistryRejection);
  return error as RegistryRejection;
}

async function unreachable(promise: Promise<unknown>): Promise<RegistryUnreachable> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(RegistryUnreachable);
  return error as RegistryUnreachable;
}

const until = async (condition: () => boolean, ms = 2_000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, 10));
  }
};

beforeAll(async () => {
  // Retries and failures are logged as warnings; the assertions below say what happened.
  logger.setLogLevel('SILENT');
  simulator = await startRegistrySimulator({ registry: fake, credential: CREDENTIAL });
});
afterAll(async () => {
  await simulator.stop();
});
afterEach(() => {
  simulator.faults.clear();
  simulator.calls.reset();
  fake.seen.length = 0;
  fake.queries.length = 0;
  fake.options.length = 0;
  sleeps = [];
});

describe('HTTP registry adapter against the simulator: answers', () => {
  it('round-trips every operation, passes the caller through and sends the client key of a purchase', async () => {
    const registry = adapter();
    const key = nextKey();
    expect(await registry.getCompany('000000019', caller)).toEqual(company);
    expect(await registry.getCompanyByAbn('51000000019', caller)).toEqual(company);
    expect(await registry.searchCompanies({ name: 'EXAMPLE', scope: 'all' }, caller)).toEqual({
      found: 1,
      matches: [match],
    });
    expect(await registry.purchaseCompanyExtract('000000019', 'historical', caller, key)).toEqual(
      extract('historical'),
    );
    expect(await registry.getCharge('1234567', caller)).toEqual(charge);
    expect(await registry.listCompanyDocuments('000000019', caller)).toEqual(extract('historical').documents);

    expect(fake.seen.map((s) => s.method)).toEqual([
      'getCompany',
      'getCompanyByAbn',
      'searchCompanies',
      'purchaseCompanyExtract',
      'getCharge',
      'listCompanyDocuments',
    ]);
    expect(new Set(fake.seen.map((s) => JSON.stringify(s.caller)))).toEqual(
      new Set([JSON.stringify(caller)]),
    );
    const log = simulator.calls.snapshot();
    expect(log.counts).toEqual({
      'company.get': 1,
      'company.getByAbn': 1,
      'company.search': 1,
      'company.extract': 1,
      'charge.get': 1,
      'company.documents': 1,
    });
    expect(log.billed).toBe(1);
    expect(
      log.calls.map((c) => [
        c.operation,
        c.args,
        c.requestId,
        c.clientKey,
        c.outcome,
        c.status,
        c.repeated,
        c.billed,
      ]),
    ).toEqual([
      ['company.get', { number: '000000019' }, 'req_abc', null, 'ok', 200, false, false],
      ['company.getByAbn', { abn: '51000000019' }, 'req_abc', null, 'ok', 200, false, false],
      ['company.search', { name: 'EXAMPLE', scope: 'all' }, 'req_abc', null, 'ok', 200, false, false],
      [
        'company.extract',
        { number: '000000019', type: 'historical', clientKey: key },
        'req_abc',
        key,
        'ok',
        200,
        false,
        true,
      ],
      ['charge.get', { chargeNumber: '1234567' }, 'req_abc', null, 'ok', 200, false, false],
      ['company.documents', { number: '000000019' }, 'req_abc', null, 'ok', 200, false, false],
    ]);
    expect(sleeps).toEqual([]);
  });

  it('sends a missing client reference as null', async () => {
    await adapter().getCompany('000000019', { accountId: 'acct_2', requestId: 'req_2' });
    expect(fake.seen[0]?.caller).toEqual({ accountId: 'acct_2', requestId: 'req_2', clientReference: null });
  });

  it('turns registry rejections into RegistryRejection with code, message and details', async () => {
    const registry = adapter();
    const notFound = await rejection(registry.getCompany('999999999', caller));
    expect([notFound.registryCode, notFound.message, notFound.details]).toEqual([
      'CE03',
      'No organisation with this number',
      undefined,
    ]);
    expect((await rejection(registry.getCompanyByAbn('11111111111', caller))).registryCode).toBe('CE13');
    expect((await rejection(registry.getCharge('0', caller))).registryCode).toBe('CH01');
    expect(
      (await rejection(registry.purchaseCompanyExtract('999999999', 'current', caller, nextKey())))
        .registryCode,
    ).toBe('CE03');
    const tooMany = await rejection(registry.searchCompanies({ name: 'SMITH', scope: 'current' }, caller));
    expect([tooMany.registryCode, tooMany.details]).toEqual([
      'ON52',
      { counts: { returned: 0, found: 250 } },
    ]);

    const log = simulator.calls.snapshot();
    expect(log.calls.map((c) => [c.outcome, c.status])).toEqual([
      ['CE03', 422],
      ['CE13', 422],
      ['CH01', 422],
      ['CE03', 422],
      ['ON52', 422],
    ]);
    expect(log.billed).toBe(0);
    expect(sleeps).toEqual([]);
  });
});

describe('HTTP registry adapter against the simulator: people', () => {
  const query: PeopleSearchQuery = {
    familyName: 'EXAMPLE',
    givenName: 'JOHN',
    birthDateFrom: '1960-01-01',
    birthDateTo: '1980-12-31',
  };

  it('round-trips person.search and person.extract; only the extract is billed', async () => {
    const registry = adapter();
    expect(await registry.searchPeople(query, caller)).toEqual({ found: 1, matches: [personMatch] });
    const options = { history: true, includeShareholdings: false };
    const key = nextKey();
    expect(await registry.purchasePersonExtract('123456789', options, caller, key)).toEqual(
      personExtract(options),
    );
    expect(fake.queries).toEqual([query]);
    expect(fake.options).toEqual([options]);
    expect(fake.seen).toEqual([
      { method: 'searchPeople', caller },
      { method: 'purchasePersonExtract', caller },
    ]);
    const log = simulator.calls.snapshot();
    expect(log.counts).toEqual({ 'person.search': 1, 'person.extract': 1 });
    expect(log.billed).toBe(1);
    expect(
      log.calls.map((c) => [c.operation, c.args, c.accountId, c.clientKey, c.outcome, c.status, c.billed]),
    ).toEqual([
      ['person.search', { query }, 'acct_1', null, 'ok', 200, false],
      [
        'person.extract',
        {
          registryIdentifier: '123456789',
          options: { history: true, includeShareholdings: false },
          clientKey: key,
        },
        'acct_1',
        key,
        'ok',
        200,
        true,
      ],
    ]);
  });

  it('sends a missing birth-date range as nulls', async () => {
    await adapter().searchPeople({ familyName: 'EXAMPLE', givenName: 'J' } as PeopleSearchQuery, caller);
    expect(fake.queries).toEqual([
      { familyName: 'EXAMPLE', givenName: 'J', birthDateFrom: null, birthDateTo: null },
    ]);
  });

  it('turns people rejections into RegistryRejection with their details', async () => {
    const registry = adapter();
    const tooMany = await rejection(registry.searchPeople({ ...query, familyName: 'SMITH' }, caller));
    expect([tooMany.registryCode, tooMany.message, tooMany.details]).toEqual([
      'PN52',
      'Too many people selected',
      { counts: { returned: 0, found: 140 } },
    ]);
    const unknown = await rejection(
      registry.purchasePersonExtract(
        '999',
        { history: false, includeShareholdings: false },
        caller,
        nextKey(),
      ),
    );
    expect([unknown.registryCode, unknown.details]).toEqual(['PE03', undefined]);
    expect(simulator.calls.list().map((c) => [c.outcome, c.status, c.billed])).toEqual([
      ['PN52', 422, false],
      ['PE03', 422, false],
    ]);
  });

  it('retries a timed-out person extract with the same client key (never billed twice), and a timed-out people search', async () => {
    simulator.faults.add({ latencyMs: 300, operations: ['person.extract', 'person.search'] });
    const registry = adapter({ timeouts: { lookupMs: 100, purchaseMs: 100 } });
    const purchase = await unreachable(
      registry.purchasePersonExtract(
        '123456789',
        { history: false, includeShareholdings: true },
        caller,
        nextKey(),
      ),
    );
    expect([purchase.reason, purchase.operation, purchase.attempts, purchase.outcomeUnknown]).toEqual([
      'timeout',
      'person.extract',
      2,
      true,
    ]);
    expect(simulator.calls.count('person.extract')).toBe(2);
    const lookup = await unreachable(registry.searchPeople(query, caller));
    expect([lookup.reason, lookup.operation, lookup.attempts, lookup.outcomeUnknown]).toEqual([
      'timeout',
      'person.search',
      2,
      false,
    ]);
    expect(simulator.calls.count('person.search')).toBe(2);
    expect(sleeps).toEqual([200, 200]);
    await until(() => simulator.calls.list().every((c) => c.outcome === 'ok'));
    // The repeat of the key waited for the first call: one bill.
    expect(simulator.calls.list('person.extract').map((c) => [c.billed, c.repeated])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(simulator.calls.billed()).toBe(1);
  });

  it('reports a person.search or person.extract result of the wrong kind as bad_response', async () => {
    const wrong: typeof fetch = async () =>
      new Response(JSON.stringify({ result: { type: 'current', person: {} } }), { status: 200 });
    const error = await unreachable(
      adapter({ fetch: wrong }).purchasePersonExtract(
        '123456789',
        { history: false, includeShareholdings: false },
        caller,
        nextKey(),
      ),
    );
    expect(error.message).toBe(
      'registry person.extract: HTTP 200 with a result that is not a person.extract result (after one retry)',
    );
    const search = await unreachable(adapter({ fetch: wrong }).searchPeople(query, caller));
    expect(search.message).toBe(
      'registry person.search: HTTP 200 with a result that is not a person.search result (after one retry)',
    );
  });
});

describe('HTTP registry adapter: retries', () => {
  it('retries once after ZZ53 and succeeds', async () => {
    simulator.faults.add({ code: 'ZZ53', times: 1 });
    expect(await adapter().purchaseCompanyExtract('000000019', 'current', caller, nextKey())).toEqual(
      extract('current'),
    );
    expect(simulator.calls.list().map((c) => c.outcome)).toEqual(['ZZ53', 'ok']);
    expect(simulator.calls.count('company.extract')).toBe(2);
    expect(simulator.calls.billed()).toBe(1);
    expect(sleeps).toEqual([200]);
  });

  it('surfaces a second ZZ53 as RegistryRejection ZZ53 after exactly two calls', async () => {
    simulator.faults.add({ code: 'ZZ53' });
    const error = await rejection(adapter({ retryDelayMs: 5 }).getCompany('000000019', caller));
    expect([error.registryCode, error.message]).toEqual(['ZZ53', 'Registry application error']);
    expect(simulator.calls.list().map((c) => [c.outcome, c.status])).toEqual([
      ['ZZ53', 500],
      ['ZZ53', 500],
    ]);
    expect(sleeps).toEqual([5]);
    expect(fake.seen).toEqual([]);
  });

  it('answers a maintenance window with ZZ51, HTTP 503 and Retry-After 300, without a retry', async () => {
    simulator.faults.add({ code: 'ZZ51' });
    const error = await rejection(adapter().searchCompanies({ name: 'EXAMPLE', scope: 'current' }, caller));
    expect([error.registryCode, error.details]).toEqual(['ZZ51', { retryAfterSeconds: 300 }]);
    expect(simulator.calls.count()).toBe(1);
    expect(sleeps).toEqual([]);

    const raw = await fetch(`${simulator.url}/v1/company.get`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${CREDENTIAL}` },
      body: JSON.stringify({ number: '000000019', caller }),
    });
    expect([raw.status, raw.headers.get('retry-after')]).toEqual([503, '300']);
    expect(await raw.json()).toEqual({
      error: { code: 'ZZ51', message: 'Registry database unavailable: maintenance window' },
    });
  });

  it('retries a timed-out extract once with the same client key: the registry bills it once, the outcome stays unknown', async () => {
    simulator.faults.add({ latencyMs: 350, operations: ['company.extract'] });
    const started = Date.now();
    const registry = adapter({ timeouts: { lookupMs: 2_000, purchaseMs: 100 } });
    const key = nextKey();
    const error = await unreachable(registry.purchaseCompanyExtract('000000019', 'current', caller, key));
    // Two attempts of 100 ms (the retry delay is the test's instant sleep).
    expect(Date.now() - started).toBeLessThan(340);
    expect([error.reason, error.operation, error.attempts, error.outcomeUnknown]).toEqual([
      'timeout',
      'company.extract',
      2,
      true,
    ]);
    expect(error.message).toBe('registry company.extract: no answer within 100 ms (after one retry)');
    expect((error.cause as Error).name).toBe('TimeoutError');
    expect(simulator.calls.list().map((c) => c.clientKey)).toEqual([key, key]);
    expect(sleeps).toEqual([200]);
    // The registry finishes the purchase nobody is waiting for: billed once, answer lost.
    await until(() => simulator.calls.list().every((c) => c.outcome === 'ok'));
    expect(simulator.calls.billed()).toBe(1);
    expect(await registry.findPurchase(key, caller)).toEqual({
      state: 'completed',
      operation: 'company.extract',
      result: extract('current'),
    });
  });

  it('retries a timed-out lookup once', async () => {
    simulator.faults.add({ latencyMs: 300, operations: ['company.get'] });
    const registry = adapter({ timeouts: { lookupMs: 100, purchaseMs: 2_000 } });
    const error = await unreachable(registry.getCompany('000000019', caller));
    expect([error.reason, error.attempts]).toEqual(['timeout', 2]);
    expect(error.message).toBe('registry company.get: no answer within 100 ms (after one retry)');
    expect(simulator.calls.count('company.get')).toBe(2);
    expect(sleeps).toEqual([200]);

    simulator.calls.reset();
    simulator.faults.clear();
    simulator.faults.add({ latencyMs: 300, times: 1 });
    expect(await registry.getCharge('1234567', caller)).toEqual(charge);
    expect(simulator.calls.count('charge.get')).toBe(2);
  });

  it('retries a refused connection once, for every operation, then gives up', async () => {
    const gone = await startRegistrySimulator({ registry: fake });
    await gone.stop();
    let attempts = 0;
    const counting: typeof fetch = (input, init) => {
      attempts += 1;
      return fetch(input, init);
    };
    const registry = adapter({ baseUrl: gone.url, fetch: counting });
    const lookup = await unreachable(registry.getCompany('000000019', caller));
    expect([lookup.reason, lookup.attempts, attempts]).toEqual(['connection', 2, 2]);
    expect(lookup.message).toContain('ECONNREFUSED');
    const purchase = await unreachable(
      registry.purchaseCompanyExtract('000000019', 'current', caller, nextKey()),
    );
    expect([purchase.reason, purchase.attempts, attempts]).toEqual(['connection', 2, 4]);
    expect(sleeps).toEqual([200, 200]);
  });

  it('retries a dropped connection once, a purchase with its client key: dropped once, it is bought and billed once', async () => {
    simulator.faults.add({ response: 'disconnect', times: 1, operations: ['company.get'] });
    expect(await adapter().getCompany('000000019', caller)).toEqual(company);
    expect(simulator.calls.count('company.get')).toBe(2);

    simulator.faults.add({ response: 'disconnect', times: 1, operations: ['company.extract'] });
    expect(await adapter().purchaseCompanyExtract('000000019', 'relational', caller, nextKey())).toEqual(
      extract('relational'),
    );
    expect(simulator.calls.list('company.extract').map((c) => [c.billed, c.repeated])).toEqual([
      [true, false],
      [false, true],
    ]);

    simulator.faults.add({ response: 'disconnect', operations: ['company.extract'] });
    const error = await unreachable(
      adapter().purchaseCompanyExtract('000000019', 'relational', caller, nextKey()),
    );
    expect([error.reason, error.attempts, error.outcomeUnknown]).toEqual(['connection', 2, true]);
    expect(simulator.calls.count('company.extract')).toBe(4);
    expect(simulator.calls.billed()).toBe(2);
  });

  it('reports an answer that is not the protocol as bad_response after one retry', async () => {
    simulator.faults.add({ response: 'non-json', times: 2 });
    const html = await unreachable(adapter().getCompany('000000019', caller));
    expect([html.reason, html.attempts, html.message]).toEqual([
      'bad_response',
      2,
      'registry company.get: HTTP 200 with a body that is not JSON (after one retry)',
    ]);
    expect(html.cause).toBeInstanceOf(SyntaxError);

    simulator.faults.add({ response: 'malformed', times: 2 });
    const shapeless = await unreachable(adapter().getCharge('1234567', caller));
    expect([shapeless.reason, shapeless.message]).toEqual([
      'bad_response',
      'registry charge.get: HTTP 200 without a result (after one retry)',
    ]);
    expect(simulator.calls.count()).toBe(4);
    expect(sleeps).toEqual([200, 200]);

    // Garbled once: the retry gets the answer.
    simulator.faults.add({ response: 'non-json', times: 1 });
    expect(await adapter().getCompany('000000019', caller)).toEqual(company);
  });

  it('reports a result of the wrong kind as bad_response', async () => {
    const wrong: typeof fetch = async () =>
      new Response(JSON.stringify({ result: { hello: 'world' } }), { status: 200 });
    const error = await unreachable(
      adapter({ fetch: wrong }).searchCompanies({ name: 'X', scope: 'all' }, caller),
    );
    expect([error.reason, error.message]).toEqual([
      'bad_response',
      'registry company.search: HTTP 200 with a result that is not a company.search result (after one retry)',
    ]);
  });
});

describe('HTTP registry adapter: the RegistryCalls metric', () => {
  let lines: Record<string, unknown>[] = [];
  beforeEach(() => {
    lines = [];
    // The RegistryCalls lines (each call is also recorded as a dependency call, with its own lines).
    setMetricSink((line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if ('RegistryCalls' in parsed) lines.push(parsed);
    });
  });
  afterEach(() => {
    setMetricSink(undefined);
  });
  const counted = () => lines.map((line) => [line.operation, line.outcome, line.RegistryCalls]);

  it('counts each call once, retries included, by operation and outcome', async () => {
    await adapter().getCompany('000000019', caller);
    await rejection(adapter().getCompany('000000099', caller));
    simulator.faults.add({ code: 'ZZ53', times: 1 });
    await adapter().getCompany('000000019', caller);
    simulator.faults.add({ code: 'ZZ51' });
    await rejection(adapter().searchCompanies({ name: 'EXAMPLE', scope: 'current' }, caller));
    simulator.faults.clear();
    simulator.faults.add({ code: 'ZZ53' });
    await rejection(adapter().getCompany('000000019', caller));
    simulator.faults.clear();
    await unreachable(adapter({ baseUrl: 'http://127.0.0.1:9' }).getCompany('000000019', caller));
    expect(counted()).toEqual([
      ['company.get', 'ok', 1],
      ['company.get', 'rejected', 1],
      ['company.get', 'ok', 1],
      ['company.search', 'maintenance', 1],
      ['company.get', 'failed', 1],
      ['company.get', 'failed', 1],
    ]);
  });

  it('writes embedded-metric-format lines an alarm can total by outcome alone', async () => {
    await adapter().getCompany('000000019', caller);
    expect(lines[0]?._aws).toEqual({
      Timestamp: expect.any(Number),
      CloudWatchMetrics: [
        {
          Namespace: 'CompanyRegister',
          Dimensions: [['operation', 'outcome'], ['outcome']],
          Metrics: [{ Name: 'RegistryCalls', Unit: 'Count' }],
        },
      ],
    });
  });
});

describe('HTTP registry adapter: client keys and purchase outcomes', () => {
  it('answers what became of a key: none when unknown or refused, pending while it runs, completed after', async () => {
    const registry = adapter();
    expect(await registry.findPurchase('never-used', caller)).toEqual({ state: 'none' });

    const refused = nextKey();
    expect(
      (await rejection(registry.purchaseCompanyExtract('999999999', 'current', caller, refused)))
        .registryCode,
    ).toBe('CE03');
    expect(await registry.findPurchase(refused, caller)).toEqual({ state: 'none' });

    simulator.faults.add({ latencyMs: 300, times: 1, operations: ['company.extract'] });
    const slow = nextKey();
    const buying = registry.purchaseCompanyExtract('000000019', 'current', caller, slow);
    await until(() => simulator.calls.count('company.extract') === 2);
    expect(await registry.findPurchase(slow, caller)).toEqual({ state: 'pending' });
    expect(await buying).toEqual(extract('current'));
    expect(await registry.findPurchase(slow, caller)).toEqual({
      state: 'completed',
      operation: 'company.extract',
      result: extract('current'),
    });
    // Another account cannot see the key.
    expect(await registry.findPurchase(slow, { ...caller, accountId: 'acct_2' })).toEqual({ state: 'none' });
    expect(simulator.calls.billed()).toBe(1);
  });

  it('refuses a key reused with other arguments, and bills nothing for it', async () => {
    const registry = adapter();
    const key = nextKey();
    await registry.purchaseCompanyExtract('000000019', 'current', caller, key);
    const reused = await unreachable(registry.purchaseCompanyExtract('000000019', 'historical', caller, key));
    expect(reused.reason).toBe('bad_response');
    expect(simulator.calls.list('company.extract').map((c) => [c.outcome, c.status, c.billed])).toEqual([
      ['ok', 200, true],
      ['client_key_reused', 409, false],
      ['client_key_reused', 409, false],
    ]);
  });

  it('gives an attempt no more time than the request deadline leaves, and sends nothing without time', async () => {
    simulator.faults.add({ latencyMs: 2_000, operations: ['company.extract'] });
    const registry = adapter({ timeouts: { lookupMs: 5_000, purchaseMs: 5_000 } });
    const started = Date.now();
    const cut = await unreachable(
      withDeadline(Date.now() + 600, () =>
        registry.purchaseCompanyExtract('000000019', 'current', caller, nextKey()),
      ),
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    expect([cut.reason, cut.attempts, cut.outcomeUnknown]).toEqual(['timeout', 1, true]);
    expect(sleeps).toEqual([]);

    simulator.calls.reset();
    const none = await unreachable(
      withDeadline(Date.now() + 100, () =>
        registry.purchaseCompanyExtract('000000019', 'current', caller, nextKey()),
      ),
    );
    expect([none.reason, none.attempts, none.outcomeUnknown]).toEqual(['no_time', 1, false]);
    expect(simulator.calls.count()).toBe(0);
  });
});

describe('HTTP registry adapter: credential', () => {
  it('reports a refused credential as unauthorized, never reaching the registry', async () => {
    const error = await unreachable(
      adapter({ credential: async () => 'stale' }).getCompany('000000019', caller),
    );
    expect([error.reason, error.attempts]).toEqual(['unauthorized', 1]);
    expect(error.message).toBe(
      'registry company.get: the registry refused our credential (HTTP 401): credential not accepted',
    );
    expect(fake.seen).toEqual([]);
    expect(simulator.calls.list().map((c) => [c.outcome, c.status])).toEqual([['unauthorized', 401]]);
  });

  it('asks for the credential on every attempt, so a rotated secret is picked up', async () => {
    const handed: string[] = [];
    const rotating = [CREDENTIAL, 'rotated'];
    const rotated = await startRegistrySimulator({ registry: fake, credential: 'rotated' });
    try {
      const registry = adapter({
        baseUrl: rotated.url,
        credential: async () => {
          const value = rotating.shift() ?? 'rotated';
          handed.push(value);
          return value;
        },
      });
      await unreachable(registry.getCompany('000000019', caller));
      expect(await registry.getCompany('000000019', caller)).toEqual(company);
      expect(handed).toEqual([CREDENTIAL, 'rotated']);
    } finally {
      await rotated.stop();
    }
  });
});

describe('registry simulator: faults and control endpoints', () => {
  it('scopes a fault to its operations and its number of times', async () => {
    const rule = simulator.faults.add({
      code: 'CE51',
      operations: ['company.extract'],
      times: 2,
      details: { note: 'no product' },
    });
    const registry = adapter();
    expect(await registry.getCompany('000000019', caller)).toEqual(company);
    for (let i = 0; i < 2; i++) {
      const error = await rejection(
        registry.purchaseCompanyExtract('000000019', 'current', caller, nextKey()),
      );
      expect([error.registryCode, error.message, error.details]).toEqual([
        'CE51',
        'Simulated rejection CE51',
        { note: 'no product' },
      ]);
    }
    expect(await registry.purchaseCompanyExtract('000000019', 'current', caller, nextKey())).toEqual(
      extract('current'),
    );
    expect(simulator.faults.list()).toEqual([{ ...rule, remaining: 0, applied: 2 }]);
    expect(simulator.calls.list().map((c) => [c.operation, c.outcome, c.faults.length])).toEqual([
      ['company.get', 'ok', 0],
      ['company.extract', 'CE51', 1],
      ['company.extract', 'CE51', 1],
      ['company.extract', 'ok', 0],
    ]);
    expect(simulator.calls.billed()).toBe(1);
  });

  it('scopes a fault to one account: ZZ02 for that account only', async () => {
    const rule = simulator.faults.add({ code: 'ZZ02', accountId: 'acct_x', operations: ['person.extract'] });
    expect(rule).toMatchObject({ code: 'ZZ02', accountId: 'acct_x', operations: ['person.extract'] });
    const registry = adapter();
    const options = { history: false, includeShareholdings: false };
    const forX = { ...caller, accountId: 'acct_x' };
    const error = await rejection(registry.purchasePersonExtract('123456789', options, forX, nextKey()));
    expect([error.registryCode, error.message]).toEqual(['ZZ02', 'Simulated rejection ZZ02']);
    expect(await registry.purchasePersonExtract('123456789', options, caller, nextKey())).toEqual(
      personExtract(options),
    );
    expect(await registry.searchPeople({ ...personQuery }, forX)).toEqual({
      found: 1,
      matches: [personMatch],
    });
    expect(
      simulator.calls.list().map((c) => [c.operation, c.accountId, c.outcome, c.faults.length, c.billed]),
    ).toEqual([
      ['person.extract', 'acct_x', 'ZZ02', 1, false],
      ['person.extract', 'acct_1', 'ok', 0, true],
      ['person.search', 'acct_x', 'ok', 0, false],
    ]);
    expect(simulator.faults.list()).toEqual([{ ...rule, applied: 1 }]);

    // The same over the control endpoint; other accounts do not use up its times.
    simulator.faults.clear();
    const control = simulatorControl(simulator.url);
    const once = await control.addFault({ code: 'ZZ02', accountId: 'acct_x', times: 1 });
    expect([once.accountId, once.remaining]).toEqual(['acct_x', 1]);
    expect(await registry.getCompany('000000019', caller)).toEqual(company);
    expect((await rejection(registry.getCompany('000000019', forX))).registryCode).toBe('ZZ02');
    expect(await registry.getCompany('000000019', forX)).toEqual(company);
    expect((await control.faults())[0]).toMatchObject({ remaining: 0, applied: 1 });
  });

  it('adds latency to every call of one operation, calls waiting side by side', async () => {
    simulator.faults.add({ latencyMs: 150, operations: ['person.extract'] });
    const registry = adapter();
    const options = { history: true, includeShareholdings: true };
    const started = Date.now();
    await Promise.all([
      registry.purchasePersonExtract('123456789', options, caller, nextKey()),
      registry.purchasePersonExtract('123456789', options, caller, nextKey()),
    ]);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(145);
    expect(elapsed).toBeLessThan(290);
    await registry.searchPeople(personQuery, caller);
    const durations = simulator.calls.list().map((c) => [c.operation, (c.durationMs ?? 0) >= 145]);
    expect(durations).toEqual([
      ['person.extract', true],
      ['person.extract', true],
      ['person.search', false],
    ]);
  });

  it('delays matching calls with a latency-only rule', async () => {
    simulator.faults.add({ latencyMs: 80, operations: ['charge.get'] });
    const started = Date.now();
    expect(await adapter().getCharge('1234567', caller)).toEqual(charge);
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    expect(simulator.calls.list()[0]?.durationMs).toBeGreaterThanOrEqual(75);
  });

  it('is controlled over HTTP', async () => {
    const control = simulatorControl(simulator.url);
    const rule = await control.addFault({
      code: 'ZZ51',
      operations: ['company.search'],
      message: 'Sunday window',
    });
    expect(rule).toMatchObject({
      code: 'ZZ51',
      operations: ['company.search'],
      times: null,
      remaining: null,
      latencyMs: 0,
      message: 'Sunday window',
    });
    expect(rule.id).toMatch(/^fault_/);
    expect(await control.faults()).toEqual([rule]);

    const error = await rejection(adapter().searchCompanies({ name: 'EXAMPLE', scope: 'current' }, caller));
    expect([error.registryCode, error.message]).toEqual(['ZZ51', 'Sunday window']);
    expect(await adapter().getCompany('000000019', caller)).toEqual(company);

    const log = await control.calls();
    expect(log.counts).toEqual({ 'company.search': 1, 'company.get': 1 });
    expect(log.billed).toBe(0);
    expect(log.calls.map((c) => [c.operation, c.requestId, c.outcome])).toEqual([
      ['company.search', 'req_abc', 'ZZ51'],
      ['company.get', 'req_abc', 'ok'],
    ]);
    expect(log.calls[0]?.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    await control.removeFault(rule.id);
    expect(await control.faults()).toEqual([]);
    await control.addFault({ code: 'ZZ53' });
    await control.addFault({ latencyMs: 10 });
    expect(await control.faults()).toHaveLength(2);
    await control.clearFaults();
    expect(await control.faults()).toEqual([]);
    await control.resetCalls();
    expect(await control.calls()).toEqual({ counts: {}, billed: 0, calls: [] });
  });

  it('refuses invalid fault rules with 400', async () => {
    const post = (body: unknown) =>
      fetch(`${simulator.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify(body) });
    for (const body of [
      { code: 'zz51' },
      { code: 'ZZ51', operations: ['company.delete'] },
      { code: 'ZZ51', times: 0 },
      { latencyMs: -1 },
      { message: 'nothing to do' },
      { code: 'ZZ51', colour: 'red' },
      { code: 'ZZ02', accountId: '' },
      { code: 'ZZ02', accountId: 42 },
    ]) {
      const response = await post(body);
      expect([response.status, ((await response.json()) as { error: { code: string } }).error.code]).toEqual([
        400,
        'bad_request',
      ]);
    }
    expect(simulator.faults.list()).toEqual([]);
    await expect(simulatorControl(simulator.url).removeFault('fault_nope')).rejects.toThrow('HTTP 404');
  });

  it('answers protocol errors for unknown operations and bad bodies', async () => {
    const post = (path: string, body: string, credential = CREDENTIAL) =>
      fetch(`${simulator.url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${credential}` },
        body,
      });
    const unknown = await post('/v1/company.delete', '{}');
    expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'unknown_operation',
    ]);
    const noCaller = await post('/v1/company.get', JSON.stringify({ number: '000000019' }));
    expect(noCaller.status).toBe(400);
    const noNumber = await post('/v1/company.get', JSON.stringify({ caller }));
    expect(noNumber.status).toBe(400);
    const textQuery = await post('/v1/person.search', JSON.stringify({ query: 'SMITH', caller }));
    expect([textQuery.status, await textQuery.json()]).toEqual([
      400,
      { error: { code: 'bad_request', message: 'query must be an object' } },
    ]);
    const noOptions = await post('/v1/person.extract', JSON.stringify({ registryIdentifier: '1', caller }));
    expect([noOptions.status, await noOptions.json()]).toEqual([
      400,
      { error: { code: 'bad_request', message: 'options must be an object' } },
    ]);
    const unauthorised = await post('/v1/company.get', JSON.stringify({ number: '1', caller }), 'wrong');
    expect([unauthorised.status, unauthorised.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    expect(simulator.calls.list().map((c) => c.outcome)).toEqual([
      'bad_request',
      'bad_request',
      'bad_request',
      'bad_request',
      'unauthorized',
    ]);
    expect(fake.seen).toEqual([]);
  });

  it('answers ZZ53 when the registry behind it throws something unexpected', async () => {
    class BrokenRegistry extends FakeRegistry {
      override async getCompany(): Promise<RegistryCompany> {
        throw new Error('boom');
      }
    }
    const broken = await startRegistrySimulator({ registry: new BrokenRegistry() });
    try {
      const error = await rejection(adapter({ baseUrl: broken.url }).getCompany('000000019', caller));
      expect([error.registryCode, error.message]).toEqual([
        'ZZ53',
        'simulator: the registry threw Error: boom',
      ]);
      expect(broken.calls.count()).toBe(2);
    } finally {
      await broken.stop();
    }
  });
});

describe('orders operations through the simulator', () => {
  const NOW = new Date('2025-07-01T09:30:00Z');
  const S = SIMULATOR_ORDERS.documents;
  const D = SANDBOX.documents;
  /** What the registry itself answers, to compare the round trips with. */
  const direct = () =>
    new DatasetRegistry(simulatorDataset(), () => NOW, { pageImages: renderDocumentImages });
  let orders: RegistrySimulator;
  let registry: HttpRegistry;
  let forOrders: typeof adapter;

  const images = (...documentNumbers: string[]) =>
    documentNumbers.map((documentNumber) => ({ documentNumber, pages: null }));
  const pages = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPageCount();

  beforeAll(() => {
    simulatorDataset();
  });
  beforeEach(async () => {
    // A registry of its own per test: image request and dispatch numbers start again at 1.
    orders = await startRegistrySimulator({ registry: direct(), credential: CREDENTIAL });
    forOrders = (overrides = {}) => adapter({ baseUrl: orders.url, ...overrides });
    registry = forOrders();
  });
  afterEach(async () => {
    await orders.stop();
  });

  it('round-trips every orders operation and logs keys, references and what was billed', async () => {
    expect(await registry.planChargesExtract(SIMULATOR_ORDERS.smallChargesExtract, caller)).toEqual(
      await direct().planChargesExtract(SIMULATOR_ORDERS.smallChargesExtract, caller),
    );
    const numbers = [S.organisation, S.person, S.other, D.unavailable];
    const documents = await registry.getDocuments(numbers, caller);
    expect(documents).toEqual(await direct().getDocuments(numbers, caller));
    expect(documents.map((d) => [d.subject.type, d.imageAvailable])).toEqual([
      ['organisation', true],
      ['person', true],
      ['other', true],
      ['organisation', false],
    ]);

    const request = {
      clientKey: 'ord_1:0',
      documents: [
        { documentNumber: S.organisation, pages: { from: 2, to: 4 } },
        { documentNumber: S.supplementary, pages: null },
        { documentNumber: D.unavailable, pages: null },
      ],
    };
    expect(await registry.requestImages(request, caller)).toEqual({ registryRequestId: 'IR00000001' });
    expect(await registry.requestImages(request, caller)).toEqual({ registryRequestId: 'IR00000001' });
    expect(await registry.getImageRequest('IR00000001', caller)).toEqual({
      registryRequestId: 'IR00000001',
      status: 'complete',
      failure: null,
      documents: [
        { documentNumber: S.organisation, available: true, pageCount: 3 },
        { documentNumber: S.supplementary, available: true, pageCount: 6 },
        { documentNumber: D.unavailable, available: false, pageCount: 3 },
      ],
    });
    const pdf = await registry.getImages('IR00000001', S.organisation, caller);
    expect(pdf).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(await pages(pdf)).toBe(3);
    expect(await pages(await registry.getImages('IR00000001', S.supplementary, caller))).toBe(6);

    expect(await registry.requestPostalDelivery(postalDelivery('ord_1', ['IR00000001']), caller)).toEqual({
      dispatchId: 'PD00000001',
    });
    const offline = await registry.searchCompaniesOffline(
      { name: 'widgets', scope: 'all' },
      caller,
      nextKey(),
    );
    expect(offline.matches).toHaveLength(180);
    expect(offline).toEqual(await direct().searchCompaniesOffline({ name: 'widgets', scope: 'all' }, caller));

    const log = orders.calls.snapshot();
    expect(log.counts).toEqual({
      'charges.plan': 1,
      'documents.get': 1,
      'images.request': 2,
      'images.status': 1,
      'images.get': 2,
      'post.request': 1,
      'search.offline': 1,
    });
    expect(log.billed).toBe(2);
    expect(
      log.calls.map((c) => [c.operation, c.clientKey, c.reference, c.repeated, c.billed, c.outcome]),
    ).toEqual([
      ['charges.plan', null, null, false, false, 'ok'],
      ['documents.get', null, null, false, false, 'ok'],
      ['images.request', 'ord_1:0', 'IR00000001', false, true, 'ok'],
      ['images.request', 'ord_1:0', 'IR00000001', true, false, 'ok'],
      ['images.status', null, null, false, false, 'ok'],
      ['images.get', null, null, false, false, 'ok'],
      ['images.get', null, null, false, false, 'ok'],
      ['post.request', 'ord_1', 'PD00000001', false, false, 'ok'],
      ['search.offline', expect.stringMatching(/^key_\d+$/), null, false, true, 'ok'],
    ]);
    expect(log.calls.map((c) => c.args)).toEqual([
      { number: SIMULATOR_ORDERS.smallChargesExtract },
      { numbers },
      request,
      request,
      { registryRequestId: 'IR00000001' },
      { registryRequestId: 'IR00000001', documentNumber: S.organisation },
      { registryRequestId: 'IR00000001', documentNumber: S.supplementary },
      { delivery: postalDelivery('ord_1', ['IR00000001']) },
      { name: 'widgets', scope: 'all', clientKey: expect.stringMatching(/^key_\d+$/) },
    ]);
    expect(new Set(log.calls.map((c) => `${c.accountId} ${c.requestId} ${c.clientReference}`))).toEqual(
      new Set(['acct_1 req_abc file 7']),
    );
  });

  it('passes the orders rejections through with their details', async () => {
    expect(await rejectionOf(registry.planChargesExtract(SANDBOX.proprietary, caller))).toEqual([
      'CC52',
      'No charges are recorded for organisation 990000014.',
      undefined,
    ]);
    expect(await rejectionOf(registry.getDocuments([S.organisation, '8E9999999'], caller))).toEqual([
      'DD51',
      'No document has the number 8E9999999.',
      { documentNumber: '8E9999999' },
    ]);
    expect(
      await rejectionOf(
        registry.requestImages(
          { clientKey: 'k', documents: [{ documentNumber: S.organisation, pages: { from: 60, to: 65 } }] },
          caller,
        ),
      ),
    ).toEqual([
      'DI53',
      `Document ${S.organisation} has 64 pages; pages 60 to 65 were asked for.`,
      { documentNumber: S.organisation },
    ]);
    expect(
      (
        await rejectionOf(registry.requestImages({ clientKey: 'k', documents: images(S.notImaged) }, caller))
      )[0],
    ).toBe('DI52');
    expect(await rejectionOf(registry.getImageRequest('IR00000009', caller))).toEqual([
      'RO51',
      'No image request has the id IR00000009.',
      { registryRequestId: 'IR00000009' },
    ]);
    expect(
      (
        await rejectionOf(
          registry.searchCompaniesOffline({ name: 'widgets', scope: 'some' as never }, caller, nextKey()),
        )
      )[0],
    ).toBe('ON02');
    expect(orders.calls.list().map((c) => [c.operation, c.outcome, c.status, c.billed])).toEqual([
      ['charges.plan', 'CC52', 422, false],
      ['documents.get', 'DD51', 422, false],
      ['images.request', 'DI53', 422, false],
      ['images.request', 'DI52', 422, false],
      ['images.status', 'RO51', 422, false],
      ['search.offline', 'ON02', 422, false],
    ]);
  });

  it('retries a keyed request whose answer was lost: one image request, one dispatch', async () => {
    orders.faults.add({ response: 'disconnect', times: 1, operations: ['images.request'] });
    expect(
      await registry.requestImages({ clientKey: 'ord_2:0', documents: images(S.other) }, caller),
    ).toEqual({
      registryRequestId: 'IR00000001',
    });
    orders.faults.add({ latencyMs: 300, times: 1, operations: ['post.request'] });
    const slow = forOrders({ timeouts: { lookupMs: 100, purchaseMs: 100 } });
    // The retry of a slow hand-over waits for the first one, which outlasts both attempts.
    const lost = await unreachable(
      slow.requestPostalDelivery(postalDelivery('ord_2', ['IR00000001']), caller),
    );
    expect([lost.reason, lost.attempts, lost.outcomeUnknown]).toEqual(['timeout', 2, false]);
    await until(() => orders.calls.list().every((c) => c.outcome !== 'pending'));
    // Asked again later, the key answers the one dispatch made.
    expect(await registry.requestPostalDelivery(postalDelivery('ord_2', ['IR00000001']), caller)).toEqual({
      dispatchId: 'PD00000001',
    });
    expect(
      orders.calls.list().map((c) => [c.operation, c.clientKey, c.reference, c.repeated, c.billed]),
    ).toEqual([
      ['images.request', 'ord_2:0', 'IR00000001', false, true],
      ['images.request', 'ord_2:0', 'IR00000001', true, false],
      ['post.request', 'ord_2', 'PD00000001', false, false],
      ['post.request', 'ord_2', 'PD00000001', true, false],
      ['post.request', 'ord_2', 'PD00000001', true, false],
    ]);
    expect(orders.calls.billed()).toBe(1);
    expect(sleeps).toEqual([200, 200]);
  });

  it('retries a timed-out offline search with its client key (billed once); gives image downloads the long timeout', async () => {
    orders.faults.add({ latencyMs: 300, operations: ['search.offline', 'images.get'] });
    const tight = forOrders({ timeouts: { lookupMs: 100, purchaseMs: 100 } });
    const error = await unreachable(
      tight.searchCompaniesOffline({ name: 'widgets', scope: 'all' }, caller, nextKey()),
    );
    expect([error.reason, error.operation, error.attempts, error.outcomeUnknown]).toEqual([
      'timeout',
      'search.offline',
      2,
      true,
    ]);
    await until(() => orders.calls.list().every((c) => c.outcome === 'ok'));
    expect(orders.calls.list().map((c) => [c.billed, c.repeated])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(orders.calls.billed()).toBe(1);

    const { registryRequestId } = await registry.requestImages(
      { clientKey: 'ord_3:0', documents: images(S.supplementary) },
      caller,
    );
    const patient = forOrders({ timeouts: { lookupMs: 100, purchaseMs: 2_000 } });
    expect(await pages(await patient.getImages(registryRequestId, S.supplementary, caller))).toBe(6);
    // Only the offline search's retry waited; the download took its long timeout at once.
    expect(sleeps).toEqual([200]);
  });

  it('reports an images.get answer that is not a PDF as bad_response', async () => {
    const wrong: typeof fetch = async () =>
      new Response(JSON.stringify({ result: { pdf: Buffer.from('hello').toString('base64') } }), {
        status: 200,
      });
    const error = await unreachable(forOrders({ fetch: wrong }).getImages('IR00000001', S.other, caller));
    expect([error.reason, error.message]).toEqual([
      'bad_response',
      'registry images.get: HTTP 200 with a result that is not a images.get result (after one retry)',
    ]);
  });

  it("slow: keeps an image request pending for the rule's status checks", async () => {
    const rule = orders.faults.add({ image: { pendingChecks: 2 } });
    expect([rule.operations, rule.image]).toEqual([
      ['images.request'],
      { pendingChecks: 2, failure: null, unavailable: [] },
    ]);
    const { registryRequestId } = await registry.requestImages(
      { clientKey: 'ord_4:0', documents: images(S.supplementary) },
      caller,
    );
    const pending = { registryRequestId, status: 'pending', failure: null, documents: [] };
    expect(await registry.getImageRequest(registryRequestId, caller)).toEqual(pending);
    expect(await rejectionOf(registry.getImages(registryRequestId, S.supplementary, caller))).toEqual([
      'DI59',
      'Image request IR00000001 is not complete yet.',
      { registryRequestId },
    ]);
    expect(await registry.getImageRequest(registryRequestId, caller)).toEqual(pending);
    expect(await registry.getImageRequest(registryRequestId, caller)).toEqual({
      registryRequestId,
      status: 'complete',
      failure: null,
      documents: [{ documentNumber: S.supplementary, available: true, pageCount: 6 }],
    });
    expect(await pages(await registry.getImages(registryRequestId, S.supplementary, caller))).toBe(6);
    expect(orders.calls.list()[0]?.faults).toEqual([rule.id]);
  });

  it('fail: ends an image request failed, with DI58 unless the rule names a code', async () => {
    orders.faults.add({ image: { failure: {} }, times: 1 });
    orders.faults.add({
      image: { pendingChecks: 1, failure: { code: 'DI60', message: 'Archive offline.' } },
    });
    const first = await registry.requestImages({ clientKey: 'ord_5:0', documents: images(S.other) }, caller);
    expect(await registry.getImageRequest(first.registryRequestId, caller)).toEqual({
      registryRequestId: 'IR00000001',
      status: 'failed',
      failure: { registryCode: 'DI58', message: 'The registry could not retrieve the images.' },
      documents: [],
    });
    expect(DEFAULT_IMAGE_FAILURE).toEqual({
      registryCode: 'DI58',
      message: 'The registry could not retrieve the images.',
    });
    expect(await rejectionOf(registry.getImages(first.registryRequestId, S.other, caller))).toEqual([
      'DI58',
      'The registry could not retrieve the images.',
      { documentNumber: S.other },
    ]);
    const second = await registry.requestImages({ clientKey: 'ord_5:1', documents: images(S.other) }, caller);
    expect((await registry.getImageRequest(second.registryRequestId, caller)).status).toBe('pending');
    expect(await registry.getImageRequest(second.registryRequestId, caller)).toEqual({
      registryRequestId: 'IR00000002',
      status: 'failed',
      failure: { registryCode: 'DI60', message: 'Archive offline.' },
      documents: [],
    });
  });

  it('unavailable: answers the listed documents unavailable, and refuses their images', async () => {
    orders.faults.add({ image: { unavailable: [S.organisation] } });
    const { registryRequestId } = await registry.requestImages(
      { clientKey: 'ord_6:0', documents: images(S.organisation, S.supplementary) },
      caller,
    );
    expect(await registry.getImageRequest(registryRequestId, caller)).toEqual({
      registryRequestId,
      status: 'complete',
      failure: null,
      documents: [
        { documentNumber: S.organisation, available: false, pageCount: 64 },
        { documentNumber: S.supplementary, available: true, pageCount: 6 },
      ],
    });
    expect(await rejectionOf(registry.getImages(registryRequestId, S.organisation, caller))).toEqual([
      'DI58',
      'The registry could not retrieve the images.',
      { documentNumber: S.organisation },
    ]);
    expect(await pages(await registry.getImages(registryRequestId, S.supplementary, caller))).toBe(6);
  });

  it('applies an image rule to new requests of its account only; a repeated key uses none of its times', async () => {
    const control = simulatorControl(orders.url);
    const rule = await control.addFault({ image: { pendingChecks: 1 }, accountId: 'acct_x', times: 1 });
    const forX = { ...caller, accountId: 'acct_x' };
    const ask = (clientKey: string, who: RegistryCaller) =>
      registry.requestImages({ clientKey, documents: images(S.other) }, who);
    const status = async (id: string, who: RegistryCaller) =>
      (await registry.getImageRequest(id, who)).status;

    const mine = await ask('k1', caller);
    expect(await status(mine.registryRequestId, caller)).toBe('complete');
    const theirs = await ask('k1', forX);
    expect(await ask('k1', forX)).toEqual(theirs);
    expect((await control.faults())[0]).toMatchObject({ id: rule.id, remaining: 0, applied: 1 });
    expect(await status(theirs.registryRequestId, forX)).toBe('pending');
    expect(await status(theirs.registryRequestId, forX)).toBe('complete');
    const later = await ask('k2', forX);
    expect(await status(later.registryRequestId, forX)).toBe('complete');
    expect(
      orders.calls
        .list()
        .filter((c) => c.faults.length > 0)
        .map((c) => [c.clientKey, c.accountId]),
    ).toEqual([['k1', 'acct_x']]);
  });

  it('refuses invalid image rules with 400', async () => {
    const post = (body: unknown) =>
      fetch(`${orders.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify(body) });
    for (const body of [
      { image: {} },
      { image: { pendingChecks: -1 } },
      { image: { pendingChecks: 1.5 } },
      { image: { failure: { code: 'di58' } } },
      { image: { failure: { reason: 'x' } } },
      { image: { unavailable: 'X' } },
      { image: { unavailable: [1] } },
      { image: { colour: 'red' } },
      { image: 'slow' },
      { image: { pendingChecks: 1 }, code: 'ZZ53' },
      { image: { pendingChecks: 1 }, latencyMs: 10 },
      { image: { pendingChecks: 1 }, operations: ['images.status'] },
    ]) {
      const response = await post(body);
      expect(
        [response.status, ((await response.json()) as { error: { code: string } }).error.code],
        JSON.stringify(body),
      ).toEqual([400, 'bad_request']);
    }
    expect(orders.faults.list()).toEqual([]);
    const ok = await post({ image: { unavailable: [S.other] }, operations: ['images.request'] });
    expect(ok.status).toBe(201);
  });

  it('answers bad_request for arguments of the wrong JSON type', async () => {
    const post = (operation: string, body: Record<string, unknown>) =>
      fetch(`${orders.url}/v1/${operation}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${CREDENTIAL}` },
        body: JSON.stringify({ ...body, caller }),
      });
    const answers = await Promise.all([
      post('documents.get', { numbers: S.other }),
      post('documents.get', { numbers: [S.other, 7] }),
      post('images.request', { clientKey: 'k', documents: [S.other] }),
      post('images.request', { documents: [] }),
      post('post.request', { delivery: 'post it' }),
      post('images.get', { registryRequestId: 'IR00000001' }),
    ]);
    expect(await Promise.all(answers.map(async (a) => [a.status, await a.json()]))).toEqual([
      [400, { error: { code: 'bad_request', message: 'numbers must be a list of strings' } }],
      [400, { error: { code: 'bad_request', message: 'numbers must be a list of strings' } }],
      [400, { error: { code: 'bad_request', message: 'documents must be a list of objects' } }],
      [400, { error: { code: 'bad_request', message: 'clientKey must be a string' } }],
      [400, { error: { code: 'bad_request', message: 'delivery must be an object' } }],
      [400, { error: { code: 'bad_request', message: 'documentNumber must be a string' } }],
    ]);
  });
});

async function rejectionOf(promise: Promise<unknown>): Promise<unknown[]> {
  const error = await rejection(promise);
  return [error.registryCode, error.message, error.details];
}
