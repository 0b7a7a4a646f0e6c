import { describe, expect, it } from 'vitest';
import {
  generateCompanyRecords,
  SIMULATOR_COMPANY_COUNT,
  simulatorDataset,
} from '../../local/generated-data.ts';
import { SANDBOX, sandboxRecords } from '../../shared/adapters/sandbox/data/companies.ts';
import {
  abnForAcn,
  acnWithCheckDigit,
  addressRecord,
  australianAddress,
  DocumentBook,
  officeholder,
  organisation,
  person,
} from '../../shared/adapters/sandbox/data/company-builders.ts';
import {
  buildDataset,
  type CompanyRecord,
  companyRecord,
  normalizeName,
} from '../../shared/adapters/sandbox/dataset.ts';
import { scoreName } from '../../shared/adapters/sandbox/name-search.ts';
import type { CompanyExtractType, RegistryCompanyExtract } from '../../shared/companies/registry-port.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import {
  buildSandboxDataset,
  createSandboxRegistry,
  sandboxDataset,
} from '../../shared/composition/registry/sandbox.ts';
import { isValidAbn, isValidAcn } from '../../shared/kernel/identifiers.ts';
import {
  compareCharges,
  compareDocuments,
  compareOfficeholders,
  officeholderRoleOrder,
  sortOfficeholders,
} from '../../shared/kernel/registry-ordering.ts';
import {
  type RegistryDocument,
  type RegistryOfficeholder,
  RegistryRejection,
} from '../../shared/kernel/registry-port.ts';

const caller = { accountId: 'acct_test', requestId: 'req_test' };
const NOW = new Date('2025-07-01T09:30:00.456Z');
const registry = createSandboxRegistry(() => NOW);

async function rejected(promise: Promise<unknown>): Promise<RegistryRejection> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistryRejection);
  return error as RegistryRejection;
}

const code = async (promise: Promise<unknown>) => (await rejected(promise)).registryCode;

const extract = (number: string, type: CompanyExtractType): Promise<RegistryCompanyExtract> =>
  registry.purchaseCompanyExtract(number, type, caller);

const summary = (holders: RegistryOfficeholder[]) =>
  holders.map((holder) => `${holder.role}:${holder.status}:${holder.ceasedAt ?? ''}`);

const record = (number: string): CompanyRecord => {
  const found = sandboxDataset().byNumber.get(number);
  if (!found) throw new Error(`no sandbox record ${number}`);
  return found;
};

/** A minimal APTY for hand-made datasets. */
function smallCompany(number: string, name: string, abn?: string | null): CompanyRecord {
  const book = new DocumentBook(() => `1T${number.slice(2)}`);
  const registration = book.lodge('201', '2020-01-01');
  return companyRecord({
    company: organisation({
      number,
      name,
      type: 'APTY',
      status: 'REGD',
      registeredAt: '2020-01-01',
      ...(abn === undefined ? {} : { abn }),
    }),
    addresses: [
      addressRecord(
        'RG',
        '2020-01-01',
        null,
        australianAddress('1 TEST STREET', 'SYDNEY', 'NSW', '2000'),
        registration,
      ),
    ],
    documents: book.documents,
  });
}

