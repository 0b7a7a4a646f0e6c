import { describe, expect, it } from 'vitest';
import { abnForAcn } from '../../shared/adapters/sandbox/data/company-builders.ts';
import {
  checkDocumentPeriod,
  type DocumentsQuery,
  documentsIn,
  yearsBefore,
} from '../../shared/companies/documents.ts';
import { checkCompanyExtractType } from '../../shared/companies/extracts.ts';
import type { CompanyRegistry, RegistryCompanyMatch } from '../../shared/companies/registry-port.ts';
import {
  type CompanySearchQuery,
  checkSearchCriteria,
  searchCompanies,
} from '../../shared/companies/search.ts';
import { readHeldExtract } from '../../shared/extracts/lifecycle.ts';
import type { ExtractHeader } from '../../shared/extracts/store-port.ts';
import type { Owner } from '../../shared/kernel/api-keys.ts';
import { CursorCodec } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import type { FeeEntry } from '../../shared/kernel/ports/fee-ledger.ts';
import type { RegistryCompany } from '../../shared/kernel/registry-port.ts';
import { encodeOfflineResults, offlineResultsKey } from '../../shared/orders/results.ts';
import { listOfflineSearchResults } from '../../shared/orders/search-results.ts';
import type { BlobStore, OfflineSearchRecord, OfflineSearchStore } from '../../shared/orders/store-port.ts';
import { listPersonRoles } from '../../shared/people/roles.ts';
import type { PeopleSearchStore, SearchedPerson } from '../../shared/people/store-port.ts';
import { EXAMPLE_PRICE_SCHEDULE } from '../../shared/usage/prices.ts';
import { priceEntry, usagePeriod, usageReport, usageTotals } from '../../shared/usage/report.ts';
import { listWeeklySummaries } from '../../shared/weekly-summaries/list.ts';
import { readWeeklySummary } from '../../shared/weekly-summaries/read.ts';
import { MemoryExtractStore } from '../support/fakes.ts';

/**
 * The rules of the routes whose handlers only parse, call them and present: company search,
 * documents, usage, held extracts, weekly summaries, offline search results, a person's roles and
 * the company purchase's extract type.
 */

const NOW = new Date('2026-11-25T10:00:00.000Z');
const cursors = new CursorCodec(async () => 'unit-signing-key', { now: () => NOW });
const owner: Owner = { accountId: 'acct_unit', environment: 'live' };
const caller = { accountId: owner.accountId, requestId: 'req_unit' };
// A valid ACN (its check digit holds) and the ABN that holds it.
const ACN = '990000014';
const ABN = abnForAcn(ACN);

function errorOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, param, status } = error as ApiError;
    return { code, param, status };
  }
  throw new Error('expected an ApiError');
}

async function rejectionOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, param, status } = error as ApiError;
    return { code, param, status };
  }
  throw new Error('expected an ApiError');
}

