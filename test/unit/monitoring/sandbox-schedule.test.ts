import { describe, expect, it } from 'vitest';
import { acnWithCheckDigit } from '../../../shared/adapters/sandbox/data/company-builders.ts';
import { coded } from '../../../shared/companies/present.ts';
import { DatasetRegistry } from '../../../shared/composition/registry/dataset-registry.ts';
import { createSandboxRegistry, sandboxDataset } from '../../../shared/composition/registry/sandbox.ts';
import { dayNumber } from '../../../shared/kernel/calendar-days.ts';
import { RegistryRejection } from '../../../shared/kernel/registry-port.ts';
import { checkCompany, type DailyCheckPorts } from '../../../shared/monitoring/daily-check.ts';
import { scheduledSandboxChange } from '../../../shared/monitoring/sandbox.ts';
import { SANDBOX_SCHEDULE, scheduledDocumentNumber } from '../../../shared/monitoring/sandbox-schedule.ts';
import { readCompany } from '../../../shared/monitoring/snapshot.ts';
import type { MonitorChange, MonitorRecord, MonitorStore } from '../../../shared/monitoring/store-port.ts';
import type { EventRecord } from '../../../shared/webhooks/event-port.ts';

/**
 * The sandbox's published monitoring schedule, day by day on an injected clock: what the sandbox
 * register shows of each scheduled company on two consecutive days (one even, one odd), and the
 * daily check's one event a day whose before and after are the lookups of the two days.
 */

const EVEN = '2026-11-29';
const ODD = '2026-11-30';
const STATUS = '990011017';
const NAME = '990011026';
const DOCUMENT = '990011035';
const ADMINISTRATION = '990011044';
const caller = { accountId: 'acct_schedule', requestId: 'req_schedule' };

/** A sandbox registry on a clock the test moves. */
function sandboxAt(time: string) {
  const clock = { now: new Date(time) };
  return { clock, registry: createSandboxRegistry(() => clock.now) };
}

const rejectionOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RegistryRejection) return error.registryCode;
    throw error;
  }
  throw new Error('no rejection');
};

describe('the days of the schedule', () => {
  it('uses days since 1970-01-01: the test days are one even, one odd', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber(EVEN) % 2).toBe(0);
    expect(dayNumber(ODD) % 2).toBe(1);
    expect(scheduledDocumentNumber(EVEN)).toBe('9S0261129');
  });
});

