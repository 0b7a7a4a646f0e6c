import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_ORDERS, simulatorDataset } from '../../local/generated-data.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { SANDBOX_PEOPLE } from '../../shared/adapters/sandbox/data/people.ts';
import type { Dataset } from '../../shared/adapters/sandbox/dataset.ts';
import { renderDocumentImages } from '../../shared/adapters/sandbox/page-images.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import { sandboxDataset } from '../../shared/composition/registry/sandbox.ts';
import {
  type RegistryCaller,
  type RegistryCompany,
  RegistryRejection,
} from '../../shared/kernel/registry-port.ts';
import { PPSR_START } from '../../shared/orders/adapters/sandbox.ts';
import type { RegistryImageableDocument } from '../../shared/orders/registry-port.ts';
import { postalDelivery } from '../support/registry.ts';

const NOW = new Date('2025-07-01T09:30:00Z');
const caller: RegistryCaller = { accountId: 'acct_orders', requestId: 'req_orders' };
const other: RegistryCaller = { accountId: 'acct_other', requestId: 'req_other' };
const D = SANDBOX.documents;

/** A registry of its own, so image requests and dispatches start from nothing. */
const sandbox = () => new DatasetRegistry(sandboxDataset(), () => NOW, { pageImages: renderDocumentImages });

async function rejected(promise: Promise<unknown>): Promise<RegistryRejection> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistryRejection);
  return error as RegistryRejection;
}

/** The code, message and details of a rejection, for one exact comparison. */
const rejection = async (promise: Promise<unknown>) => {
  const error = await rejected(promise);
  return [error.registryCode, error.message, error.details];
};

const companyOf = (dataset: Dataset, number: string): RegistryCompany => {
  const record = dataset.byNumber.get(number);
  if (!record) throw new Error(`no record ${number}`);
  return record.company;
};

const organisationDocument = (
  company: RegistryCompany,
  documentNumber: string,
  formCode: string,
  pageCount: number,
  receivedAt: string,
  availability: { imaged?: boolean; imageAvailable?: boolean } = {},
): RegistryImageableDocument => ({
  documentNumber,
  formCode,
  pageCount,
  receivedAt,
  imaged: availability.imaged ?? true,
  imageAvailable: availability.imageAvailable ?? availability.imaged ?? true,
  subject: { type: 'organisation', company },
});