describe('company search', () => {
  it.each<[string, CompanySearchQuery, { code: string; param: string; status: number }]>([
    [
      'an ACN and an ABN',
      { acn: ACN, abn: ABN },
      { code: 'abn_and_acn_supplied', param: 'abn', status: 400 },
    ],
    [
      'a name and an ACN',
      { q: 'bluegum', acn: ACN },
      { code: 'identifier_conflict', param: 'acn', status: 400 },
    ],
    [
      'a name and an ABN',
      { q: 'bluegum', abn: ABN },
      { code: 'identifier_conflict', param: 'abn', status: 400 },
    ],
    ['no criterion', { scope: 'all' }, { code: 'validation_error', param: 'q', status: 422 }],
    [
      'an unknown scope',
      { q: 'bluegum', scope: 'former' },
      { code: 'search_scope_invalid', param: 'scope', status: 400 },
    ],
  ])('refuses %s', (_name, query, expected) => {
    expect(errorOf(() => checkSearchCriteria(query))).toStrictEqual(expected);
  });

  it('searches current names unless told, and names the number parameter a lookup came in', () => {
    expect(checkSearchCriteria({ q: 'bluegum' })).toStrictEqual({
      scope: 'current',
      name: 'bluegum',
      number: undefined,
    });
    expect(checkSearchCriteria({ abn: ABN, scope: 'all' }).number).toMatchObject({ param: 'abn' });
  });

  const company = { number: ACN, name: 'BLUEGUM PTY LTD' } as unknown as RegistryCompany;
  const match = (name: string): RegistryCompanyMatch => ({
    company: { ...company, name } as RegistryCompany,
    matchedName: name,
    nameStatus: 'current',
    score: 90,
    address: null,
  });

  function registry(matches: RegistryCompanyMatch[] = []) {
    const asked: string[] = [];
    const fake = {
      getCompany: async (number: string) => {
        asked.push(`getCompany ${number}`);
        return company;
      },
      getCompanyByAbn: async (abn: string) => {
        asked.push(`getCompanyByAbn ${abn}`);
        return company;
      },
      searchCompanies: async (criteria: { name: string; scope: string }) => {
        asked.push(`searchCompanies ${criteria.name} ${criteria.scope}`);
        return { matches };
      },
    } as unknown as CompanyRegistry;
    return { fake, asked };
  }

  it('asks the registry nothing for a refused search', async () => {
    const { fake, asked } = registry();
    const refused = searchCompanies({
      registry: fake,
      cursors,
      owner,
      caller,
      query: { acn: ACN, abn: ABN },
    });
    expect(await rejectionOf(refused)).toMatchObject({ code: 'abn_and_acn_supplied' });
    expect(asked).toStrictEqual([]);
  });

  it('looks a number up as one match by its current name, with score 100', async () => {
    const { fake, asked } = registry();
    const page = await searchCompanies({ registry: fake, cursors, owner, caller, query: { abn: ABN } });
    expect(asked).toStrictEqual([`getCompanyByAbn ${ABN}`]);
    expect(page).toStrictEqual({
      data: [{ company, matchedName: 'BLUEGUM PTY LTD', nameStatus: 'current', score: 100, address: null }],
      hasMore: false,
      nextCursor: null,
      totalCount: 1,
    });
  });

  it('pages the matches of a name, with a cursor valid only for the same criteria', async () => {
    const { fake, asked } = registry([match('A'), match('B'), match('C')]);
    const search = (query: CompanySearchQuery) =>
      searchCompanies({ registry: fake, cursors, owner, caller, query });
    const first = await search({ q: 'bluegum', scope: 'all', limit: 2 });
    expect(asked).toStrictEqual(['searchCompanies bluegum all']);
    expect(first.data.map((m) => m.matchedName)).toStrictEqual(['A', 'B']);
    expect(first).toMatchObject({ hasMore: true, totalCount: 3 });
    const cursor = first.nextCursor as string;
    const second = await search({ q: 'bluegum', scope: 'all', limit: 2, cursor });
    expect(second.data.map((m) => m.matchedName)).toStrictEqual(['C']);
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect(await rejectionOf(search({ q: 'bluegum', limit: 2, cursor }))).toStrictEqual({
      code: 'validation_error',
      param: 'cursor',
      status: 400,
    });
  });
});

describe('company documents', () => {
  it.each<[string, DocumentsQuery, { code: string; param: string; status: number }]>([
    [
      'years with a range',
      { years: 2, from: '2020-01-01', to: '2021-01-01' },
      { code: 'document_period_conflict', param: 'years', status: 400 },
    ],
    [
      'years with from',
      { years: 2, from: '2020-01-01' },
      { code: 'document_period_conflict', param: 'years', status: 400 },
    ],
    [
      'from without to',
      { from: '2020-01-01' },
      { code: 'document_date_range_invalid', param: 'to', status: 400 },
    ],
    [
      'to without from',
      { to: '2020-01-01' },
      { code: 'document_date_range_invalid', param: 'from', status: 400 },
    ],
    [
      'from after to',
      { from: '2021-01-02', to: '2021-01-01' },
      { code: 'document_date_range_invalid', param: 'from', status: 400 },
    ],
  ])('refuses %s', (_name, query, expected) => {
    expect(errorOf(() => checkDocumentPeriod(query))).toStrictEqual(expected);
  });

  it('takes years back from the extract as of, and a one-day range', () => {
    expect(yearsBefore('2026-03-01T09:30:00.000Z', 2)).toBe('2024-03-01');
    expect(() => checkDocumentPeriod({ from: '2021-01-01', to: '2021-01-01' })).not.toThrow();
  });

  it('keeps the documents received within both ends, inclusive, whose qualifier starts with the one asked', () => {
    const documents = [
      { id: 'd1', receivedAt: '2020-12-31', qualifier: 'AR2020' },
      { id: 'd2', receivedAt: '2021-01-01', qualifier: 'AR2021' },
      { id: 'd3', receivedAt: '2021-06-30', qualifier: null },
      { id: 'd4', receivedAt: '2021-07-01', qualifier: 'FR2021' },
    ];
    const ids = (kept: readonly { id: string }[]) => kept.map((d) => d.id);
    expect(ids(documentsIn(documents, { from: '2021-01-01', to: '2021-06-30' }))).toStrictEqual(['d2', 'd3']);
    expect(ids(documentsIn(documents, { from: '2021-01-01' }))).toStrictEqual(['d2', 'd3', 'd4']);
    expect(ids(documentsIn(documents, { qualifier: 'AR' }))).toStrictEqual(['d1', 'd2']);
    expect(ids(documentsIn(documents, {}))).toStrictEqual(['d1', 'd2', 'd3', 'd4']);
  });
});