describe('sandbox identifiers', () => {
  const nineDigit: string[] = Object.values(SANDBOX).flatMap((value) =>
    typeof value === 'string' && value.length === 9 ? [value] : [],
  );

  it('every documented number and every organisation number passes the check digit', () => {
    expect(nineDigit.length).toBeGreaterThan(20);
    for (const number of nineDigit) expect(isValidAcn(number), number).toBe(true);
    for (const { company } of sandboxRecords()) expect(isValidAcn(company.number), company.number).toBe(true);
  });

  it('every documented and recorded ABN passes modulus 89 and embeds its organisation number', () => {
    for (const abn of [SANDBOX.abnRecorded, SANDBOX.abnNotRecorded, SANDBOX.abnNoCompany]) {
      expect(isValidAbn(abn), abn).toBe(true);
    }
    expect(SANDBOX.abnNoCompany.slice(2)).toBe(SANDBOX.unknownNumber);
    expect(SANDBOX.abnNotRecorded.slice(2)).toBe(SANDBOX.preAsicAddresses);
    for (const { company } of sandboxRecords()) {
      if (company.abn === null) continue;
      expect(isValidAbn(company.abn), company.abn).toBe(true);
      expect(company.abn.slice(2)).toBe(company.number);
    }
  });

  it('abnForAcn picks the smallest valid prefix; acnWithCheckDigit appends the check digit', () => {
    for (const acn of ['000000019', '004085616', '051775556', SANDBOX.proprietary, SANDBOX.unknownNumber]) {
      const smallest = Array.from({ length: 90 }, (_, i) => `${i + 10}${acn}`).find((abn) => isValidAbn(abn));
      expect(abnForAcn(acn)).toBe(smallest);
    }
    expect(abnForAcn('004085616')).toBe('53004085616');
    expect(abnForAcn('051775556')).toBe('33051775556');
    expect(acnWithCheckDigit('00408561')).toBe('004085616');
    expect(acnWithCheckDigit('99000001')).toBe(SANDBOX.proprietary);
  });

  it('shows each organisation type with its number type', () => {
    const typeOf = (number: string) => {
      const { company } = record(number);
      return [company.type, company.numberType];
    };
    expect(typeOf(SANDBOX.proprietary)).toEqual(['APTY', 'ACN']);
    expect(typeOf(SANDBOX.public)).toEqual(['APUB', 'ACN']);
    expect(typeOf(SANDBOX.foreignCompany)).toEqual(['FNOS', 'ARBN']);
    expect(typeOf(SANDBOX.registeredBody)).toEqual(['RACN', 'ARBN']);
    expect(typeOf(SANDBOX.scheme)).toEqual(['MISM', 'ARSN']);
    expect(typeOf(SANDBOX.trust)).toEqual(['TRST', 'NUMBER']);
    expect(typeOf(SANDBOX.association)).toEqual(['ASSN', 'NUMBER']);
    expect(record(SANDBOX.scheme).company.schemeCategories).toEqual(['MTGE', 'REAL']);
  });

  it('shows the statuses, deregistration reasons and unknown codes', () => {
    expect(record(SANDBOX.externalAdministration).company.status).toBe('EXAD');
    expect(record(SANDBOX.strikeOff).company.status).toBe('SOFF');
    expect(record(SANDBOX.deregistered).company).toMatchObject({
      status: 'DRGD',
      deregistration: { date: '2021-03-15', reason: 'S601AA' },
    });
    expect(record(SANDBOX.deregistered).documents.map((d) => d.formCode)).toContain('6010');
    expect(record(SANDBOX.deregisteredUnknownReason).company.deregistration?.reason).toBe('S999');
    const odd = record(SANDBOX.unknownCodes);
    expect(odd.company.subClass).toBe('QQQQ');
    expect(odd.officeholders.map((holder) => holder.role)).toContain('ZX');
    expect(odd.documents.map((document) => document.formCode)).toContain('9ZZ');
  });

  it('sizes the charges extracts small, large and over 500 pages from the charge documents', () => {
    const pages = (number: string) => record(number).company.chargesExtractPages;
    expect(pages(SANDBOX.smallChargesExtract)).toBe(5);
    expect(pages(SANDBOX.satisfiedCharges)).toBe(23);
    expect(pages(SANDBOX.hugeChargesExtract)).toBe(570);
    expect(pages(SANDBOX.noCharges)).toBe(0);
    for (const { company, charges } of sandboxRecords()) {
      const total = charges.flatMap((c) => c.documents).reduce((sum, d) => sum + d.pageCount, 0);
      expect(company.chargesExtractPages).toBe(total);
    }
  });

  it('has the large company: 1,000 office holders and 2,000 documents', () => {
    const large = record(SANDBOX.largeCompany);
    expect(large.officeholders).toHaveLength(1000);
    expect(large.documents).toHaveLength(2000);
  });

  it('document numbers are nine characters starting with a digit, unique across the sandbox', () => {
    const numbers = sandboxRecords().flatMap((r) => r.documents.map((d) => d.documentNumber));
    for (const number of numbers) expect(number).toMatch(/^\d[0-9A-Z]{8}$/);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});

describe('sandbox dataset building', () => {
  it('is deterministic: two builds are deep-equal', () => {
    const first = buildSandboxDataset();
    const second = buildSandboxDataset();
    expect(second.companies).toEqual(first.companies);
    expect([...second.charges.keys()]).toEqual([...first.charges.keys()]);
    expect(second.companies).toEqual(sandboxDataset().companies);
  });

  it('is memoised', () => {
    expect(sandboxDataset()).toBe(sandboxDataset());
  });

  it('builds in well under 100 ms, large company included', () => {
    buildSandboxDataset();
    const times = Array.from({ length: 3 }, () => {
      const start = performance.now();
      buildSandboxDataset();
      return performance.now() - start;
    });
    expect(Math.min(...times)).toBeLessThan(100);
  });

  it('refuses duplicate numbers, ABNs and charge numbers', () => {
    const a = smallCompany('990000014', 'A PTY LTD');
    expect(() => buildDataset([a, smallCompany('990000014', 'B PTY LTD')])).toThrow(/Duplicate organisation/);
    const charged = record(SANDBOX.satisfiedCharges);
    const copy = { ...smallCompany('990000023', 'C PTY LTD', null), charges: charged.charges };
    expect(() => buildDataset([charged, copy])).toThrow(/Duplicate charge/);
    const sameAbn = smallCompany('990000023', 'D PTY LTD', a.company.abn);
    expect(() => buildDataset([a, sameAbn])).toThrow(/Duplicate ABN/);
  });
});

describe('getCompany', () => {
  it('returns the organisation', async () => {
    const company = await registry.getCompany(SANDBOX.proprietary, caller);
    expect(company).toMatchObject({
      number: SANDBOX.proprietary,
      name: 'BLUEGUM ORCHARDS PTY LTD',
      abn: SANDBOX.abnRecorded,
    });
  });

  it('rejects CE01 for a malformed number and CE03 for an unknown one', async () => {
    for (const bad of ['99000001', '9900000140', '990000015', '990 000 014', 'abcdefghi', '']) {
      expect(await code(registry.getCompany(bad, caller)), bad).toBe('CE01');
    }
    expect(await code(registry.getCompany(undefined as unknown as string, caller))).toBe('CE01');
    expect(await code(registry.getCompany(SANDBOX.unknownNumber, caller))).toBe('CE03');
  });

  it('answers copies: changing an answer does not change the dataset', async () => {
    const company = await registry.getCompany(SANDBOX.proprietary, caller);
    company.name = 'CHANGED';
    company.formerNames.length = 0;
    const again = await registry.getCompany(SANDBOX.proprietary, caller);
    expect(again.name).toBe('BLUEGUM ORCHARDS PTY LTD');
    expect(again.formerNames).toHaveLength(1);
  });
});

describe('getCompanyByAbn', () => {
  it('returns the organisation whose recorded ABN it is', async () => {
    expect((await registry.getCompanyByAbn(SANDBOX.abnRecorded, caller)).number).toBe(SANDBOX.proprietary);
  });

  it('rejects CE13 when no organisation has the ACN in the ABN', async () => {
    expect(await code(registry.getCompanyByAbn(SANDBOX.abnNoCompany, caller))).toBe('CE13');
  });

  it('rejects CE12 when the organisation has no ABN recorded', async () => {
    expect(record(SANDBOX.preAsicAddresses).company.abn).toBeNull();
    expect(await code(registry.getCompanyByAbn(SANDBOX.abnNotRecorded, caller))).toBe('CE12');
  });

  it('rejects CE12 when the organisation has a different ABN recorded', async () => {
    // Prefixes 10 and 99 both pass for an ACN whose digits already make a multiple of 89.
    let acn = '';
    for (let base = 99_500_000; acn === ''; base++) {
      const candidate = acnWithCheckDigit(String(base));
      if (abnForAcn(candidate).startsWith('10')) acn = candidate;
    }
    expect(isValidAbn(`99${acn}`)).toBe(true);
    const own = new DatasetRegistry(buildDataset([smallCompany(acn, 'ONE ABN PTY LTD', `10${acn}`)]));
    expect((await own.getCompanyByAbn(`10${acn}`, caller)).number).toBe(acn);
    expect(await code(own.getCompanyByAbn(`99${acn}`, caller))).toBe('CE12');
  });

  it('rejects CE10 for a malformed ABN and CE11 for one without an ACN inside', async () => {
    for (const bad of ['2399000001', '23990000015', '24990000014', 'abc', '']) {
      expect(await code(registry.getCompanyByAbn(bad, caller)), bad).toBe('CE10');
    }
    expect(await code(registry.getCompanyByAbn('51824753556', caller))).toBe('CE11');
  });
});

describe('searchCompanies', () => {
  const search = (name: string, scope: 'current' | 'all' = 'current') =>
    registry.searchCompanies({ name, scope }, caller);

  it('orders by score then name, and documents its scores', async () => {
    const result = await search(SANDBOX.search.scored);
    expect(result.found).toBe(4);
    expect(result.matches.map((m) => [m.matchedName, m.score, m.nameStatus])).toEqual([
      ['SOUTHERN CROSS BANK LIMITED', 84, 'current'],
      ['SOUTHERN CROSS HOLDINGS LIMITED', 84, 'current'],
      ['THE SOUTHERN CROSS HOTEL PTY LTD', 49, 'current'],
      ['SOUTHERN STAR CROSSINGS PTY LTD', 18, 'current'],
    ]);
    expect(result.matches[0]?.company.number).toBe(SANDBOX.bank);
    expect(result.matches[0]?.address).toEqual({
      locality: 'SYDNEY',
      state: 'NSW',
      postcode: '2000',
      country: 'AUSTRALIA',
    });
  });

  it('scope all also matches former names, once per organisation', async () => {
    const result = await search('Southern  CROSS', 'all');
    expect(result.found).toBe(5);
    expect(result.matches.map((m) => [m.matchedName, m.score, m.nameStatus])[2]).toEqual([
      'SOUTHERN CROSS MINING N.L.',
      81,
      'former',
    ]);
    expect(result.matches[2]?.company.name).toBe('MERIDIAN NATIONAL HOLDINGS LIMITED');
    // The holding company's former name scores lower than its current one: listed once, current.
    const holding = result.matches.filter((m) => m.company.number === SANDBOX.public);
    expect(holding.map((m) => m.nameStatus)).toEqual(['current']);
  });

  it('scores an exact name 100', async () => {
    const result = await search(SANDBOX.search.exact);
    expect(result.matches.map((m) => [m.company.number, m.score])).toEqual([[SANDBOX.bank, 100]]);
  });

  it('rejects ON52 over 100 names and ON51 for none, with counts', async () => {
    const tooMany = await rejected(search(SANDBOX.search.tooMany));
    expect([tooMany.registryCode, tooMany.details]).toEqual([
      'ON52',
      { counts: { returned: 0, found: 120 } },
    ]);
    const none = await rejected(search(SANDBOX.search.none, 'all'));
    expect([none.registryCode, none.details]).toEqual(['ON51', { counts: { returned: 0, found: 0 } }]);
    const blank = await rejected(search(' !? '));
    expect(blank.registryCode).toBe('ON51');
  });

  it('allows exactly 100 names and rejects 101', async () => {
    const companies = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        smallCompany(
          acnWithCheckDigit(String(99_600_000 + i)),
          `HUNDRED ${String(i).padStart(3, '0')} PTY LTD`,
          null,
        ),
      );
    const hundred = new DatasetRegistry(buildDataset(companies(100)));
    const result = await hundred.searchCompanies({ name: 'hundred', scope: 'current' }, caller);
    expect([result.found, result.matches.length]).toEqual([100, 100]);
    expect(result.matches[0]?.matchedName).toBe('HUNDRED 000 PTY LTD');
    const over = new DatasetRegistry(buildDataset(companies(101)));
    const rejection = await rejected(over.searchCompanies({ name: 'hundred', scope: 'current' }, caller));
    expect([rejection.registryCode, rejection.details]).toEqual([
      'ON52',
      { counts: { returned: 0, found: 101 } },
    ]);
  });

  it('covers every organisation type and shows an overseas partial address', async () => {
    const association = await search('tamworth bush poets');
    expect(association.matches[0]?.company.type).toBe('ASSN');
    const foreign = await search('kiwi fernleaf');
    expect(foreign.matches[0]?.address).toEqual({
      locality: 'WELLINGTON',
      state: null,
      postcode: null,
      country: 'NEW ZEALAND',
    });
  });

  it('rejects ON02 for an unknown scope', async () => {
    expect(await code(registry.searchCompanies({ name: 'acme', scope: 'every' as 'all' }, caller))).toBe(
      'ON02',
    );
  });
});

describe('scoreName', () => {
  const score = (query: string, name: string) => scoreName(normalizeName(query), normalizeName(name));

  it('ranks exact over starts-with over contains over scattered words', () => {
    expect(score('acme widgets pty ltd', 'ACME WIDGETS PTY LTD')).toBe(100);
    const startsWith = score('acme widgets', 'ACME WIDGETS PTY LTD') ?? 0;
    const contains = score('acme widgets', 'THE ACME WIDGETS CO') ?? 0;
    const scattered = score('acme widgets', 'WIDGETS BY ACME') ?? 0;
    expect(startsWith).toBeGreaterThan(contains);
    expect(contains).toBeGreaterThan(scattered);
    expect(scattered).toBeGreaterThan(0);
    // Bands never overlap: a starts-with with little coverage still beats a full-coverage contains.
    expect(score('a', 'A B C D E F G H I J')).toBeGreaterThan(
      score('b c d e f g h i j', 'A B C D E F G H I J') ?? 0,
    );
  });

  it('scores more matched words and whole words higher', () => {
    expect(score('acme widgets', 'ACME WIDGETS PTY LTD')).toBeGreaterThan(
      score('acme', 'ACME WIDGETS PTY LTD') ?? 0,
    );
    expect(score('acme widgets', 'ACME WIDGETS PTY LTD')).toBeGreaterThan(
      score('acme widg', 'ACME WIDGETS PTY LTD') ?? 0,
    );
  });

  it('needs every query word in the name, each matching a different word', () => {
    expect(score('acme gadgets', 'ACME WIDGETS PTY LTD')).toBeNull();
    expect(score('acme acme', 'ACME WIDGETS')).not.toBeNull();
    expect(score('a ab', 'AB AC')).not.toBeNull();
    expect(score("o'brien", 'OBRIEN & CO')).toBeGreaterThan(70);
    expect(score('', 'ACME')).toBeNull();
  });
});

describe('purchaseCompanyExtract', () => {
  it('current: C and F records only, no charges, no annual returns or financial reports', async () => {
    const current = await extract(SANDBOX.proprietary, 'current');
    expect(current.type).toBe('current');
    expect(current.asOf).toBe('2025-07-01T09:30:00Z');
    expect(summary(current.officeholders)).toEqual(['DR:C:', 'DR:C:', 'DR:F:', 'SR:C:', 'AA:C:', 'UH:C:']);
    expect(current.officeholders.slice(0, 3).map((h) => h.party.person?.familyName)).toEqual([
      'SMITH',
      'NGUYEN',
      'PATEL',
    ]);
    expect(current.addresses.map((a) => `${a.type}:${a.status}`)).toEqual(['RG:C', 'PA:C']);
    expect(current.contactAddress).toMatchObject({ type: 'CC', status: 'C' });
    expect(current.shareClasses.map((s) => s.classCode)).toEqual(['ORD', 'PREF']);
    expect(current.members.every((m) => m.status === 'C')).toBe(true);
    expect(current.members).toHaveLength(3);
    expect(current.documents.some((d) => /^(AR|FR)/.test(d.qualifier ?? ''))).toBe(false);
    expect(current.documents).toHaveLength(record(SANDBOX.proprietary).documents.length - 4);
    expect(current.charges).toEqual([]);
    expect(current.relationships).toEqual([]);
    expect(current.externalAdministration).toBeNull();
  });

  it('historical: every record in the registry order, AR and FR documents included', async () => {
    const historical = await extract(SANDBOX.proprietary, 'historical');
    expect(summary(historical.officeholders)).toEqual([
      'DR:C:',
      'DR:C:',
      'DR:F:',
      'DR:E:2019-11-30',
      'DR:E:2015-06-30',
      'SR:C:',
      'SR:E:2018-09-30',
      'LD:E:2017-04-30',
      'AA:C:',
      'UH:C:',
    ]);
    expect(historical.addresses.map((a) => `${a.type}:${a.status}:${a.to ?? ''}`)).toEqual([
      'RG:C:',
      'RG:E:2016-02-29',
      'PA:C:',
      'PA:E:2016-02-29',
      'PA:E:2012-05-31',
    ]);
    expect(historical.contactAddress?.type).toBe('CC');
    expect(historical.shareClasses.map((s) => `${s.classCode}:${s.status}`)).toEqual([
      'ORD:C',
      'PREF:C',
      'A:E',
    ]);
    expect(historical.members.map((m) => m.status)).toEqual(['C', 'C', 'C', 'E', 'E']);
    expect(historical.documents).toHaveLength(record(SANDBOX.proprietary).documents.length);
    expect(historical.documents.filter((d) => /^(AR|FR)/.test(d.qualifier ?? ''))).toHaveLength(4);
    expect(historical.charges).toEqual([]);
    expect(historical.relationships).toEqual([]);
  });

  it('lists documents newest first, the higher number first on the same day', async () => {
    const { documents } = await extract(SANDBOX.proprietary, 'historical');
    for (let i = 1; i < documents.length; i++) {
      const [newer, older] = [documents[i - 1] as RegistryDocument, documents[i] as RegistryDocument];
      expect(newer.receivedAt >= older.receivedAt).toBe(true);
    }
    const sameDay = documents.filter((d) => d.receivedAt === '2016-03-04');
    expect(sameDay.map((d) => d.formCode)).toEqual(['2205', '484']);
    expect((sameDay[0]?.documentNumber ?? '') > (sameDay[1]?.documentNumber ?? '')).toBe(true);
    const form484 = documents.find((d) => d.receivedAt === '2016-03-04' && d.formCode === '484');
    expect(form484?.subForms.map((s) => s.code)).toEqual(['484A1', '484E', '484G']);
    expect(documents.some((d) => d.xbrlDocumentNumber !== null)).toBe(true);
  });

  it('historical charges: chronological, chargees, documents notification first and discharge last', async () => {
    const historical = await extract(SANDBOX.satisfiedCharges, 'historical');
    expect(historical.charges.map((c) => c.chargeNumber)).toEqual([
      SANDBOX.charges.migrated,
      SANDBOX.charges.jointChargee,
      SANDBOX.charges.deleted,
    ]);
    const [migrated, joint, deleted] = historical.charges;
    expect(migrated).toMatchObject({
      status: 'SATF',
      registeredAt: '1989-06-01T00:00:00Z',
      preAsicChargeNumber: '00045678',
    });
    expect(migrated?.chargees[0]?.organisation).toMatchObject({ number: SANDBOX.bank, numberType: 'ACN' });
    expect(migrated?.documents.map((d) => d.formCode)).toEqual(['309', '350', '312']);
    expect(migrated?.documents.every((d) => d.status === null)).toBe(true);
    expect(joint?.chargees.map((c) => c.type)).toEqual(['person', 'person']);
    expect(deleted?.status).toBe('DELT');
    expect(migrated?.company.number).toBe(SANDBOX.satisfiedCharges);
    expect((await extract(SANDBOX.satisfiedCharges, 'current')).charges).toEqual([]);
  });

  it('external administration: only while EXAD; current shows current appointees only', async () => {
    const historical = await extract(SANDBOX.externalAdministration, 'historical');
    expect(summary(historical.externalAdministration?.appointees ?? [])).toEqual([
      'AC:E:2024-03-01',
      'AD:C:',
    ]);
    expect(historical.externalAdministration?.documents.map((d) => [d.formCode, d.receivedAt])).toEqual([
      ['505', '2024-03-04'],
      ['505', '2023-12-05'],
    ]);
    const current = await extract(SANDBOX.externalAdministration, 'current');
    expect(summary(current.externalAdministration?.appointees ?? [])).toEqual(['AD:C:']);
    expect(summary(current.officeholders)).toEqual(['DR:C:', 'SR:C:', 'AD:C:']);
    expect((await extract(SANDBOX.proprietary, 'historical')).externalAdministration).toBeNull();
  });

  it('relational: relationships only, in company-role order, current before ceased newest first', async () => {
    const relational = await extract(SANDBOX.relational, 'relational');
    expect(relational.relationships.map((r) => `${r.role}:${r.status}:${r.ceasedAt ?? ''}`)).toEqual([
      'AG:C:',
      'UH:C:',
      'UH:E:2020-12-31',
      'UH:E:2012-06-30',
      'TR:C:',
      'RN:C:',
    ]);
    expect(relational.relationships[0]?.company.number).toBe(SANDBOX.foreignCompany);
    expect(relational).toMatchObject({
      type: 'relational',
      officeholders: [],
      addresses: [],
      contactAddress: null,
      shareClasses: [],
      members: [],
      documents: [],
      externalAdministration: null,
      charges: [],
    });
  });

  it('rejects by product support and for missing relational data', async () => {
    expect(await code(extract(SANDBOX.noRelationships, 'relational'))).toBe('CR02');
    expect(await code(extract(SANDBOX.registeredBody, 'relational'))).toBe('CR02');
    expect(await code(extract(SANDBOX.scheme, 'relational'))).toBe('CR51');
    expect(await code(extract(SANDBOX.association, 'relational'))).toBe('CR51');
    expect(await code(extract(SANDBOX.association, 'current'))).toBe('CE51');
    expect(await code(extract(SANDBOX.trust, 'historical'))).toBe('CE51');
    for (const supported of [
      SANDBOX.proprietary,
      SANDBOX.public,
      SANDBOX.foreignCompany,
      SANDBOX.registeredBody,
      SANDBOX.scheme,
    ]) {
      expect((await extract(supported, 'current')).company.number).toBe(supported);
    }
  });

  it('rejects malformed and unknown numbers and unknown types', async () => {
    expect(await code(extract('990000015', 'current'))).toBe('CE01');
    expect(await code(extract(SANDBOX.unknownNumber, 'historical'))).toBe('CE03');
    expect(await code(extract('990000015', 'relational'))).toBe('CR01');
    expect(await code(extract(SANDBOX.unknownNumber, 'relational'))).toBe('CR03');
    expect(await code(extract(SANDBOX.proprietary, 'full' as CompanyExtractType))).toBe('RS02');
  });

  it('foreign company: RP and RO addresses, the RO overseas', async () => {
    const current = await extract(SANDBOX.foreignCompany, 'current');
    expect(current.addresses.map((a) => a.type)).toEqual(['RP', 'RO']);
    expect(current.addresses[1]?.address).toMatchObject({
      state: null,
      postcode: null,
      country: 'NEW ZEALAND',
    });
    expect(summary(current.officeholders)).toEqual(['DR:C:', 'DR:C:', 'AG:C:']);
  });

  it('scheme and converted pre-1991 addresses', async () => {
    const scheme = await extract(SANDBOX.scheme, 'historical');
    expect(scheme.company).toMatchObject({
      numberType: 'ARSN',
      type: 'MISM',
      schemeCategories: ['MTGE', 'REAL'],
    });
    expect(summary(scheme.officeholders)).toEqual(['RN:C:', 'RN:E:2012-04-30', 'CA:C:']);
    const old = await extract(SANDBOX.preAsicAddresses, 'historical');
    expect(old.addresses.map((a) => a.address.postcode)).toEqual([null, null]);
    expect(old.addresses[0]?.address.street).toBe('2ND FLOOR 14 PEEL STREET');
  });

  it('puts unknown roles after every known one', async () => {
    const odd = await extract(SANDBOX.unknownCodes, 'current');
    expect(odd.officeholders.map((h) => h.role)).toEqual(['DR', 'ZX']);
    expect(odd.documents.map((d) => d.formCode)).toContain('9ZZ');
  });

  it('the large company: all records in historical, current records only in current', async () => {
    const historical = await extract(SANDBOX.largeCompany, 'historical');
    expect(historical.officeholders).toHaveLength(1000);
    expect(historical.documents).toHaveLength(2000);
    const sorted = sortOfficeholders(historical.officeholders);
    expect(historical.officeholders).toEqual(sorted);
    const current = await extract(SANDBOX.largeCompany, 'current');
    expect(current.officeholders).toHaveLength(14);
    expect(current.documents.length).toBeLessThan(2000);
    expect(current.documents.some((d) => /^(AR|FR)/.test(d.qualifier ?? ''))).toBe(false);
  });

  it('answers copies', async () => {
    const first = await extract(SANDBOX.proprietary, 'historical');
    first.officeholders.length = 0;
    first.company.name = 'CHANGED';
    const second = await extract(SANDBOX.proprietary, 'historical');
    expect(second.officeholders).toHaveLength(10);
    expect(second.company.name).toBe('BLUEGUM ORCHARDS PTY LTD');
  });
});

describe('getCharge', () => {
  it('returns a charge with its company', async () => {
    const charge = await registry.getCharge(SANDBOX.charges.jointChargee, caller);
    expect(charge).toMatchObject({ chargeNumber: SANDBOX.charges.jointChargee, status: 'SATF', type: 'B' });
    expect(charge.company.number).toBe(SANDBOX.satisfiedCharges);
    expect((await registry.getCharge(SANDBOX.charges.hugeFirst, caller)).company.number).toBe(
      SANDBOX.hugeChargesExtract,
    );
  });

  it('rejects CH01 for an invalid or unknown number', async () => {
    for (const bad of [SANDBOX.charges.unknown, '1234567890', '12a', '', ' 9900141', '09900141']) {
      expect(await code(registry.getCharge(bad, caller)), bad).toBe('CH01');
    }
  });
});

describe('ordering', () => {
  const holder = (role: string, status: string, ceasedAt: string | null = null) =>
    officeholder(role, person('X', 'Y'), { status, appointedAt: '2000-01-01', ceasedAt });

  it('follows the display order, then other roles, then unknown roles by code', () => {
    const shuffled = ['ZX', 'OQ', 'BP', 'SB', 'RN', 'DR', 'AA', 'TR', 'AB'].map((role) => holder(role, 'C'));
    expect(sortOfficeholders(shuffled).map((h) => h.role)).toEqual([
      'RN',
      'DR',
      'AA',
      'BP',
      'SB',
      'OQ',
      'AB',
      'TR',
      'ZX',
    ]);
    expect(officeholderRoleOrder).toHaveLength(36);
  });

  it('puts C, then F, then ceased newest-ceasing first (undated last)', () => {
    const list = [
      holder('DR', 'E', '2001-01-01'),
      holder('DR', 'E', null),
      holder('DR', 'F'),
      holder('DR', 'E', '2010-01-01'),
      holder('DR', 'C'),
    ];
    expect([...list].sort(compareOfficeholders).map((h) => `${h.status}${h.ceasedAt ?? ''}`)).toEqual([
      'C',
      'F',
      'E2010-01-01',
      'E2001-01-01',
      'E',
    ]);
  });

  it('orders documents and charges', () => {
    let sequence = 0;
    const book = new DocumentBook(() => `1D000000${++sequence}`);
    const a = book.lodge('484', '2020-01-01');
    const b = book.lodge('484', '2020-01-01');
    const c = book.lodge('484', '2021-01-01');
    expect([a, b, c].sort(compareDocuments)).toEqual([c, b, a]);
    const charges = record(SANDBOX.satisfiedCharges).charges;
    const undated = { ...charges[0], chargeNumber: '5', registeredAt: null } as (typeof charges)[number];
    expect([undated, ...charges].sort(compareCharges).map((ch) => ch.chargeNumber)).toEqual([
      SANDBOX.charges.migrated,
      SANDBOX.charges.jointChargee,
      SANDBOX.charges.deleted,
      '5',
    ]);
  });
});

describe('generated data and the simulator dataset', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const first = generateCompanyRecords(150, 42);
    expect(generateCompanyRecords(150, 42)).toEqual(first);
    expect(generateCompanyRecords(150, 43).map((r) => r.company.number)).not.toEqual(
      first.map((r) => r.company.number),
    );
  });

  it('has valid identifiers that never reuse a sandbox number, and consistent records', () => {
    const simulator = simulatorDataset();
    expect(simulatorDataset()).toBe(simulator);
    const sandboxNumbers = new Set(sandboxRecords().map((r) => r.company.number));
    // Business names and reservations (BUSN, RSVN) are checked in records-registry.test.ts.
    const others = simulator.companies.filter((r) => !sandboxNumbers.has(r.company.number));
    const records = others.filter((r) => ['BUSN', 'RSVN'].includes(r.company.type));
    const generated = others.filter((r) => !records.includes(r));
    expect(generated).toHaveLength(SIMULATOR_COMPANY_COUNT);
    expect(simulator.companies).toHaveLength(sandboxNumbers.size + SIMULATOR_COMPANY_COUNT + records.length);
    expect(simulator.byNumber.has(SANDBOX.unknownNumber)).toBe(false);
    for (const { company, charges, officeholders, documents } of generated) {
      expect(isValidAcn(company.number), company.number).toBe(true);
      expect(company.number < '990000000').toBe(true);
      if (company.abn !== null)
        expect(isValidAbn(company.abn) && company.abn.endsWith(company.number)).toBe(true);
      for (const c of charges) {
        expect(c.chargeNumber).toMatch(/^2\d{8}$/);
        expect(c.company).toBe(company);
      }
      for (const h of officeholders) expect(['C', 'E', 'F']).toContain(h.status);
      for (const d of documents) expect(d.documentNumber).toMatch(/^8E\d{7}$/);
    }
    const types = new Set(generated.map((r) => r.company.type));
    for (const type of ['APTY', 'APUB', 'FNOS', 'RACN', 'MISM']) expect(types).toContain(type);
    expect(generated.some((r) => r.charges.length > 0)).toBe(true);
    expect(generated.some((r) => r.relationships.length > 0)).toBe(true);
    expect(generated.some((r) => r.company.status === 'EXAD' && r.externalAdministration !== null)).toBe(
      true,
    );
  });

  it('answers the documented sandbox searches the same way', async () => {
    const simulator = new DatasetRegistry(simulatorDataset(), () => NOW);
    const scored = await simulator.searchCompanies({ name: SANDBOX.search.scored, scope: 'current' }, caller);
    const sandbox = await registry.searchCompanies({ name: SANDBOX.search.scored, scope: 'current' }, caller);
    expect(scored).toEqual(sandbox);
    const tooMany = await rejected(
      simulator.searchCompanies({ name: SANDBOX.search.tooMany, scope: 'all' }, caller),
    );
    expect(tooMany.details).toEqual({ counts: { returned: 0, found: 120 } });
    expect(await code(simulator.searchCompanies({ name: SANDBOX.search.none, scope: 'all' }, caller))).toBe(
      'ON51',
    );
    expect((await simulator.getCompany(SANDBOX.largeCompany, caller)).name).toBe(
      'MERIDIAN NATIONAL HOLDINGS LIMITED',
    );
  });
});
