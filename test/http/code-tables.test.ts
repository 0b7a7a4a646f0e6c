import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  call,
  createKey,
  expectError,
  type Meta,
  type TestKey,
  validationError,
} from '../support/api.ts';
import { specCodeTables as specTables } from '../support/spec.ts';

/**
 * GET /v1/reference/code-tables and GET /v1/reference/code-tables/{table} (spec document 2,
 * section 4.6; resources in document 1, sections 2.8 and 2.9) over real HTTP.
 */

interface Summary {
  object: string;
  table: string;
  title: string;
  entryCount: number;
  docsUrl: string;
}

interface SummaryList {
  object: string;
  data: Summary[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number | null;
  meta: Meta;
}

interface Entry {
  code: string;
  label: string;
  registryCode: string | null;
}

interface CodeTable {
  object: string;
  table: string;
  title: string;
  docsUrl: string;
  entries: Entry[];
  meta: Meta;
}

/** Tables whose entries carry the registry's original value (document 1, section 2.8). */
const tablesWithRegistryCode = new Set(['jurisdictions', 'controlling-jurisdictions', 'number-types']);

const words = (text: string) => text.split(' ');

/** Codes the spec lists for a table (document 1, section 2.9); states, jurisdictions, court-types, controlling-jurisdictions are not shown. */
const specCodes: Record<string, readonly string[]> = {
  'organisation-types': words(
    'APTY APUB ASSN BUSN CHAR COMP COOP FNOS LTDP MISM NONC NRET RACN REBD RSVN SOLS TRST',
  ),
  'organisation-classes': words('EQUT LMGT LMSG LMSH MORT NLIA NONE PROP UNKN UNLM'),
  'organisation-sub-classes': words(
    'EXPN EXPS EXPT FFSP FXPT HUNT LISN LISS LIST LXPT NCCT NEXN NEXS NEXT NLTD NONE OABR PNPC PROP PSTC PTSH PUBF RACA RACO SPEC STFI ULSN ULSS ULST',
  ),
  'office-holder-roles': words(
    'AA AC AD AG AQ BI BM BP CA CM CQ CR DA DM DR EO LD MA MC MQ OM OQ PQ PT PW RC RM RN RY SB SM SR TC TN TR UH VQ',
  ),
  'record-status': words('C E F'),
  'charge-types': words('B F X'),
  'charge-statuses': words('DELT SATF'),
  'address-types': words('RG RP PA RO CC'),
  'organisation-statuses': words(
    'APPR ARCH ASOS CNCL CONV DISS DIV3 DRGD EXAA EXAD EXMP LIQU NOAC NRGD PEND REGD REXP RMVD SOFF WDPI WDUP',
  ),
  'information-products': words('CC CE CR DI PN RE'),
  'deregistration-reasons': [
    'ALT REGN',
    'BINT',
    'SA ACT',
    'S22FS',
    'S380',
    'S89',
    'S411',
    'S413',
    'S459',
    'S481',
    'S509',
    'S601AA',
    'S601AB',
    'S601AL',
    'S601CC',
    'S601CL',
    'S601PB',
  ],
  'company-licence-types': words('FB FD FL FR FX IA SD'),
  'company-roles': words('AG DR UH TM TR RN'),
  'person-additional-roles': ['SH'],
  'asic-fee-codes': words(
    '930A 930B 930C 930D 930E 930F 930G 934 949 951 954 955A 955B 955C 955E 955F 955G 955H 955I 955J 955K 958 959A 959B 959C 959D 959E 959F 959G 959H 959I 959J 959K',
  ),
  'register-types': words('RA RQ OQ IA SD FB FD SP FP DD BS BF FX IF IG IL'),
  'weekly-summary-types': words('DI EX LC NA RE MI'),
  'weekly-summary-sub-types': words(
    'CHGT DISQ DRGD EXAC EXAD EXAL EXCQ EXMN EXRC EXRQ LCFB LCFD LCFL LCIA LCOQ LCRA LCRQ LCSD MISM NAME REGN REIN',
  ),
  'licence-ban-types': words('BSA BSB BSC BFA BFB BFC'),
  'suspension-reasons': words(
    'ACTN APPL BREA CEAS CONT CONV DIRE EHAF EXAD FPOD INCA NFAP NTRS PRVA PRVB QUAL STAT',
  ),
  'authorities-held': words('RS RI RF RD'),
  'register-status': words('C S'),
  'pre-asic-legislation': words('0001 0002 0003 0004 0005 0006'),
  'register-address-types': words('OP PA PS RB'),
  'register-trading-types': words('FI TN PN'),
  'number-types': words('ACN ARBN NUMBER ARSN'),
  'licence-statuses': words('APPR NOAC PEND REFS SUSP'),
  'person-licence-roles': words('BF BS DD AF FK FL FR FX LP OQ RA RQ'),
  'document-list-organisation-types': words('APTY APUB FNOS MISM NRET RACN TRST'),
  'register-officer-roles': words('DR EO SR AA FE RN TN CA'),
  'governance-types': words('C R'),
  'scheme-categories': words(
    'DRVT FAST FILM IDPS INVP LPTR MSTR MTGE OTHR PP PPA PPCB PPF PPH PPHB PPL PPR PPTT PPV PRCV PRIM REAL SPTR SSSC TIME',
  ),
};

let key: TestKey;
let liveKey: TestKey;

beforeAll(async () => {
  key = await createKey('test');
  liveKey = await createKey('live');
});

const listTables = (secret: string = key.secret, query = '') =>
  call<SummaryList>(`/v1/reference/code-tables${query}`, { key: secret });
const getTable = (slug: string, secret: string = key.secret, query = '') =>
  call<CodeTable>(`/v1/reference/code-tables/${slug}${query}`, { key: secret });

function expectSuccessMeta(response: ApiResponse<{ meta: Meta }>) {
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_./);
  expect(response.body.meta).toStrictEqual({ billable: false, product: null, requestId });
}