describe('charges extract plans', () => {
  const dataset = sandboxDataset();

  it('lists the documents of the small extract, notification first', async () => {
    const company = companyOf(dataset, SANDBOX.smallChargesExtract);
    expect(await sandbox().planChargesExtract(SANDBOX.smallChargesExtract, caller)).toEqual({
      company,
      scope: 'satisfied',
      documents: [
        organisationDocument(company, '9E0150002', '309', 3, '2016-04-12'),
        organisationDocument(company, '9E0150003', '312', 2, '2021-09-06'),
      ],
    });
  });

  it('goes charge by charge in registration order; documents that were never imaged are unavailable', async () => {
    const company = companyOf(dataset, SANDBOX.satisfiedCharges);
    const plan = await sandbox().planChargesExtract(SANDBOX.satisfiedCharges, caller);
    expect(plan.scope).toBe('satisfied');
    expect(plan.documents).toEqual([
      // The migrated 1989 charge: notification and stamp duty never imaged.
      organisationDocument(company, '9E0140006', '309', 4, '1989-06-01', { imaged: false }),
      organisationDocument(company, '9E0140007', '350', 2, '1989-06-05', { imaged: false }),
      organisationDocument(company, '9E0140008', '312', 3, '2003-02-20'),
      organisationDocument(company, '9E0140003', '309', 5, '2004-08-17'),
      organisationDocument(company, '9E0140004', '350', 2, '2004-08-20'),
      organisationDocument(company, '9E0140005', '312', 3, '2015-12-04'),
      organisationDocument(company, '9E0140002', '309', 4, '2010-02-03'),
    ]);
  });

  it('marks the pre-1991 state-office notification imaged but unavailable', async () => {
    const company = companyOf(dataset, SANDBOX.unavailableChargeImage);
    const plan = await sandbox().planChargesExtract(SANDBOX.unavailableChargeImage, caller);
    expect(plan).toEqual({
      company,
      scope: 'satisfied',
      documents: [
        organisationDocument(company, D.unavailableCharge, '309', 3, '1987-03-02', { imageAvailable: false }),
        organisationDocument(company, '9E0230003', '312', 2, '1996-06-04'),
        organisationDocument(company, '9E0230004', '309', 2, '2003-09-15'),
        organisationDocument(company, '9E0230005', '312', 1, '2014-03-04'),
      ],
    });
    expect(dataset.charges.get(SANDBOX.charges.unavailableImage)?.preAsicChargeNumber).toBe('00031877');
  });

  it('is scope current (fee 955C) only when every charge is unsatisfied and older than the PPSR', async () => {
    expect(PPSR_START).toBe('2012-01-30');
    const company = companyOf(dataset, SANDBOX.currentCharges);
    expect(await sandbox().planChargesExtract(SANDBOX.currentCharges, caller)).toEqual({
      company,
      scope: 'current',
      documents: [
        organisationDocument(company, '9E0240002', '309', 4, '2006-05-10'),
        organisationDocument(company, '9E0240003', '350', 2, '2006-05-12'),
        organisationDocument(company, '9E0240004', '309', 3, '2011-08-22'),
      ],
    });
    const migrated = [SANDBOX.charges.currentFirst, SANDBOX.charges.currentSecond].map((n) =>
      dataset.charges.get(n),
    );
    expect(migrated.map((c) => [c?.status, c?.satisfiedAt])).toEqual([
      ['DELT', null],
      ['DELT', null],
    ]);
    // One deleted charge among satisfied ones is not enough.
    expect((await sandbox().planChargesExtract(SANDBOX.satisfiedCharges, caller)).scope).toBe('satisfied');
  });

  it('sizes every case as documented', async () => {
    const pages = async (number: string) =>
      (await sandbox().planChargesExtract(number, caller)).documents.reduce((sum, d) => sum + d.pageCount, 0);
    expect(await pages(SANDBOX.smallChargesExtract)).toBe(5);
    expect(await pages(SANDBOX.unavailableChargeImage)).toBe(8);
    expect(await pages(SANDBOX.currentCharges)).toBe(9);
    expect(await pages(SANDBOX.satisfiedCharges)).toBe(23);
    expect(await pages(SANDBOX.benchmarkChargesExtract)).toBe(30);
    expect(await pages(SANDBOX.mediumChargesExtract)).toBe(240);
    expect(await pages(SANDBOX.hugeChargesExtract)).toBe(570);
  });

  it("adds up to the company's chargesExtractPages for every sandbox and simulator company with charges", async () => {
    for (const [data, companies] of [
      [sandboxDataset(), 7],
      [simulatorDataset(), 329],
    ] as const) {
      const registry = new DatasetRegistry(data, () => NOW);
      const charged = data.companies.filter((record) => record.charges.length > 0);
      expect(charged).toHaveLength(companies);
      for (const { company } of charged) {
        const plan = await registry.planChargesExtract(company.number, caller);
        const total = plan.documents.reduce((sum, d) => sum + d.pageCount, 0);
        expect(total, company.number).toBe(company.chargesExtractPages);
        expect(plan.company.chargesExtractPages).toBe(total);
      }
    }
  });

  it('rejects CC01, CE03, CC51 and CC52', async () => {
    const registry = sandbox();
    for (const number of ['99000014', '990000015', 'ABCDEFGHI', '']) {
      expect(await rejection(registry.planChargesExtract(number, caller))).toEqual([
        'CC01',
        'The number must be nine digits and pass the check digit test.',
        undefined,
      ]);
    }
    expect(await rejection(registry.planChargesExtract(SANDBOX.unknownNumber, caller))).toEqual([
      'CE03',
      'No organisation has the number 990000998.',
      undefined,
    ]);
    expect(await rejection(registry.planChargesExtract(SANDBOX.scheme, caller))).toEqual([
      'CC51',
      'Organisation type MISM has no charges extract.',
      undefined,
    ]);
    for (const [number, type] of [
      [SANDBOX.trust, 'TRST'],
      [SANDBOX.businessName, 'BUSN'],
    ]) {
      expect((await rejection(registry.planChargesExtract(number as string, caller)))[0]).toBe('CC51');
      expect(companyOf(dataset, number as string).type).toBe(type);
    }
    expect(await rejection(registry.planChargesExtract(SANDBOX.proprietary, caller))).toEqual([
      'CC52',
      'No charges are recorded for organisation 990000014.',
      undefined,
    ]);
  });

  it('answers copies: changing a plan changes nothing held', async () => {
    const registry = sandbox();
    const plan = await registry.planChargesExtract(SANDBOX.smallChargesExtract, caller);
    plan.company.name = 'CHANGED';
    (plan.documents[0] as RegistryImageableDocument).pageCount = 99;
    const again = await registry.planChargesExtract(SANDBOX.smallChargesExtract, caller);
    expect([again.company.name, again.documents[0]?.pageCount]).toEqual([
      'SOUTHERN STAR CROSSINGS PTY LTD',
      3,
    ]);
  });
});