describe('the sandbox register by day', () => {
  it('990011017 is EXAD on even days and REGD on odd days, in the lookup, the ABN lookup and extracts', async () => {
    const { clock, registry } = sandboxAt(`${EVEN}T09:00:00Z`);
    const company = await registry.getCompany(STATUS, caller);
    expect(company.status).toBe('EXAD');
    expect((await registry.getCompanyByAbn(company.abn as string, caller)).status).toBe('EXAD');
    const found = await registry.searchCompanies({ name: 'ACME WIDGETS 101', scope: 'current' }, caller);
    expect(found.matches.map((match) => [match.company.number, match.company.status])).toEqual([
      [STATUS, 'EXAD'],
    ]);
    const extract = await registry.purchaseCompanyExtract(STATUS, 'current', caller);
    expect(extract.company.status).toBe('EXAD');
    expect(extract.externalAdministration?.appointees).toEqual([
      expect.objectContaining({
        role: 'AD',
        status: 'C',
        appointedAt: EVEN,
        party: expect.objectContaining({ person: { familyName: 'KOWALSKI', givenNames: ['ANNA', 'MARIA'] } }),
      }),
    ]);

    clock.now = new Date(`${ODD}T00:00:00Z`);
    expect((await registry.getCompany(STATUS, caller)).status).toBe('REGD');
    const odd = await registry.purchaseCompanyExtract(STATUS, 'current', caller);
    expect(odd.company.status).toBe('REGD');
    expect(odd.externalAdministration).toBeNull();
    expect(odd.officeholders.map((holder) => holder.role)).toEqual(['DR']);
  });

  it('990011026 carries " (RENAMED)" on even days, its name on odd days, the day before’s name as former; searches keep its base name', async () => {
    const { clock, registry } = sandboxAt(`${EVEN}T23:59:59Z`);
    const even = await registry.getCompany(NAME, caller);
    expect(even.name).toBe('ACME WIDGETS 102 PTY LTD (RENAMED)');
    expect(even.formerNames).toEqual([{ name: 'ACME WIDGETS 102 PTY LTD', from: null, to: EVEN }]);
    // Name searches keep its base name every day (the documented ACME WIDGETS searches do not move).
    const found = await registry.searchCompanies({ name: 'ACME WIDGETS 102', scope: 'current' }, caller);
    expect(
      found.matches.map((match) => [match.company.number, match.company.name, match.matchedName]),
    ).toEqual([[NAME, 'ACME WIDGETS 102 PTY LTD', 'ACME WIDGETS 102 PTY LTD']]);
    const offline = await registry.searchCompaniesOffline({ name: 'WIDGETS', scope: 'current' }, caller);
    const acme = offline.matches.filter((match) => match.matchedName.startsWith('ACME'));
    expect(acme).toHaveLength(120);
    expect(acme.every((match) => match.score === 45 && !match.company.name.endsWith('(RENAMED)'))).toBe(true);
    expect(acme.map((match) => match.matchedName)).toEqual(
      Array.from({ length: 120 }, (_, i) => `ACME WIDGETS ${String(i + 1).padStart(3, '0')} PTY LTD`),
    );

    clock.now = new Date(`${ODD}T15:00:00Z`);
    const odd = await registry.getCompany(NAME, caller);
    expect(odd.name).toBe('ACME WIDGETS 102 PTY LTD');
    expect(odd.formerNames).toEqual([{ name: 'ACME WIDGETS 102 PTY LTD (RENAMED)', from: null, to: ODD }]);
    const again = await registry.searchCompanies({ name: 'ACME WIDGETS 102', scope: 'all' }, caller);
    expect(again.matches.map((match) => [match.company.number, match.matchedName, match.nameStatus])).toEqual(
      [[NAME, 'ACME WIDGETS 102 PTY LTD', 'current']],
    );
  });

  it('990011035 lists a form 484 a day for the last 30 days, newest first, each answered by number', async () => {
    const { clock, registry } = sandboxAt(`${EVEN}T15:00:00Z`);
    const list = await registry.listCompanyDocuments(DOCUMENT, caller);
    expect(list).toHaveLength(31);
    expect(list.slice(0, 3).map((d) => [d.documentNumber, d.formCode, d.receivedAt])).toEqual([
      ['9S0261129', '484', '2026-11-29'],
      ['9S0261128', '484', '2026-11-28'],
      ['9S0261127', '484', '2026-11-27'],
    ]);
    expect(list[29]?.receivedAt).toBe('2026-10-31');
    expect(list[30]?.formCode).toBe('201');
    const [details] = await registry.getDocumentDetails(['9S0261129'], caller);
    expect(details?.documentNumber).toBe('9S0261129');
    expect(details?.subject).toEqual({
      type: 'organisation',
      company: expect.objectContaining({ number: DOCUMENT, name: 'ACME WIDGETS 103 PTY LTD' }),
    });
    const extract = await registry.purchaseCompanyExtract(DOCUMENT, 'current', caller);
    expect(extract.documents[0]?.documentNumber).toBe('9S0261129');

    clock.now = new Date(`${ODD}T15:00:00Z`);
    const next = await registry.listCompanyDocuments(DOCUMENT, caller);
    expect(next.map((d) => d.documentNumber).slice(0, 2)).toEqual(['9S0261130', '9S0261129']);
    expect(next).toHaveLength(31);
    // The day that left the 30 is no longer lodged, and a day to come not yet.
    expect(await rejectionOf(registry.getDocumentDetails(['9S0261031'], caller))).toBe('DD51');
    expect(await rejectionOf(registry.getDocumentDetails(['9S0261201'], caller))).toBe('DD51');
  });

  it('990011044 is in external administration every day, with the appointee its event names', async () => {
    const { clock, registry } = sandboxAt(`${EVEN}T15:00:00Z`);
    for (const day of [EVEN, ODD]) {
      clock.now = new Date(`${day}T15:00:00Z`);
      expect((await registry.getCompany(ADMINISTRATION, caller)).status).toBe('EXAD');
      const extract = await registry.purchaseCompanyExtract(ADMINISTRATION, 'current', caller);
      expect(
        extract.externalAdministration?.appointees.map((a) => [a.role, a.appointedAt, a.party.person]),
      ).toEqual([['AD', day, { familyName: 'KOWALSKI', givenNames: ['ANNA', 'MARIA'] }]]);
    }
  });

  it('leaves the shared dataset and every other company as they are', async () => {
    const { registry } = sandboxAt(`${EVEN}T15:00:00Z`);
    await registry.getCompany(STATUS, caller);
    const base = sandboxDataset();
    expect(base.byNumber.get(STATUS)?.company.status).toBe('REGD');
    expect(base.byNumber.get(NAME)?.company.name).toBe('ACME WIDGETS 102 PTY LTD');
    expect(base.byNumber.get(DOCUMENT)?.documents).toHaveLength(1);
    expect(base.documents.has('9S0261129')).toBe(false);
    // The registry simulator serves the same records without the schedule (live keys).
    const simulator = new DatasetRegistry(base, () => new Date(`${EVEN}T15:00:00Z`));
    expect((await simulator.getCompany(STATUS, caller)).status).toBe('REGD');
    expect((await simulator.getCompany(NAME, caller)).name).toBe('ACME WIDGETS 102 PTY LTD');
    expect(await simulator.listCompanyDocuments(DOCUMENT, caller)).toHaveLength(1);
    const next = acnWithCheckDigit('99001105');
    expect(await registry.getCompany(next, caller)).toEqual(base.byNumber.get(next)?.company);
  });
});