describe('usage', () => {
  it('runs from the first of the month to today unless given, and refuses from after to', () => {
    expect(usagePeriod({}, NOW)).toStrictEqual({ from: '2026-11-01', to: '2026-11-25' });
    expect(usagePeriod({ from: '2026-10-15' }, NOW)).toStrictEqual({ from: '2026-10-15', to: '2026-11-25' });
    expect(errorOf(() => usagePeriod({ from: '2026-11-26' }, NOW))).toStrictEqual({
      code: 'validation_error',
      param: 'from',
      status: 422,
    });
  });

  const fee = (at: string, product: string, feeCode: string | null, billable = true): FeeEntry => ({
    ...owner,
    at,
    product,
    feeCode,
    quantity: 1,
    billable,
    clientReference: null,
    requestId: `req_${at}`,
    resourceId: `ext_${at}`,
  });

  it('totals by product, fee code and billability, in first-seen order', () => {
    const entries = [
      fee('2026-11-02T00:00:00.000Z', 'company_extract_current', '955A'),
      fee('2026-11-03T00:00:00.000Z', 'company_relationships', '955B'),
      fee('2026-11-04T00:00:00.000Z', 'company_extract_current', '955A'),
      fee('2026-11-05T00:00:00.000Z', 'company_extract_current', null, false),
    ];
    const priced = entries.map((entry) => priceEntry(entry, EXAMPLE_PRICE_SCHEDULE));
    expect(usageTotals(priced)).toStrictEqual([
      {
        product: 'company_extract_current',
        feeCode: '955A',
        billable: true,
        quantity: 2,
        entries: 2,
        amountCents: 5000,
      },
      {
        product: 'company_relationships',
        feeCode: '955B',
        billable: true,
        quantity: 1,
        entries: 1,
        amountCents: 3500,
      },
      // Written without a recorded price and with no fee code: nothing to price it by.
      {
        product: 'company_extract_current',
        feeCode: null,
        billable: false,
        quantity: 1,
        entries: 1,
        amountCents: null,
      },
    ]);
  });

  it('reads whole days, both ends included, and totals every entry of the period, not only the page', async () => {
    const ledger = new MemoryExtractStore();
    for (const entry of [
      fee('2026-11-09T23:59:59.999Z', 'company_extract_current', '955A'),
      fee('2026-11-10T00:00:00.000Z', 'company_extract_current', '955A'),
      fee('2026-11-11T23:59:59.999Z', 'company_relationships', '955B'),
      fee('2026-11-12T00:00:00.000Z', 'company_extract_current', '955A'),
    ]) {
      ledger.fees.set(entry.resourceId, entry);
    }
    const report = await usageReport({
      ledger,
      cursors,
      owner,
      now: NOW,
      query: { from: '2026-11-10', to: '2026-11-11', limit: 1 },
    });
    expect(report.from).toBe('2026-11-10');
    expect(report.to).toBe('2026-11-11');
    expect(report.page.data.map((entry) => entry.at)).toStrictEqual(['2026-11-10T00:00:00.000Z']);
    expect(report.page).toMatchObject({ hasMore: true, totalCount: 2 });
    expect(report.totals).toStrictEqual([
      {
        product: 'company_extract_current',
        feeCode: '955A',
        billable: true,
        quantity: 1,
        entries: 1,
        amountCents: 2500,
      },
      {
        product: 'company_relationships',
        feeCode: '955B',
        billable: true,
        quantity: 1,
        entries: 1,
        amountCents: 3500,
      },
    ]);
  });
});