describe('document lookups', () => {
  const dataset = sandboxDataset();
  const lyrebird = companyOf(dataset, SANDBOX.imageOrders);

  it('answers in the order asked, with whose record each document was lodged against', async () => {
    const found = await sandbox().getDocuments(
      [D.other, D.person, D.organisation, D.supplementary, D.notImaged, D.unavailable, D.otherRenewal],
      caller,
    );
    expect(found).toEqual([
      {
        documentNumber: D.other,
        formCode: 'BN01',
        pageCount: 2,
        receivedAt: '2009-03-16',
        imaged: true,
        imageAvailable: true,
        subject: { type: 'other' },
      },
      {
        documentNumber: D.person,
        formCode: '484',
        pageCount: 3,
        receivedAt: '2020-02-05',
        imaged: true,
        imageAvailable: true,
        subject: { type: 'person', name: { familyName: "O'BRIEN", givenNames: ['MICHAEL', 'PATRICK'] } },
      },
      organisationDocument(lyrebird, D.organisation, '388', 64, '2023-10-27'),
      organisationDocument(lyrebird, D.supplementary, '902', 6, '2021-08-30'),
      organisationDocument(lyrebird, D.notImaged, '201', 8, '1984-02-13', { imaged: false }),
      organisationDocument(lyrebird, D.unavailable, '484', 3, '1990-06-12', { imageAvailable: false }),
      {
        documentNumber: D.otherRenewal,
        formCode: 'BN03',
        pageCount: 1,
        receivedAt: '2012-03-16',
        imaged: true,
        imageAvailable: true,
        subject: { type: 'other' },
      },
    ]);
    expect(SANDBOX_PEOPLE.director.registryIdentifier).toBe('990100001');
  });

  it('knows every organisation, charge, external administration and person document of the sandbox', async () => {
    const registry = sandbox();
    const expected = new Map<string, string>();
    for (const record of dataset.companies) {
      const subject = record.company.type === 'BUSN' ? 'other' : `organisation ${record.company.number}`;
      for (const document of [
        ...record.documents,
        ...record.charges.flatMap((c) => c.documents),
        ...(record.externalAdministration?.documents ?? []),
      ])
        expected.set(document.documentNumber, subject);
    }
    for (const person of dataset.people) {
      for (const document of person.documents) {
        if (!expected.has(document.documentNumber))
          expected.set(document.documentNumber, `person ${person.match.name.familyName}`);
      }
    }
    expect(expected.size).toBeGreaterThan(2400);
    const numbers = [...expected.keys()];
    for (let i = 0; i < numbers.length; i += 50) {
      const batch = numbers.slice(i, i + 50);
      const found = await registry.getDocuments(batch, caller);
      expect(found.map((d) => d.documentNumber)).toEqual(batch);
      expect(
        found.map((d) =>
          d.subject.type === 'organisation'
            ? `organisation ${d.subject.company.number}`
            : d.subject.type === 'person'
              ? `person ${d.subject.name.familyName}`
              : 'other',
        ),
      ).toEqual(batch.map((n) => expected.get(n)));
    }
  });

  it('keeps a company document filed among a person’s documents the company’s', async () => {
    const filed = dataset.people
      .find((p) => p.match.registryIdentifier === SANDBOX_PEOPLE.director.registryIdentifier)
      ?.documents.find((d) => d.documentNumber.startsWith('9E'));
    expect(filed?.documentNumber).toBe('9E0010003');
    const [found] = await sandbox().getDocuments(['9E0010003'], caller);
    expect(found?.subject).toEqual({
      type: 'organisation',
      company: companyOf(dataset, SANDBOX.proprietary),
    });
  });

  it('rejects DD01 for a malformed number before DD51 for an unknown one', async () => {
    const registry = sandbox();
    for (const number of ['12345678', 'E00000001', '1234567890', '9e0250004', '']) {
      expect(await rejection(registry.getDocuments([D.unknown, number], caller))).toEqual([
        'DD01',
        `Document number ${number} is not nine characters starting with a digit.`,
        { documentNumber: number },
      ]);
    }
    expect(await rejection(registry.getDocuments([D.organisation, D.unknown], caller))).toEqual([
      'DD51',
      'No document has the number 9E9999999.',
      { documentNumber: D.unknown },
    ]);
    expect(await registry.getDocuments([], caller)).toEqual([]);
  });

  it('throws a plain error for more than 50 numbers', async () => {
    const error = await sandbox()
      .getDocuments(
        Array.from({ length: 51 }, () => D.organisation),
        caller,
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RegistryRejection);
  });
});