describe('the scheduled change of a day', () => {
  const readingOn = async (number: string, day: string) => {
    const { registry } = sandboxAt(`${day}T15:00:00Z`);
    const company = await registry.getCompany(number, caller);
    return readCompany(registry, company, caller, new Date(`${day}T15:00:00Z`));
  };

  it('is null for a company off the schedule', async () => {
    expect(scheduledSandboxChange('990000014', await readingOn('990000014', EVEN))).toBeNull();
  });

  it.each([
    [EVEN, ODD],
    [ODD, '2026-12-01'],
  ])(
    'gives before = the lookup of the day before and after = the lookup of the day (%s, then %s)',
    async (firstDay, secondDay) => {
      for (const number of [STATUS, NAME]) {
        const yesterday = await readingOn(number, firstDay);
        const today = await readingOn(number, secondDay);
        const change = scheduledSandboxChange(number, today);
        expect(change?.type).toBe(SANDBOX_SCHEDULE[number]);
        expect(change?.key).toBe(`sandbox#schedule#${secondDay}`);
        expect(change?.knownAfter).toEqual(today.snapshot);
        const source = { kind: 'sandbox', checkedAt: `${secondDay}T15:00:00Z` };
        if (number === STATUS) {
          expect(yesterday.company.status).not.toBe(today.company.status);
          expect(change?.detail).toEqual({
            before: coded('organisation-statuses', yesterday.company.status),
            after: coded('organisation-statuses', today.company.status),
            source,
          });
        } else {
          expect(yesterday.company.name).not.toBe(today.company.name);
          expect(change?.detail).toEqual({
            before: yesterday.company.name,
            after: today.company.name,
            source,
          });
        }
      }
    },
  );

  it('names the newest document of the day’s list, and the appointee of the day', async () => {
    const reading = await readingOn(DOCUMENT, ODD);
    expect(scheduledSandboxChange(DOCUMENT, reading)?.detail).toEqual({
      document: {
        documentNumber: reading.documents[0]?.documentNumber,
        formCode: '484',
        formDescription: expect.any(String),
        receivedAt: ODD,
      },
      source: { kind: 'sandbox', checkedAt: `${ODD}T15:00:00Z` },
    });
    expect(reading.snapshot.latestDocument?.documentNumber).toBe('9S0261130');
    const administration = await readingOn(ADMINISTRATION, ODD);
    expect(scheduledSandboxChange(ADMINISTRATION, administration)?.detail).toEqual({
      appointee: { type: 'person', person: { familyName: 'KOWALSKI', givenNames: ['ANNA', 'MARIA'] } },
      date: ODD,
      source: {
        kind: 'sandbox',
        checkedAt: `${ODD}T15:00:00Z`,
        subType: coded('weekly-summary-sub-types', 'EXAD'),
      },
    });
  });
});