const withoutMeta = <T extends { meta: Meta }>(body: T): Omit<T, 'meta'> => {
  const { meta: _meta, ...rest } = body;
  return rest;
};

describe('GET /v1/reference/code-tables', () => {
  it('lists the 36 tables in spec order with their entry counts, on one page', async () => {
    const response = await listTables();
    expectSuccessMeta(response);
    expect(response.body).toStrictEqual({
      object: 'list',
      data: specTables.map(([table, entryCount]) => ({
        object: 'codeTableSummary',
        table,
        title: expect.any(String),
        entryCount,
        docsUrl: expect.any(String),
      })),
      hasMore: false,
      nextCursor: null,
      totalCount: 36,
      meta: response.body.meta,
    });
  });

  it('gives every table a non-empty title and its own docs link', async () => {
    const { body } = await listTables();
    for (const summary of body.data) {
      expect(summary.title.trim().length, summary.table).toBeGreaterThan(0);
      expect(summary.docsUrl, summary.table).toMatch(/^https?:\/\//);
      expect(summary.docsUrl, summary.table).toContain(summary.table);
    }
    expect(new Set(body.data.map((summary) => summary.docsUrl)).size).toBe(36);
    expect(new Set(body.data.map((summary) => summary.title)).size).toBe(36);
  });

  it.each([
    ['?foo=1', 'foo'],
    ['?limit=5', 'limit'],
    ['?cursor=abc', 'cursor'],
  ])('takes no query parameters: %s gives 422 on %s', async (query, param) => {
    expectError(await listTables(key.secret, query), 422, validationError(param));
  });

  it('refuses a request without Authorization with 401 unauthorized', async () => {
    expectError(await call('/v1/reference/code-tables'), 401, {
      type: 'authentication_error',
      code: 'unauthorized',
      param: null,
    });
  });
});

describe('GET /v1/reference/code-tables/{table}', () => {
  it('serves number-types exactly, with the registry values 1 to 4', async () => {
    const response = await getTable('number-types');
    expectSuccessMeta(response);
    expect(response.body).toStrictEqual({
      object: 'codeTable',
      table: 'number-types',
      title: expect.any(String),
      docsUrl: expect.any(String),
      entries: [
        { code: 'ACN', label: 'Australian Company Number', registryCode: '1' },
        { code: 'ARBN', label: 'Australian Registered Body Number', registryCode: '2' },
        // The spec writes "Registration number"; labels are title-cased by design (docs/reference-data.md).
        { code: 'NUMBER', label: 'Registration Number', registryCode: '3' },
        { code: 'ARSN', label: 'Australian Registered Scheme Number', registryCode: '4' },
      ],
      meta: response.body.meta,
    });
  });

  it('keeps deregistration reason codes verbatim, spaces included', async () => {
    const response = await getTable('deregistration-reasons');
    expectSuccessMeta(response);
    const codes = response.body.entries.map((entry) => entry.code);
    expect(codes).toContain('ALT REGN');
    expect(codes).toContain('SA ACT');
    expect(codes).toHaveLength(17);
  });

  it('gives registryCode null in tables without a registry value, such as organisation-types', async () => {
    const response = await getTable('organisation-types');
    expectSuccessMeta(response);
    expect(response.body.entries).toHaveLength(17);
    for (const entry of response.body.entries) expect(entry.registryCode, entry.code).toBeNull();
    expect(response.body.entries).toContainEqual({
      code: 'APTY',
      label: 'Australian Proprietary Company',
      registryCode: null,
    });
  });

  it('serves charge-types with the spec labels', async () => {
    const response = await getTable('charge-types');
    expectSuccessMeta(response);
    expect(response.body.entries).toStrictEqual([
      { code: 'B', label: 'Both Fixed & Floating', registryCode: null },
      { code: 'F', label: 'Floating', registryCode: null },
      { code: 'X', label: 'Fixed', registryCode: null },
    ]);
  });

  it('serves every listed table with as many entries as the list says, and the same title and link', async () => {
    const list = await listTables();
    expect(list.body.data).toHaveLength(36);
    for (const summary of list.body.data) {
      const response = await getTable(summary.table);
      expectSuccessMeta(response);
      expect(response.body, summary.table).toStrictEqual({
        object: 'codeTable',
        table: summary.table,
        title: summary.title,
        docsUrl: summary.docsUrl,
        entries: expect.any(Array),
        meta: response.body.meta,
      });
      expect(response.body.entries, summary.table).toHaveLength(summary.entryCount);
      const codes = response.body.entries.map((entry) => entry.code);
      expect(new Set(codes).size, `${summary.table} has duplicate codes`).toBe(codes.length);
      for (const entry of response.body.entries) {
        expect(Object.keys(entry).sort(), summary.table).toEqual(['code', 'label', 'registryCode']);
        expect(typeof entry.code).toBe('string');
        expect(entry.code.length, summary.table).toBeGreaterThan(0);
        expect(typeof entry.label).toBe('string');
        expect(entry.label.length, `${summary.table} ${entry.code}`).toBeGreaterThan(0);
        if (tablesWithRegistryCode.has(summary.table)) {
          expect(typeof entry.registryCode, `${summary.table} ${entry.code}`).toBe('string');
        } else {
          expect(entry.registryCode, `${summary.table} ${entry.code}`).toBeNull();
        }
      }
      const expectedCodes = specCodes[summary.table];
      if (expectedCodes) {
        expect([...codes].sort(), summary.table).toEqual([...expectedCodes].sort());
      }
    }
  });

  it.each([
    ['no-such-table', 'an unknown slug'],
    ['Number-Types', 'wrong case'],
    ['number_types', 'underscores'],
    ['number-type', 'singular'],
    ['%20', 'a space'],
  ])('answers %s (%s) with 404 code_table_not_found on table', async (slug) => {
    expectError(await getTable(slug), 404, {
      type: 'not_found_error',
      code: 'code_table_not_found',
      param: 'table',
    });
  });

  it.each([
    ['?foo=1', 'foo'],
    ['?limit=5', 'limit'],
  ])('takes no query parameters: %s gives 422 on %s', async (query, param) => {
    expectError(await getTable('number-types', key.secret, query), 422, validationError(param));
  });

  it('refuses a request without Authorization with 401 unauthorized', async () => {
    expectError(await call('/v1/reference/code-tables/number-types'), 401, {
      type: 'authentication_error',
      code: 'unauthorized',
      param: null,
    });
    expectError(await call('/v1/reference/code-tables/no-such-table'), 401, {
      type: 'authentication_error',
      code: 'unauthorized',
      param: null,
    });
  });
});

describe('sandbox and production', () => {
  it('serve identical bodies apart from meta.requestId', async () => {
    const sandboxList = await listTables(key.secret);
    const liveList = await listTables(liveKey.secret);
    expectSuccessMeta(sandboxList);
    expectSuccessMeta(liveList);
    expect(liveList.body.meta.requestId).not.toBe(sandboxList.body.meta.requestId);
    expect(withoutMeta(liveList.body)).toStrictEqual(withoutMeta(sandboxList.body));

    for (const [slug] of specTables) {
      const sandbox = await getTable(slug, key.secret);
      const live = await getTable(slug, liveKey.secret);
      expectSuccessMeta(sandbox);
      expectSuccessMeta(live);
      expect(withoutMeta(live.body), slug).toStrictEqual(withoutMeta(sandbox.body));
    }
  });

  it('answer an unknown slug the same way', async () => {
    const sandbox = await getTable('no-such-table', key.secret);
    const live = await getTable('no-such-table', liveKey.secret);
    expect(sandbox.status).toBe(404);
    expect(live.status).toBe(404);
    const { requestId: _a, ...sandboxError } = (sandbox.body as unknown as { error: { requestId: string } })
      .error;
    const { requestId: _b, ...liveError } = (live.body as unknown as { error: { requestId: string } }).error;
    expect(liveError).toStrictEqual(sandboxError);
  });
});