describe('image requests', () => {
  const page = (from: number, to: number) => ({ from, to });

  it('numbers requests IR + 8 digits and answers a repeated client key with the first id', async () => {
    const registry = sandbox();
    const first = await registry.requestImages(
      { clientKey: 'ord_1:0', documents: [{ documentNumber: D.organisation, pages: null }] },
      caller,
    );
    expect(first).toEqual({ registryRequestId: 'IR00000001' });
    // Same key, other documents: still the first request, and nothing new is recorded.
    expect(
      await registry.requestImages(
        { clientKey: 'ord_1:0', documents: [{ documentNumber: D.supplementary, pages: null }] },
        caller,
      ),
    ).toEqual({ registryRequestId: 'IR00000001' });
    expect((await registry.getImageRequest('IR00000001', caller)).documents).toEqual([
      { documentNumber: D.organisation, available: true, pageCount: 64 },
    ]);
    // Keys are per account.
    expect(
      await registry.requestImages(
        { clientKey: 'ord_1:0', documents: [{ documentNumber: D.supplementary, pages: null }] },
        other,
      ),
    ).toEqual({ registryRequestId: 'IR00000002' });
    expect(
      await registry.requestImages(
        { clientKey: 'ord_1:1', documents: [{ documentNumber: D.person, pages: null }] },
        caller,
      ),
    ).toEqual({ registryRequestId: 'IR00000003' });
  });

  it('completes at once: page counts of the ranges asked, unavailable images listed as such', async () => {
    const registry = sandbox();
    const { registryRequestId } = await registry.requestImages(
      {
        clientKey: 'ord_2:0',
        documents: [
          { documentNumber: D.organisation, pages: page(3, 7) },
          { documentNumber: D.supplementary, pages: null },
          { documentNumber: D.unavailable, pages: null },
          { documentNumber: D.other, pages: page(2, 2) },
          { documentNumber: D.person, pages: null },
          { documentNumber: D.unavailableCharge, pages: page(1, 3) },
        ],
      },
      caller,
    );
    expect(await registry.getImageRequest(registryRequestId, caller)).toEqual({
      registryRequestId: 'IR00000001',
      status: 'complete',
      failure: null,
      documents: [
        { documentNumber: D.organisation, available: true, pageCount: 5 },
        { documentNumber: D.supplementary, available: true, pageCount: 6 },
        { documentNumber: D.unavailable, available: false, pageCount: 3 },
        { documentNumber: D.other, available: true, pageCount: 1 },
        { documentNumber: D.person, available: true, pageCount: 3 },
        { documentNumber: D.unavailableCharge, available: false, pageCount: 3 },
      ],
    });
  });

  it('takes ten documents at most: more (or none) is a programming error, not a rejection', async () => {
    const registry = sandbox();
    const charge = (await registry.planChargesExtract(SANDBOX.hugeChargesExtract, caller)).documents;
    const ten = charge.slice(0, 10).map((d) => ({ documentNumber: d.documentNumber, pages: null }));
    expect(await registry.requestImages({ clientKey: 'ten', documents: ten }, caller)).toEqual({
      registryRequestId: 'IR00000001',
    });
    for (const documents of [
      charge.slice(0, 11).map((d) => ({ documentNumber: d.documentNumber, pages: null })),
      [],
    ]) {
      const error = await registry.requestImages({ clientKey: 'eleven', documents }, caller).catch((e) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(RegistryRejection);
    }
    const noKey = await registry.requestImages({ clientKey: '', documents: ten }, caller).catch((e) => e);
    expect(noKey).not.toBeInstanceOf(RegistryRejection);
    expect(noKey).toBeInstanceOf(Error);
  });

  it('rejects DI01, DI07, DI51, DI52, DI08, DI02 and DI53, and the key stays free', async () => {
    const registry = sandbox();
    const ask = (documents: { documentNumber: string; pages: { from: number; to: number } | null }[]) =>
      rejection(registry.requestImages({ clientKey: 'ord_3:0', documents }, caller));
    expect(await ask([{ documentNumber: 'X12345678', pages: null }])).toEqual([
      'DI01',
      'Document number X12345678 is not nine characters starting with a digit.',
      { documentNumber: 'X12345678' },
    ]);
    expect(
      await ask([
        { documentNumber: D.organisation, pages: page(1, 2) },
        { documentNumber: D.organisation, pages: page(3, 4) },
      ]),
    ).toEqual(['DI07', `Document ${D.organisation} is asked for twice.`, { documentNumber: D.organisation }]);
    expect(await ask([{ documentNumber: D.unknown, pages: null }])).toEqual([
      'DI51',
      'No document has the number 9E9999999.',
      { documentNumber: D.unknown },
    ]);
    expect(await ask([{ documentNumber: D.notImaged, pages: null }])).toEqual([
      'DI52',
      `Document ${D.notImaged} is not in the imaging system.`,
      { documentNumber: D.notImaged },
    ]);
    expect(await ask([{ documentNumber: D.organisation, pages: { from: 1 } as never }])).toEqual([
      'DI08',
      'A page range needs a first and a last page, as whole numbers.',
      { documentNumber: D.organisation },
    ]);
    for (const range of [page(5, 4), page(0, 3)]) {
      expect(await ask([{ documentNumber: D.organisation, pages: range }])).toEqual([
        'DI02',
        `Pages ${range.from} to ${range.to} are not a page range.`,
        { documentNumber: D.organisation },
      ]);
    }
    expect(await ask([{ documentNumber: D.organisation, pages: page(60, 65) }])).toEqual([
      'DI53',
      `Document ${D.organisation} has 64 pages; pages 60 to 65 were asked for.`,
      { documentNumber: D.organisation },
    ]);
    expect(await ask([{ documentNumber: D.otherRenewal, pages: page(2, 2) }])).toEqual([
      'DI53',
      `Document ${D.otherRenewal} has 1 page; pages 2 to 2 were asked for.`,
      { documentNumber: D.otherRenewal },
    ]);
    // Nothing was recorded: the key makes the first request now.
    expect(
      await registry.requestImages(
        { clientKey: 'ord_3:0', documents: [{ documentNumber: D.organisation, pages: page(60, 64) }] },
        caller,
      ),
    ).toEqual({ registryRequestId: 'IR00000001' });
  });

  it('rejects RO51 for an unknown request id, and for another account’s', async () => {
    const registry = sandbox();
    await registry.requestImages(
      { clientKey: 'k', documents: [{ documentNumber: D.supplementary, pages: null }] },
      caller,
    );
    for (const [id, who] of [
      ['IR00000002', caller],
      ['IR00000001', other],
      ['nonsense', caller],
    ] as const) {
      expect(await rejection(registry.getImageRequest(id, who))).toEqual([
        'RO51',
        `No image request has the id ${id}.`,
        { registryRequestId: id },
      ]);
      expect((await rejected(registry.getImages(id, D.supplementary, who))).registryCode).toBe('RO51');
    }
  });
});

describe('images', () => {
  it('are a PDF of the requested pages, one A4 page each', async () => {
    const registry = sandbox();
    const { registryRequestId } = await registry.requestImages(
      {
        clientKey: 'ord_4:0',
        documents: [
          { documentNumber: D.organisation, pages: { from: 3, to: 7 } },
          { documentNumber: D.supplementary, pages: null },
          { documentNumber: D.person, pages: null },
        ],
      },
      caller,
    );
    const range = await PDFDocument.load(await registry.getImages(registryRequestId, D.organisation, caller));
    expect(range.getPageCount()).toBe(5);
    expect(range.getTitle()).toBe(`Document ${D.organisation}, form 388, pages 3 to 7 of 64`);
    expect(range.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 });
    const whole = await PDFDocument.load(
      await registry.getImages(registryRequestId, D.supplementary, caller),
    );
    expect([whole.getPageCount(), whole.getTitle()]).toEqual([
      6,
      `Document ${D.supplementary}, form 902, pages 1 to 6 of 6`,
    ]);
    const personal = await PDFDocument.load(await registry.getImages(registryRequestId, D.person, caller));
    expect(personal.getPageCount()).toBe(3);
  });

  it('rejects DI51 for a document outside the request and DI58 for an unavailable image', async () => {
    const registry = sandbox();
    const { registryRequestId } = await registry.requestImages(
      { clientKey: 'ord_5:0', documents: [{ documentNumber: D.unavailable, pages: null }] },
      caller,
    );
    expect(await rejection(registry.getImages(registryRequestId, D.organisation, caller))).toEqual([
      'DI51',
      `Document ${D.organisation} is not part of image request IR00000001.`,
      { documentNumber: D.organisation },
    ]);
    expect(await rejection(registry.getImages(registryRequestId, D.unavailable, caller))).toEqual([
      'DI58',
      `The registry could not retrieve the images of document ${D.unavailable}.`,
      { documentNumber: D.unavailable },
    ]);
  });

  // Its speed is measured by the bench (scripts/bench-orders.ts), not here.
  it('renders 500 pages, and the same pages to the same bytes', async () => {
    const request = { documentNumber: '9E0160002', formCode: '309', from: 1, to: 500, totalPages: 570 };
    const bytes = await renderDocumentImages(request);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(500);
    expect(bytes.length).toBeLessThan(200_000);
    expect(Buffer.from(await renderDocumentImages(request)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses pages the document does not have', async () => {
    const base = { documentNumber: '9E0250004', formCode: '388', totalPages: 64 };
    for (const [from, to] of [
      [0, 3],
      [5, 4],
      [60, 65],
      [1.5, 3],
    ]) {
      await expect(renderDocumentImages({ ...base, from: from as number, to: to as number })).rejects.toThrow(
        RangeError,
      );
    }
  });
});

describe('postal hand-overs', () => {
  it('numbers dispatches PD + 8 digits, once per account and client key', async () => {
    const registry = sandbox();
    const { registryRequestId } = await registry.requestImages(
      { clientKey: 'ord_6:0', documents: [{ documentNumber: D.organisation, pages: null }] },
      caller,
    );
    expect(
      await registry.requestPostalDelivery(postalDelivery('ord_6', [registryRequestId]), caller),
    ).toEqual({
      dispatchId: 'PD00000001',
    });
    expect(
      await registry.requestPostalDelivery(postalDelivery('ord_6', [registryRequestId]), caller),
    ).toEqual({
      dispatchId: 'PD00000001',
    });
    expect(
      await registry.requestPostalDelivery(postalDelivery('ord_6b', [registryRequestId]), caller),
    ).toEqual({
      dispatchId: 'PD00000002',
    });
  });

  it('rejects RO51 for a request id the account does not have', async () => {
    const registry = sandbox();
    const { registryRequestId } = await registry.requestImages(
      { clientKey: 'ord_7:0', documents: [{ documentNumber: D.organisation, pages: null }] },
      caller,
    );
    expect(
      await rejection(registry.requestPostalDelivery(postalDelivery('ord_7', [registryRequestId]), other)),
    ).toEqual(['RO51', `No image request has the id ${registryRequestId}.`, { registryRequestId }]);
    expect(
      (
        await rejected(
          registry.requestPostalDelivery(postalDelivery('ord_7', [registryRequestId, 'IR99999999']), caller),
        )
      ).details,
    ).toEqual({ registryRequestId: 'IR99999999' });
    // Rejected hand-overs use up no key and no number.
    expect(
      await registry.requestPostalDelivery(postalDelivery('ord_7', [registryRequestId]), caller),
    ).toEqual({
      dispatchId: 'PD00000001',
    });
  });

  it('throws a plain error for a hand-over without requests or with an empty field', async () => {
    const registry = sandbox();
    for (const bad of [postalDelivery('k', []), { ...postalDelivery('k', ['IR00000001']), postcode: ' ' }]) {
      const error = await registry.requestPostalDelivery(bad, caller).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(RegistryRejection);
    }
  });
});

describe('offline name searches', () => {
  it('return every match of a query the online search refuses (ON52), in the same order', async () => {
    const registry = sandbox();
    const { matches } = await registry.searchCompaniesOffline(
      { name: SANDBOX.search.offline, scope: 'current' },
      caller,
    );
    expect(matches).toHaveLength(SANDBOX.offlineMatches);
    expect(SANDBOX.offlineMatches).toBe(180);
    expect(matches.slice(0, 2).map((m) => [m.matchedName, m.score])).toEqual([
      ['WIDGETS WORLD 001 PTY LTD', 75],
      ['WIDGETS WORLD 002 PTY LTD', 75],
    ]);
    expect(matches.slice(59, 61).map((m) => [m.matchedName, m.score])).toEqual([
      ['WIDGETS WORLD 060 PTY LTD', 75],
      ['ACME WIDGETS 001 PTY LTD', 45],
    ]);
    expect(matches.at(-1)?.matchedName).toBe('ACME WIDGETS 120 PTY LTD');
    expect(matches[0]?.company.number).toBe('990020016');
    expect(
      await rejection(registry.searchCompanies({ name: SANDBOX.search.offline, scope: 'current' }, caller)),
    ).toEqual([
      'ON52',
      '180 names match the search; refine it to select at most 100.',
      { counts: { returned: 0, found: 180 } },
    ]);
  });

  it('match exactly like the online search below the cap', async () => {
    const registry = sandbox();
    for (const scope of ['current', 'all'] as const) {
      const online = await registry.searchCompanies({ name: SANDBOX.search.scored, scope }, caller);
      const offline = await registry.searchCompaniesOffline({ name: SANDBOX.search.scored, scope }, caller);
      expect(offline.matches).toEqual(online.matches);
    }
  });

  it('answer no matches as an empty list and an unknown scope as ON02', async () => {
    const registry = sandbox();
    expect(
      await registry.searchCompaniesOffline({ name: SANDBOX.search.none, scope: 'all' }, caller),
    ).toEqual({
      matches: [],
    });
    expect(await registry.searchCompaniesOffline({ name: '  ', scope: 'all' }, caller)).toEqual({
      matches: [],
    });
    expect(
      await rejection(registry.searchCompaniesOffline({ name: 'widgets', scope: 'former' as never }, caller)),
    ).toEqual(['ON02', 'The search scope must be current or all.', undefined]);
  });
});

describe('the simulator’s order cases', () => {
  const data = simulatorDataset();
  const simulator = () => new DatasetRegistry(data, () => NOW, { pageImages: renderDocumentImages });

  it('size the charges extracts of SIMULATOR_ORDERS small, 30 pages and over 500', async () => {
    const sizes: [string, number, number][] = [
      [SIMULATOR_ORDERS.smallChargesExtract, 6, 2],
      [SIMULATOR_ORDERS.benchmarkChargesExtract, 30, 6],
      [SIMULATOR_ORDERS.postOnlyChargesExtract, 540, 81],
    ];
    for (const [number, pages, documents] of sizes) {
      const plan = await simulator().planChargesExtract(number, caller);
      expect([plan.scope, plan.documents.length, plan.company.chargesExtractPages]).toEqual([
        'satisfied',
        documents,
        pages,
      ]);
      expect(plan.documents.every((d) => /^8E9\d{6}$/.test(d.documentNumber) && d.imageAvailable)).toBe(true);
    }
    expect(companyOf(data, SIMULATOR_ORDERS.smallChargesExtract).name).toBe('RYAN MEDICAL PTY LTD');
  });

  it('hold the image-order documents, each in its context', async () => {
    const S = SIMULATOR_ORDERS.documents;
    const urban = companyOf(data, SIMULATOR_ORDERS.imageOrders);
    const found = await simulator().getDocuments(
      [S.organisation, S.supplementary, S.notImaged, S.unavailable, S.person, S.other],
      caller,
    );
    expect(found.slice(0, 4)).toEqual([
      organisationDocument(urban, S.organisation, '388', 64, '2023-10-27'),
      organisationDocument(urban, S.supplementary, '902', 6, '2021-08-30'),
      organisationDocument(urban, S.notImaged, '201', 8, '1979-06-02', { imaged: false }),
      organisationDocument(urban, S.unavailable, '484', 3, '1990-06-12', { imageAvailable: false }),
    ]);
    expect(found[4]).toMatchObject({ formCode: '484', imaged: true, subject: { type: 'person' } });
    expect(found[4]?.subject).toEqual({
      type: 'person',
      name: { familyName: 'SMITH', givenNames: ['JOHN', 'RICHARD'] },
    });
    expect(found[5]).toEqual({
      documentNumber: S.other,
      formCode: 'RA01',
      pageCount: 4,
      receivedAt: '2015-07-01',
      imaged: true,
      imageAvailable: true,
      subject: { type: 'other' },
    });
    // The sandbox cases are served there too.
    expect((await simulator().getDocuments([D.other], caller))[0]?.subject).toEqual({ type: 'other' });
  });

  it('answer the offline search with 180 matches too', async () => {
    const { matches } = await simulator().searchCompaniesOffline(
      { name: SIMULATOR_ORDERS.offlineSearch, scope: 'all' },
      caller,
    );
    expect(matches).toHaveLength(180);
  });
});

describe('sandbox image requests across instances (deployed, each Lambda has its own)', () => {
  const stateless = () =>
    new DatasetRegistry(sandboxDataset(), () => NOW, {
      statelessImages: true,
      pageImages: renderDocumentImages,
    });
  const pageCount = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPageCount();

  it('derives the same ids from the account and client key in every instance', async () => {
    const request = {
      clientKey: 'ord_x#0',
      documents: [{ documentNumber: SANDBOX.documents.organisation, pages: { from: 3, to: 7 } }],
    };
    const first = await stateless().requestImages(request, caller);
    const second = await stateless().requestImages(request, caller);
    expect(first.registryRequestId).toMatch(/^IR\d{8}$/);
    expect(second).toEqual(first);
    const other = await stateless().requestImages({ ...request, clientKey: 'ord_x#1' }, caller);
    expect(other.registryRequestId).not.toBe(first.registryRequestId);
  });

  it('draws pages only with the renderer it was given (the reading functions do not bundle pdf-lib)', async () => {
    const { registryRequestId } = await stateless().requestImages(
      { clientKey: 'ord_r#0', documents: [{ documentNumber: SANDBOX.documents.organisation, pages: null }] },
      caller,
    );
    const reader = new DatasetRegistry(sandboxDataset(), () => NOW, { statelessImages: true });
    await expect(reader.getImages(registryRequestId, SANDBOX.documents.organisation, caller)).rejects.toThrow(
      'getImages needs the pageImages option',
    );
  });

  it('takes a request another instance issued as complete, with the pages the caller repeats', async () => {
    const { registryRequestId } = await stateless().requestImages(
      { clientKey: 'ord_y#0', documents: [{ documentNumber: SANDBOX.documents.organisation, pages: null }] },
      caller,
    );
    const elsewhere = stateless();
    expect(await elsewhere.getImageRequest(registryRequestId, caller)).toEqual({
      registryRequestId,
      status: 'complete',
      failure: null,
      documents: [],
    });
    expect(
      await pageCount(
        await elsewhere.getImages(registryRequestId, SANDBOX.documents.organisation, caller, {
          from: 3,
          to: 7,
        }),
      ),
    ).toBe(5);
    expect(
      await pageCount(await elsewhere.getImages(registryRequestId, SANDBOX.documents.person, caller)),
    ).toBe(3);
    await expect(
      elsewhere.getImages(registryRequestId, SANDBOX.documents.unavailable, caller),
    ).rejects.toMatchObject({ registryCode: 'DI58' });
  });

  it('still refuses unknown ids in the simulator (one process keeps every request)', async () => {
    await expect(sandbox().getImageRequest('IR12345678', caller)).rejects.toMatchObject({
      registryCode: 'RO51',
    });
  });
});