describe('held extracts and weekly summaries', () => {
  const ID = 'ext_0123456789abcdef01234567';
  const header = (kind: ExtractHeader['kind'], changes: Partial<ExtractHeader> = {}): ExtractHeader => ({
    id: ID,
    ...owner,
    kind,
    type: 'current',
    subjectKey: '990000014',
    purchasedAt: '2026-11-01T00:00:00.000Z',
    asOf: '2026-11-01T00:00:00.000Z',
    expiresAt: '2027-11-01T00:00:00.000Z',
    clientReference: null,
    requestId: 'req_unit',
    summary: { object: 'extract', id: ID },
    ...changes,
  });
  function storeWith(held?: ExtractHeader) {
    const store = new MemoryExtractStore();
    if (held) {
      store.headers.set(held.id, held);
      store.sections.set(held.id, { documents: [] });
    }
    return store;
  }
  const reads = (store: MemoryExtractStore) => ({ store, cursors, owner, now: NOW });

  it('reads a held extract with its sections, for its owner only, before it expires', async () => {
    const store = storeWith(header('company'));
    expect(await readHeldExtract(store, ID, owner, NOW)).toStrictEqual({
      header: header('company'),
      sections: { documents: [] },
    });
    const refusal = (id: string, who: Owner, at = NOW) => rejectionOf(readHeldExtract(store, id, who, at));
    expect(await refusal('ext_nothex', owner)).toStrictEqual({
      code: 'extract_not_found',
      param: 'id',
      status: 404,
    });
    expect(await refusal('ext_fedcba9876543210fedcba98', owner)).toStrictEqual({
      code: 'extract_not_found',
      param: 'id',
      status: 404,
    });
    expect(await refusal(ID, { ...owner, environment: 'test' })).toStrictEqual({
      code: 'extract_owner_mismatch',
      param: 'id',
      status: 403,
    });
    expect(await refusal(ID, owner, new Date('2027-11-02T00:00:00.000Z'))).toStrictEqual({
      code: 'extract_expired',
      param: 'id',
      status: 410,
    });
  });

  it('refuses a malformed id, and an extract of another kind, as not found', async () => {
    const store = storeWith(header('company'));
    expect(await rejectionOf(readWeeklySummary(reads(store), 'ext_1', {}))).toStrictEqual({
      code: 'extract_not_found',
      param: 'id',
      status: 404,
    });
    const company = readWeeklySummary(reads(store), ID, {});
    await expect(company).rejects.toThrow(`${ID} is a company extract, not a weekly summary.`);
  });

  it('refuses an unknown summary type before reading the store', async () => {
    const store = storeWith();
    store.list = () => Promise.reject(new Error('the store was read'));
    expect(await rejectionOf(listWeeklySummaries(reads(store), { type: 'WS99' }))).toStrictEqual({
      code: 'summary_type_invalid',
      param: 'type',
      status: 400,
    });
  });
});

describe('the extract type of a company purchase', () => {
  it('takes the three company extract types and refuses any other on type', () => {
    expect(['current', 'historical', 'relational'].map(checkCompanyExtractType)).toStrictEqual([
      'current',
      'historical',
      'relational',
    ]);
    expect(errorOf(() => checkCompanyExtractType('summary'))).toStrictEqual({
      code: 'extract_type_invalid',
      param: 'type',
      status: 400,
    });
  });
});