/** A monitor store of one process: versions, events by id, `duplicate` for an event written before. */
class OneMonitorStore {
  readonly events = new Map<string, EventRecord>();
  constructor(public monitor: MonitorRecord) {}
  async watchers() {
    return [structuredClone(this.monitor)];
  }
  async get() {
    return structuredClone(this.monitor);
  }
  async apply(read: MonitorRecord, change: MonitorChange) {
    if (read.version !== this.monitor.version) return 'stale' as const;
    if (change.events.some((event) => this.events.has(event.id))) return 'duplicate' as const;
    for (const event of change.events) this.events.set(event.id, event);
    this.monitor = {
      ...this.monitor,
      known: change.known,
      ...(change.baseline ? { baseline: change.baseline } : {}),
      sequence: this.monitor.sequence + change.events.length,
      version: this.monitor.version + 1,
    };
    return 'applied' as const;
  }
}

describe('the daily check of a scheduled sandbox company', () => {
  it('records the day’s one event, moves the known state, and finds nothing more on a re-run or the next day but its event', async () => {
    const { clock, registry } = sandboxAt(`${EVEN}T10:00:00Z`);
    const created = await registry.getCompany(STATUS, caller);
    const baseline = (await readCompany(registry, created, caller, clock.now)).snapshot;
    const store = new OneMonitorStore({
      id: 'mon_schedule',
      accountId: 'acct_schedule',
      environment: 'test',
      kind: 'company',
      subjectKey: STATUS,
      company: null,
      person: null,
      eventTypes: ['company.status_changed', 'company.name_changed', 'company.document_lodged'],
      baseline,
      known: baseline,
      sequence: 0,
      version: 1,
      createdAt: `${EVEN}T10:00:00Z`,
      updatedAt: `${EVEN}T10:00:00Z`,
    });
    const ports = {
      monitors: store as unknown as MonitorStore,
      eventLog: { get: async (id: string) => store.events.get(id), markPublished: async () => {} },
      events: { publish: async () => {} },
      now: () => clock.now,
      registryFor: () => registry,
    } satisfies DailyCheckPorts;
    const day = async (time: string) => {
      clock.now = new Date(time);
      return (await checkCompany(ports, 'test', STATUS, time.slice(0, 10))).events;
    };

    expect(await day(`${EVEN}T15:00:00Z`)).toBe(1);
    expect(await day(`${EVEN}T15:05:00Z`)).toBe(0);
    expect(store.monitor.known?.status).toBe('EXAD');
    expect(await day(`${ODD}T15:00:00Z`)).toBe(1);
    expect(await day(`${ODD}T16:00:00Z`)).toBe(0);
    const events = [...store.events.values()].map((event) => ({
      type: event.type,
      sequence: event.data.sequence,
      before: (event.data.before as { code: string }).code,
      after: (event.data.after as { code: string }).code,
      kind: (event.data.source as { kind: string }).kind,
    }));
    expect(events).toEqual([
      { type: 'company.status_changed', sequence: 1, before: 'REGD', after: 'EXAD', kind: 'sandbox' },
      { type: 'company.status_changed', sequence: 2, before: 'EXAD', after: 'REGD', kind: 'sandbox' },
    ]);
    expect(store.monitor.known).toEqual({ ...baseline, status: 'REGD', at: `${ODD}T15:00:00Z` });
    expect(store.monitor.sequence).toBe(2);
  });
});
