/**
 * The records capability on the registry side: the dataset part's rules (DD01, DD02, DD51, CD05,
 * CD06, CD08, CD09, CE03), the sandbox record cases and their agreement with the organisations,
 * the simulator's records at scale, and the same lookups through the simulator and the HTTP
 * adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorDataset, simulatorRecordsSource } from '../../local/generated-data.ts';
import { GENERATED_BUSINESS_NAMES, GENERATED_RESERVATIONS } from '../../local/generated-records.ts';
import { type RegistrySimulator, startRegistrySimulator } from '../../local/registry-simulator.ts';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { DatasetRegistry } from '../../shared/composition/registry/dataset-registry.ts';
import { HttpRegistry } from '../../shared/composition/registry/http-registry.ts';
import { createSandboxRegistry, sandboxDataset } from '../../shared/composition/registry/sandbox.ts';
import { isValidAbn } from '../../shared/kernel/identifiers.ts';
import { type RegistryCaller, RegistryRejection } from '../../shared/kernel/registry-port.ts';
import { SANDBOX_RECORDS, sandboxRecordsSource } from '../../shared/records/adapters/sandbox-data.ts';

const caller: RegistryCaller = { accountId: 'acct_1', requestId: 'req_1' };
const registry = createSandboxRegistry(() => new Date('2026-11-25T10:00:00Z'));
const docs = SANDBOX_RECORDS.documents;
const names = SANDBOX_RECORDS.businessNames;
const reservations = SANDBOX_RECORDS.nameReservations;
const byNumber = (number: string | null = null) => ({ number, stateNumber: null, jurisdiction: null });

async function rejection(promise: Promise<unknown>): Promise<RegistryRejection> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RegistryRejection);
    return error as RegistryRejection;
  }
  throw new Error('expected a rejection');
}
const code = async (promise: Promise<unknown>) => (await rejection(promise)).registryCode;

describe('document details', () => {
  it('answers up to ten documents in the order asked, with their subject', async () => {
    const numbers = [docs.unknownForm, docs.withSubForms, docs.person, docs.businessName, docs.notImaged];
    const found = await registry.getDocumentDetails(numbers, caller);
    expect(found.map((d) => d.documentNumber)).toStrictEqual(numbers);
    expect(found.map((d) => d.subject.type)).toStrictEqual([
      'organisation',
      'organisation',
      'person',
      'other',
      'organisation',
    ]);
    expect(found[1]?.subForms.map((s) => s.code)).toStrictEqual(['484A1', '484E', '484G']);
    expect(found[4]?.imaged).toBe(false);
  });

  it('shows the sandbox document cases as docs/sandbox.md says', async () => {
    const [report, requisition, unknownForm] = await registry.getDocumentDetails(
      [docs.financialReport, docs.underRequisition, docs.unknownForm],
      caller,
    );
    expect([report?.qualifier, report?.xbrlDocumentNumber]).toStrictEqual(['FR2014', '9X0010005']);
    expect(requisition?.underRequisition).toBe(true);
    expect(unknownForm?.formCode).toBe('9ZZ');
  });

  it('rejects DD01 for a malformed number, DD02 for a repeat and DD51 for an unknown one, naming it', async () => {
    const invalid = await rejection(registry.getDocumentDetails(['9E0010007', 'abc'], caller));
    expect([invalid.registryCode, invalid.details]).toStrictEqual(['DD01', { documentNumber: 'abc' }]);
    const repeat = await rejection(
      registry.getDocumentDetails(['9E0010007', '9E0010005', '9E0010007'], caller),
    );
    expect([repeat.registryCode, repeat.details]).toStrictEqual(['DD02', { documentNumber: '9E0010007' }]);
    const unknown = await rejection(registry.getDocumentDetails(['9E0010007', docs.unknown], caller));
    expect([unknown.registryCode, unknown.details]).toStrictEqual(['DD51', { documentNumber: docs.unknown }]);
  });

  it('takes at most ten numbers', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `9E00100${String(i + 1).padStart(2, '0')}`);
    await expect(registry.getDocumentDetails(eleven, caller)).rejects.toThrow(/at most 10/);
  });

  it('answers copies: changing an answer does not change the dataset', async () => {
    const [first] = await registry.getDocumentDetails([docs.withSubForms], caller);
    if (!first) throw new Error('no document');
    first.subForms.length = 0;
    const [second] = await registry.getDocumentDetails([docs.withSubForms], caller);
    expect(second?.subForms).toHaveLength(3);
  });
});

describe('business names', () => {
  it('finds one by number, with what its organisation and the register hold', async () => {
    const [found] = await registry.findBusinessNames(byNumber(names.stateRegistered), caller);
    expect(found).toMatchObject({
      number: SANDBOX.businessName,
      name: 'HARBOUR LIGHTS CATERING',
      status: 'REGD',
      registeredAt: '2009-03-16',
      principalPlaceOfBusiness: {
        locality: 'THE ROCKS',
        state: 'NSW',
        postcode: '2000',
        country: 'AUSTRALIA',
      },
      stateRegistrations: [{ number: 'BN00731224', jurisdiction: 'NSW' }],
    });
  });

  it('finds one by state number and jurisdiction, spaces and case ignored', async () => {
    const found = await registry.findBusinessNames(
      { number: null, stateNumber: 'bn 2027148', jurisdiction: 'QLD' },
      caller,
    );
    expect(found.map((n) => n.name)).toStrictEqual(['WATTLE CREEK BAKERY']);
    expect(
      await code(
        registry.findBusinessNames({ number: null, stateNumber: 'BN2027148', jurisdiction: 'NSW' }, caller),
      ),
    ).toBe('CD09');
  });

  it('rejects CD05 for two kinds of number (or none), CD06 without a jurisdiction, CD08 and CD09 for unknown ones', async () => {
    const find = (query: {
      number: string | null;
      stateNumber: string | null;
      jurisdiction: string | null;
    }) => code(registry.findBusinessNames(query, caller));
    expect(await find({ number: names.partnership, stateNumber: 'BN00731224', jurisdiction: 'NSW' })).toBe(
      'CD05',
    );
    expect(await find(byNumber())).toBe('CD05');
    expect(await find({ number: null, stateNumber: 'BN00731224', jurisdiction: null })).toBe('CD06');
    expect(await find(byNumber(names.unknown))).toBe('CD08');
    expect(await find(byNumber(reservations.current))).toBe('CD08');
    expect(await find({ number: null, ...SANDBOX_RECORDS.stateNumbers.unknown })).toBe('CD09');
  });
});

describe('name reservations', () => {
  it('answers the reservation with its latest 410 or 410F', async () => {
    const current = await registry.getNameReservation(reservations.current, caller);
    expect(current).toMatchObject({ status: 'REGD', expiresAt: '2027-01-15', company: null });
    expect(current.sourceDocument.formCode).toBe('410F');
    const lapsed = await registry.getNameReservation(reservations.lapsed, caller);
    expect([lapsed.status, lapsed.sourceDocument.formCode]).toStrictEqual(['CNCL', '410']);
    const renaming = await registry.getNameReservation(reservations.changeOfName, caller);
    expect([renaming.reservedFor, renaming.company?.number]).toStrictEqual([null, SANDBOX.proprietary]);
  });

  it('rejects CE03 for an unknown number and for any other organisation', async () => {
    for (const number of [reservations.unknown, SANDBOX.businessName, SANDBOX.proprietary]) {
      expect(await code(registry.getNameReservation(number, caller))).toBe('CE03');
    }
  });

  it('serves nothing without a records source', async () => {
    const bare = new DatasetRegistry(sandboxDataset());
    expect(await code(bare.findBusinessNames(byNumber(names.stateRegistered), caller))).toBe('CD08');
    expect(await code(bare.getNameReservation(reservations.current, caller))).toBe('CE03');
  });
});

describe('the record cases and the organisations agree', () => {
  it('each business name and reservation is an organisation of its type in the sandbox and the simulator', () => {
    for (const [dataset, source] of [
      [sandboxDataset(), sandboxRecordsSource()],
      [simulatorDataset(), simulatorRecordsSource()],
    ] as const) {
      for (const facts of source.businessNames) {
        expect(dataset.byNumber.get(facts.number)?.company.type, facts.number).toBe('BUSN');
        for (const holder of facts.holders) if (holder.abn) expect(isValidAbn(holder.abn)).toBe(true);
      }
      for (const facts of source.nameReservations) {
        const record = dataset.byNumber.get(facts.number);
        expect(record?.company.type, facts.number).toBe('RSVN');
        expect(record?.documents.some((d) => d.formCode === '410')).toBe(true);
        if (facts.companyNumber) expect(dataset.byNumber.has(facts.companyNumber)).toBe(true);
        expect((facts.reservedFor === null) !== (facts.companyNumber === null)).toBe(true);
      }
    }
  });

  it('the simulator holds the sandbox cases and the generated records, with unique state numbers', async () => {
    const source = simulatorRecordsSource();
    const sandbox = sandboxRecordsSource();
    expect(source.businessNames).toHaveLength(sandbox.businessNames.length + GENERATED_BUSINESS_NAMES);
    expect(source.nameReservations).toHaveLength(sandbox.nameReservations.length + GENERATED_RESERVATIONS);
    const stateNumbers = source.businessNames.flatMap((n) =>
      n.stateRegistrations.map((r) => `${r.jurisdiction}#${r.number}`),
    );
    expect(new Set(stateNumbers).size).toBe(stateNumbers.length);
    expect(stateNumbers.length).toBeGreaterThan(GENERATED_BUSINESS_NAMES / 4);
    const statuses = new Set(
      source.businessNames.map((n) => simulatorDataset().byNumber.get(n.number)?.company.status),
    );
    for (const status of ['REGD', 'CNCL', 'REXP', 'ARCH', 'RMVD']) expect(statuses).toContain(status);
    expect(source.nameReservations.some((r) => r.companyNumber !== null)).toBe(true);
  });
});

describe('through the simulator and the HTTP adapter', () => {
  let simulator: RegistrySimulator;
  let http: HttpRegistry;

  beforeAll(async () => {
    simulator = await startRegistrySimulator({ registry, credential: 'c' });
    http = new HttpRegistry({ baseUrl: simulator.url, credential: async () => 'c' });
  });
  afterAll(async () => {
    await simulator.stop();
  });

  it('answers what the registry behind it answers, in one call per lookup', async () => {
    const numbers = [docs.withSubForms, docs.person, docs.businessName];
    expect(await http.getDocumentDetails(numbers, caller)).toStrictEqual(
      await registry.getDocumentDetails(numbers, caller),
    );
    const query = { number: null, stateNumber: 'BN00731224', jurisdiction: 'NSW' };
    expect(await http.findBusinessNames(query, caller)).toStrictEqual(
      await registry.findBusinessNames(query, caller),
    );
    expect(await http.getNameReservation(reservations.changeOfName, caller)).toStrictEqual(
      await registry.getNameReservation(reservations.changeOfName, caller),
    );
    expect(simulator.calls.list().map((c) => c.operation)).toStrictEqual([
      'documents.details',
      'business-names.find',
      'name-reservation.get',
    ]);
  });

  it('passes the registry’s rejections on', async () => {
    expect(await code(http.getDocumentDetails(['9E0010007', '9E0010007'], caller))).toBe('DD02');
    expect(
      await code(http.findBusinessNames({ number: null, stateNumber: 'X1', jurisdiction: null }, caller)),
    ).toBe('CD06');
    expect(await code(http.getNameReservation(SANDBOX.proprietary, caller))).toBe('CE03');
  });
});