describe('offline search results', () => {
  const SEARCH = 'ofs_0123456789abcdef01234567';
  const search = (changes: Partial<OfflineSearchRecord>): OfflineSearchRecord => ({
    id: SEARCH,
    ...owner,
    status: 'ready',
    q: 'bluegum',
    scope: 'current',
    delivery: { method: 'webhook' },
    createdAt: '2026-11-25T09:00:00.000Z',
    updatedAt: '2026-11-25T09:05:00.000Z',
    readyAt: '2026-11-25T09:05:00.000Z',
    resultCount: 3,
    resultsKey: offlineResultsKey(SEARCH),
    failure: null,
    fees: [],
    requestId: 'req_unit',
    clientReference: null,
    simulateFailure: false,
    ...changes,
  });
  function read(record: OfflineSearchRecord) {
    const files = new Map([
      [offlineResultsKey(SEARCH), encodeOfflineResults([{ acn: '1' }, { acn: '2' }, { acn: '3' }])],
    ]);
    const searches = {
      get: async (id: string) => (id === record.id ? record : undefined),
    } as OfflineSearchStore;
    const blobs = { get: async (key: string) => files.get(key) } as BlobStore;
    return { searches, blobs, cursors, owner };
  }

  it('pages the matches of a ready search', async () => {
    const first = await listOfflineSearchResults(read(search({})), SEARCH, { limit: 2 });
    expect(first.data).toStrictEqual([{ acn: '1' }, { acn: '2' }]);
    expect(first).toMatchObject({ hasMore: true, totalCount: 3 });
    const second = await listOfflineSearchResults(read(search({})), SEARCH, {
      limit: 2,
      cursor: first.nextCursor as string,
    });
    expect(second.data).toStrictEqual([{ acn: '3' }]);
  });

  it('has no results before the search is ready, nor after it failed', async () => {
    const refusal = (record: OfflineSearchRecord) =>
      rejectionOf(listOfflineSearchResults(read(record), SEARCH, {}));
    const notReady = { code: 'offline_search_not_ready', param: 'searchId', status: 409 };
    expect(await refusal(search({ status: 'processing', resultsKey: null }))).toStrictEqual(notReady);
    expect(await refusal(search({ status: 'failed', resultsKey: null }))).toStrictEqual(notReady);
    await expect(listOfflineSearchResults(read(search({ status: 'failed' })), SEARCH, {})).rejects.toThrow(
      'The offline search failed, so it has no results; see failure.',
    );
    expect(await refusal(search({ accountId: 'acct_other' }))).toMatchObject({
      code: 'search_owner_mismatch',
    });
  });
});

describe("a person's roles", () => {
  const PERSON = 'prs_0123456789abcdef01234567';
  const EXTRACT = 'ext_abcdef0123456789abcdef01';
  const person: SearchedPerson = {
    id: PERSON,
    registryIdentifier: 'N123',
    roleCount: 3,
    match: {},
    searchId: 'psr_0123456789abcdef01234567',
    ...owner,
    searchExpiresAt: '2026-11-26T00:00:00.000Z',
  };
  const role = (code: string, status: string, company: string) => ({
    role: { code },
    status: { code: status },
    company,
  });
  function read() {
    const store = new MemoryExtractStore();
    store.headers.set(EXTRACT, {
      id: EXTRACT,
      ...owner,
      kind: 'person',
      type: 'historical',
      subjectKey: person.registryIdentifier,
      purchasedAt: '2026-11-01T00:00:00.000Z',
      asOf: '2026-11-01T00:00:00.000Z',
      expiresAt: '2027-11-01T00:00:00.000Z',
      clientReference: null,
      requestId: 'req_unit',
      summary: {},
    });
    store.sections.set(EXTRACT, {
      person: {
        roles: [role('DR', 'C', 'A'), role('SR', 'C', 'B'), role('DR', 'E', 'C'), role('DR', 'C', 'D')],
      },
    });
    const searches = {
      getPerson: async (id: string) => (id === PERSON ? person : undefined),
    } as PeopleSearchStore;
    return { heldExtracts: store, searches, cursors, owner, now: NOW };
  }
  const companies = (data: unknown[]) => data.map((record) => (record as { company: string }).company);

  it('keeps current roles of the roles asked, in the order held, one page at a time', async () => {
    const first = await listPersonRoles(read(), PERSON, { extract: EXTRACT, 'role[]': ['DR'], limit: 1 });
    expect(companies(first.page.data)).toStrictEqual(['A']);
    expect(first.page).toMatchObject({ hasMore: true, totalCount: 2 });
    expect(first.extract.id).toBe(EXTRACT);
    const second = await listPersonRoles(read(), PERSON, {
      extract: EXTRACT,
      'role[]': ['DR'],
      limit: 1,
      cursor: first.page.nextCursor as string,
    });
    expect(companies(second.page.data)).toStrictEqual(['D']);
    // The cursor belongs to its filters: another status is another list.
    const other = listPersonRoles(read(), PERSON, {
      extract: EXTRACT,
      'role[]': ['DR'],
      status: 'all',
      cursor: first.page.nextCursor as string,
    });
    expect(await rejectionOf(other)).toStrictEqual({
      code: 'validation_error',
      param: 'cursor',
      status: 400,
    });
  });

  it('refuses an unknown role code by its index before reading anything', async () => {
    const refused = listPersonRoles(read(), 'prs_ffffffffffffffffffffffff', { 'role[]': ['DR', 'XX'] });
    expect(await rejectionOf(refused)).toStrictEqual({
      code: 'validation_error',
      param: 'role[1]',
      status: 422,
    });
  });
});
