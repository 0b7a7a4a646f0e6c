import { describe, expect, it } from 'vitest';
import { DynamoMonitorStore } from '../../shared/monitoring/adapters/dynamodb.ts';
import { importMonitors, runImportMessage } from '../../shared/monitoring/import.ts';
import { newMonitorId } from '../../shared/monitoring/monitors.ts';
import type { MonitoringMessage } from '../../shared/monitoring/store-port.ts';
import { call, createKey, errorOf, expectError, simulator, validationError } from '../support/api.ts';
import { COMPANY_EVENT_TYPES } from '../support/monitoring.ts';
import { testConfig } from '../support/ports.ts';

/**
 * Company monitoring against the local stack: monitors (create with the baseline, list, get,
 * change, delete), their validation before any registry call, the cap and idempotent creation.
 */

interface MonitorBody {
  object: 'monitor';
  id: string;
  kind: 'company' | 'person';
  companyNumber: string | null;
  company: { acn: string | null; name: string; status: { code: string } } | null;
  person: { familyName: string; givenNames: string[]; birthDate: string } | null;
  eventTypes: string[];
  baseline: {
    status: { code: string; label: string };
    name: string;
    type: { code: string; label: string };
    latestDocument: {
      documentNumber: string;
      formCode: string;
      formDescription: string;
      receivedAt: string;
    } | null;
    at: string;
  } | null;
  sequence: number;
  livemode: boolean;
}

const create = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  call<MonitorBody>('/v1/monitors', { key, method: 'POST', body, headers });

describe('monitors', () => {
  it('creates a company monitor with its baseline from free reads, and reads it back', async () => {
    const key = await createKey('test');
    const created = await create(key.secret, { company: '990 000 014' });
    expect(created.status, created.text).toBe(201);
    const monitor = created.body;
    expect(monitor.id).toMatch(/^mon_[0-9a-f]{24}$/);
    expect(monitor.kind).toBe('company');
    expect(monitor.companyNumber).toBe('990000014');
    expect(monitor.company?.acn).toBe('990000014');
    expect(monitor.eventTypes).toEqual(COMPANY_EVENT_TYPES);
    expect(monitor.sequence).toBe(0);
    expect(monitor.livemode).toBe(false);
    expect(monitor.baseline?.status.code).toBe(monitor.company?.status.code);
    expect(monitor.baseline?.name).toBe(monitor.company?.name);
    expect(monitor.baseline?.latestDocument).not.toBeNull();
    expect((created.body as unknown as { meta: { billable: boolean; product: null } }).meta).toMatchObject({
      billable: false,
      product: null,
    });

    const read = await call<MonitorBody>(`/v1/monitors/${monitor.id}`, { key: key.secret });
    expect(read.status).toBe(200);
    expect({ ...read.body, meta: undefined }).toEqual({ ...monitor, meta: undefined });

    const listed = await call<{ data: MonitorBody[]; totalCount: number }>('/v1/monitors', {
      key: key.secret,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((m) => m.id)).toEqual([monitor.id]);
    expect(listed.body.totalCount).toBe(1);

    const byCompany = await call<{ data: MonitorBody[] }>('/v1/monitors?company=990000014', {
      key: key.secret,
    });
    expect(byCompany.body.data.map((m) => m.id)).toEqual([monitor.id]);
    const none = await call<{ data: MonitorBody[]; totalCount: number }>('/v1/monitors?company=990000041', {
      key: key.secret,
    });
    expect([none.body.data, none.body.totalCount]).toEqual([[], 0]);
  });

  it('refuses a company already watched, and names the monitor', async () => {
    const key = await createKey('test');
    const first = await create(key.secret, { company: '990000014' });
    expect(first.status).toBe(201);
    const again = await create(key.secret, { company: '990000014' });
    expectError(again, 409, {
      type: 'conflict_error',
      code: 'monitor_already_exists',
      param: 'company',
      details: { monitorId: first.body.id },
    });
  });

  it('replays a creation with the same Idempotency-Key, and refuses the key with another body', async () => {
    const key = await createKey('test');
    const headers = { 'Idempotency-Key': 'mon-1' };
    const first = await create(key.secret, { company: '990000014' }, headers);
    const again = await create(key.secret, { company: '990000014' }, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    const other = await create(key.secret, { company: '990000149' }, headers);
    expectError(other, 409, {
      type: 'conflict_error',
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
  });

  it('checks identifiers before any registry call, and answers company_not_found for an unknown one', async () => {
    const key = await createKey('live');
    const cases: [unknown, number, string, string][] = [
      [{ company: '12345' }, 400, 'acn_invalid', 'company'],
      [{ company: '123456789' }, 400, 'acn_invalid', 'company'],
      [{ company: '12345678901' }, 400, 'abn_invalid', 'company'],
    ];
    for (const [body, status, code, param] of cases) {
      expectError(await create(key.secret, body), status, { type: 'invalid_request_error', code, param });
    }
    const calls = (await simulator.calls()).calls.filter((c) => c.accountId === key.accountId);
    expect(calls).toEqual([]);
    const unknown = await create(key.secret, { company: '000000019' });
    expectError(unknown, 404, {
      type: 'not_found_error',
      code: 'company_not_found',
      param: 'company',
      registryCode: 'CE03',
    });
  });

  it('refuses bad bodies with validation_error on the field', async () => {
    const key = await createKey('test');
    expectError(await create(key.secret, {}), 422, validationError('company'));
    expectError(
      await create(key.secret, {
        company: '990000014',
        person: { familyName: 'A', givenNames: ['B'], birthDate: '1970-01-01' },
      }),
      422,
      validationError('company'),
    );
    expectError(await create(key.secret, { company: '990000014', eventTypes: ['order.ready'] }), 422, {
      ...validationError('eventTypes[0]'),
    });
    expectError(
      await create(key.secret, { company: '990000014', eventTypes: ['person.disqualified'] }),
      422,
      validationError('eventTypes[0]'),
    );
    expectError(
      await create(key.secret, {
        company: '990000014',
        eventTypes: ['company.name_changed', 'company.name_changed'],
      }),
      422,
      validationError('eventTypes[1]'),
    );
    expectError(
      await create(key.secret, {
        person: { familyName: 'SMITH', givenNames: ['J0HN'], birthDate: '1970-01-01' },
      }),
      400,
      { type: 'invalid_request_error', code: 'name_invalid_characters', param: 'person.givenNames[0]' },
    );
    expectError(
      await create(key.secret, {
        person: { familyName: 'SMITH', givenNames: ['JOHN'], birthDate: '1970-02-30' },
      }),
      422,
      validationError('person.birthDate'),
    );
    expectError(await create(key.secret, { company: '990000014', extra: 1 }), 422, validationError('extra'));
  });

  it('watches a person, with the person types by default', async () => {
    const key = await createKey('test');
    const person = { familyName: "O'Brien", givenNames: ['Mary', 'Ann'], birthDate: '1971-03-04' };
    const created = await create(key.secret, { person });
    expect(created.status, created.text).toBe(201);
    expect(created.body.kind).toBe('person');
    expect(created.body.companyNumber).toBeNull();
    expect(created.body.person).toEqual(person);
    expect(created.body.eventTypes).toEqual(['person.disqualified', 'person.licence_granted']);
    expect(created.body.baseline).toBeNull();
    const again = await create(key.secret, {
      person: { familyName: 'o’brien', givenNames: ['MARY', 'ANN'], birthDate: '1971-03-04' },
    });
    expect(again.status).toBe(409);
  });

  it('changes the event types, deletes, and keeps other owners out', async () => {
    const key = await createKey('test');
    const other = await createKey('test');
    const live = await createKey('live', { accountId: key.accountId });
    const { body: monitor } = await create(key.secret, { company: '990000014' });
    const path = `/v1/monitors/${monitor.id}`;

    const changed = await call<MonitorBody>(path, {
      key: key.secret,
      method: 'PATCH',
      body: { eventTypes: ['company.status_changed'] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.eventTypes).toEqual(['company.status_changed']);
    expectError(
      await call(path, { key: key.secret, method: 'PATCH', body: { eventTypes: [] } }),
      422,
      validationError('eventTypes'),
    );

    expectError(await call(path, { key: other.secret }), 403, {
      type: 'permission_error',
      code: 'monitor_owner_mismatch',
      param: 'monitorId',
    });
    expectError(await call(path, { key: live.secret, method: 'DELETE' }), 403, {
      type: 'permission_error',
      code: 'monitor_owner_mismatch',
      param: 'monitorId',
    });
    expectError(await call('/v1/monitors/mon_nope', { key: key.secret }), 404, {
      type: 'not_found_error',
      code: 'monitor_not_found',
      param: 'monitorId',
    });

    const deleted = await call(path, { key: key.secret, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ object: 'monitor', id: monitor.id, deleted: true });
    expectError(await call(path, { key: key.secret, method: 'DELETE' }), 404, {
      type: 'not_found_error',
      code: 'monitor_not_found',
      param: 'monitorId',
    });
    // Watching it again is allowed once the monitor is gone.
    expect((await create(key.secret, { company: '990000014' })).status).toBe(201);
  });

  it('holds the cap under concurrent creates, and one monitor per company under a race', async () => {
    const store = new DynamoMonitorStore(testConfig.mainTable);
    const owner = { accountId: `acct_cap${Date.now()}`, environment: 'test' as const };
    const monitorOf = (number: string) => ({
      id: newMonitorId(),
      ...owner,
      kind: 'company' as const,
      subjectKey: number,
      company: null,
      person: null,
      eventTypes: [],
      baseline: null,
      known: null,
      sequence: 0,
      version: 1,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    });
    const numbers = Array.from({ length: 8 }, (_, i) => `99000${String(i).padStart(4, '0')}`);
    const outcomes = await Promise.all(numbers.map((number) => store.create(monitorOf(number), 3)));
    expect(outcomes.filter((o) => o.created)).toHaveLength(3);
    expect(outcomes.filter((o) => !o.created && o.reason === 'limit')).toHaveLength(5);
    expect(await store.count(owner)).toBe(3);

    const same = await Promise.all([1, 2, 3, 4].map(() => store.create(monitorOf('990009999'), 100)));
    expect(same.filter((o) => o.created)).toHaveLength(1);
    expect(same.filter((o) => !o.created && o.reason === 'exists')).toHaveLength(3);
    expect(await store.count(owner)).toBe(4);
  });
});

/** A valid ACN from eight digits (the check digit of spec 4.8). */
const acnOf = (eight: number) => {
  const digits = String(eight).padStart(8, '0').split('').map(Number);
  const sum = digits.reduce((total, digit, i) => total + digit * (8 - i), 0);
  const check = (10 - (sum % 10)) % 10;
  return `${digits.join('')}${check}`;
};

interface ImportBody {
  object: 'monitorImport';
  id: string | null;
  status: 'processing' | 'succeeded';
  dryRun: boolean;
  rows: number;
  processedRows: number;
  totals: Record<string, number>;
  problems: {
    row: number;
    outcome: string;
    error?: { code: string; param: string | null };
    duplicateOf?: number;
    monitorId?: string;
  }[];
  createdAt: string | null;
  completedAt: string | null;
}

/** Reads a committed import until it has succeeded (the local worker runs its chunks). */
async function importDone(key: string, id: string) {
  for (let i = 0; i < 600; i++) {
    const read = await call<ImportBody>(`/v1/monitors/imports/${id}`, { key });
    expect(read.status, read.text.slice(0, 300)).toBe(200);
    if (read.body.status === 'succeeded') return read.body;
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`import ${id} did not finish`);
}

/** 10,000 valid, distinct ACNs with three bad rows: 18 (acn_invalid), 4,243 (row 4,242 again), 9,999 (abn_invalid). */
function tenThousandRows(base: number, length = 10_000) {
  const rows = Array.from({ length }, (_, i) => acnOf(base + i));
  rows[17] = '12345';
  rows[length - 5_758] = acnOf(base + length - 5_759);
  rows[length - 2] = '12345678901';
  return rows;
}

const threeBad = (length: number) => [
  {
    row: 18,
    outcome: 'invalid',
    error: { code: 'acn_invalid', param: 'company', message: expect.any(String) },
  },
  { row: length - 5_757, outcome: 'duplicate', duplicateOf: length - 5_758 },
  {
    row: length - 1,
    outcome: 'invalid',
    error: { code: 'abn_invalid', param: 'company', message: expect.any(String) },
  },
];

describe('bulk import', () => {
  it('reports exactly the three bad rows of 10,000 in a dry run, then creates the 9,997 others in the background', async () => {
    const key = await createKey('test');
    const rows = tenThousandRows(20_000_000);
    const csv = `company\n${rows.join('\n')}\n`;
    const dry = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { dryRun: true, csv },
    });
    expect(dry.status, dry.text.slice(0, 500)).toBe(200);
    expect(dry.body).toMatchObject({ id: null, status: 'succeeded', dryRun: true, rows: 10_000 });
    expect(dry.body.totals).toEqual({
      created: 0,
      wouldCreate: 9_997,
      alreadyWatched: 0,
      invalid: 2,
      duplicate: 1,
      overCap: 0,
    });
    expect(dry.body.problems).toEqual(threeBad(10_000));
    const none = await call<{ totalCount: number }>('/v1/monitors?limit=1', { key: key.secret });
    expect(none.body.totalCount).toBe(0);

    // The commit: 202 at once, processing; the same Idempotency-Key answers the same import.
    const headers = { 'Idempotency-Key': 'import-10k' };
    const commit = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { csv },
      headers,
    });
    expect(commit.status, commit.text.slice(0, 500)).toBe(202);
    expect(commit.body).toMatchObject({
      object: 'monitorImport',
      id: expect.stringMatching(/^mimp_[0-9a-f]{24}$/),
      status: 'processing',
      dryRun: false,
      rows: 10_000,
      completedAt: null,
    });
    const replay = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { csv },
      headers,
    });
    expect([replay.status, replay.body.id]).toEqual([202, commit.body.id]);

    const done = await importDone(key.secret, commit.body.id as string);
    expect(done).toMatchObject({ status: 'succeeded', rows: 10_000, processedRows: 10_000 });
    expect(done.completedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(done.totals).toEqual({
      created: 9_997,
      wouldCreate: 0,
      alreadyWatched: 0,
      invalid: 2,
      duplicate: 1,
      overCap: 0,
    });
    expect(done.problems).toEqual(threeBad(10_000));
    const listed = await call<{ totalCount: number }>('/v1/monitors?limit=1', { key: key.secret });
    expect(listed.body.totalCount).toBe(9_997);
    const owner = { accountId: key.accountId, environment: 'test' as const };
    expect(await new DynamoMonitorStore(testConfig.mainTable).count(owner)).toBe(9_997);
  }, 600_000);

  it('commits up to 1,000 rows within the request, once: the same Idempotency-Key answers as before, and rows sent again are already watched', async () => {
    const key = await createKey('test');
    const rows = Array.from({ length: 1_000 }, (_, i) => acnOf(30_000_000 + i));
    rows[17] = '12345';
    rows[242] = acnOf(30_000_000 + 241);
    rows[998] = '12345678901';
    const csv = `company\n${rows.join('\n')}\n`;
    const headers = { 'Idempotency-Key': 'import-1' };
    const commit = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { csv },
      headers,
    });
    expect(commit.status, commit.text.slice(0, 500)).toBe(200);
    expect(commit.body).toMatchObject({ status: 'succeeded', rows: 1_000, processedRows: 1_000 });
    expect(commit.body.totals.created).toBe(997);
    expect(commit.body.problems.map((p) => p.row)).toEqual([18, 243, 999]);
    const replay = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { csv },
      headers,
    });
    expect(replay.status).toBe(200);
    expect([replay.body.totals, replay.body.problems]).toEqual([commit.body.totals, commit.body.problems]);
    const read = await call<ImportBody>(`/v1/monitors/imports/${commit.body.id}`, { key: key.secret });
    expect(read.body).toEqual({ ...commit.body, meta: expect.any(Object) });
    const listed = await call<{ totalCount: number; data: MonitorBody[] }>('/v1/monitors?limit=1', {
      key: key.secret,
    });
    expect(listed.body.totalCount).toBe(997);
    // An imported monitor names its company by number until the first daily check reads it.
    expect(listed.body.data[0]?.company).toBeNull();
    expect(rows).toContain(listed.body.data[0]?.companyNumber);

    // Sent again without the key: nothing twice, every row already watched.
    const again = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: {
        dryRun: true,
        rows: [{ company: rows[0] }, { person: { familyName: 'A', givenNames: ['B'], birthDate: 'x' } }],
      },
    });
    expect(again.body.problems).toEqual([
      { row: 1, outcome: 'already_watched', monitorId: expect.stringMatching(/^mon_/) },
      {
        row: 2,
        outcome: 'invalid',
        error: { code: 'validation_error', param: 'person.birthDate', message: expect.any(String) },
      },
    ]);
    const committedAgain = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { csv },
    });
    expect(committedAgain.body.id).not.toBe(commit.body.id);
    expect(committedAgain.body.totals).toMatchObject({
      created: 0,
      alreadyWatched: 997,
      invalid: 2,
      duplicate: 1,
    });
    expect(
      await new DynamoMonitorStore(testConfig.mainTable).count({
        accountId: key.accountId,
        environment: 'test',
      }),
    ).toBe(997);
  }, 300_000);

  it('creates no duplicate and loses no row when a chunk is killed half-way, run again and run twice at once', async () => {
    const key = await createKey('test');
    const owner = { accountId: key.accountId, environment: 'test' as const };
    const store = new DynamoMonitorStore(testConfig.mainTable);
    const rows = Array.from({ length: 1_500 }, (_, i) => acnOf(40_000_000 + i));
    rows[700] = '12345';
    const sent: MonitoringMessage[] = [];
    // Accepted without a worker: the messages are held here and run by hand.
    const { status, report } = await importMonitors({
      monitors: store,
      owner,
      now: new Date(),
      body: { rows: rows.map((company) => ({ company })) },
      queue: { send: async (messages) => void sent.push(...messages) },
    });
    expect([status, report.status, report.processedRows]).toEqual([202, 'processing', 0]);
    expect(sent).toEqual([0, 1, 2].map((chunk) => ({ job: 'import', importId: report.id, chunk })));
    const message = (chunk: number) => ({ importId: report.id as string, chunk });

    // Chunk 1 killed after 120 of its rows were claimed; then run again, twice at once.
    await expect(
      runImportMessage(store, message(1), '2026-01-01T00:00:00Z', { crashAfter: 120 }),
    ).rejects.toThrow(/stopped after 120 rows/);
    const half = await call<ImportBody>(`/v1/monitors/imports/${report.id}`, { key: key.secret });
    expect([half.body.status, half.body.processedRows, half.body.totals.created]).toEqual([
      'processing',
      0,
      0,
    ]);
    const [first, second] = await Promise.all([
      runImportMessage(store, message(1), '2026-01-01T00:00:00Z'),
      runImportMessage(store, message(1), '2026-01-01T00:00:00Z'),
    ]);
    expect(second).toEqual(first);
    expect([first.created, first.problems]).toEqual([
      499,
      [
        {
          row: 701,
          outcome: 'invalid',
          error: { code: 'acn_invalid', param: 'company', message: expect.any(String) },
        },
      ],
    ]);
    for (const chunk of [0, 2, 1, 0]) await runImportMessage(store, message(chunk), '2026-01-01T00:00:00Z');

    const done = await call<ImportBody>(`/v1/monitors/imports/${report.id}`, { key: key.secret });
    expect(done.body).toMatchObject({
      status: 'succeeded',
      processedRows: 1_500,
      completedAt: '2026-01-01T00:00:00Z',
    });
    expect(done.body.totals).toEqual({
      created: 1_499,
      wouldCreate: 0,
      alreadyWatched: 0,
      invalid: 1,
      duplicate: 0,
      overCap: 0,
    });
    // Exactly one monitor per row: the count, the list and each company's monitor agree.
    expect(await store.count(owner)).toBe(1_499);
    const listed = await call<{ totalCount: number }>('/v1/monitors?limit=1', { key: key.secret });
    expect(listed.body.totalCount).toBe(1_499);
    const found = await store.findSubjects(
      owner,
      rows.filter((_, i) => i !== 700),
    );
    expect(found.size).toBe(1_499);
    const ids = new Set(found.values());
    expect(ids.size).toBe(1_499);
    for (const id of [...ids].slice(0, 50)) expect((await store.get(id))?.subjectKey).toMatch(/^\d{9}$/);
  }, 300_000);

  it("refuses an unknown import and another owner's with their codes", async () => {
    const key = await createKey('test');
    const other = await createKey('test');
    const live = await createKey('live');
    const commit = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { rows: [{ company: acnOf(50_000_001) }] },
    });
    expect([commit.status, commit.body.totals.created]).toEqual([200, 1]);
    const get = (secret: string, id: string) => call(`/v1/monitors/imports/${id}`, { key: secret });
    const notFound = { type: 'not_found_error', code: 'monitor_import_not_found', param: 'importId' };
    expectError(await get(key.secret, 'mimp_000000000000000000000000'), 404, notFound);
    expectError(await get(key.secret, 'nonsense'), 404, notFound);
    const mismatch = { type: 'permission_error', code: 'monitor_import_owner_mismatch', param: 'importId' };
    expectError(await get(other.secret, commit.body.id as string), 403, mismatch);
    expectError(await get(live.secret, commit.body.id as string), 403, mismatch);
  });

  it('refuses bad import bodies with the envelope', async () => {
    const key = await createKey('test');
    const post = (body: unknown) => call('/v1/monitors/imports', { key: key.secret, method: 'POST', body });
    expectError(await post({}), 422, validationError('rows'));
    expectError(await post({ rows: [], csv: 'company' }), 422, validationError('rows'));
    expectError(await post({ rows: [] }), 422, validationError('rows'));
    expectError(await post({ csv: 'acn\n990000014' }), 422, validationError('csv'));
    expectError(await post({ csv: 'company\n"990000014' }), 422, validationError('csv'));
    expectError(await post({ dryRun: 'yes', rows: [] }), 422, validationError('dryRun'));
    expectError(await post({ rows: 'x' }), 422, validationError('rows'));
  });
});

describe('a keyed answer of several MB', () => {
  it('a dry run of 30,000 rows sent twice with one Idempotency-Key answers the same bytes twice, run once', async () => {
    const key = await createKey('test');
    // One company that would be created, then 30,000 invalid rows: an answer of about 5 MB.
    const csv = `company\n990000014\n${'1\n'.repeat(30_000)}`;
    const headers = { 'Idempotency-Key': 'dry-run-5mb' };
    const post = () =>
      call<ImportBody>('/v1/monitors/imports', {
        key: key.secret,
        method: 'POST',
        body: { dryRun: true, csv },
        headers,
      });
    const first = await post();
    expect(first.status, first.text.slice(0, 500)).toBe(200);
    expect(first.text.length).toBeGreaterThan(4_000_000);
    expect(first.body.totals).toMatchObject({ wouldCreate: 1, invalid: 30_000 });
    expect(first.body.problems).toHaveLength(30_000);

    // Watched since: a fresh run would now say already_watched; the replay answers as the first did.
    expect((await create(key.secret, { company: '990000014' })).status).toBe(201);
    const again = await post();
    expect(again.status, again.text.slice(0, 500)).toBe(200);
    const requestId = (response: { headers: Headers }) => response.headers.get('x-request-id') as string;
    // The same bytes, but for the request's own id in meta.
    expect(again.text).toBe(first.text.replace(requestId(first), requestId(again)));
    expect(again.body.totals.wouldCreate).toBe(1);
  }, 300_000);
});

describe('an exported monitor list imports back', () => {
  it('imports the CSV export into another account as it is: the same companies, people and event types', async () => {
    const from = await createKey('test');
    const to = await createKey('test');
    const bodies = [
      { company: '990000014' },
      { company: '990000041', eventTypes: ['company.status_changed', 'company.name_changed'] },
      { person: { familyName: '-Dash', givenNames: ['-Ann', 'Marie'], birthDate: '1970-01-01' } },
      { person: { familyName: "'-Odd", givenNames: ["'Quoted"], birthDate: '1971-02-03' } },
      {
        person: { familyName: "O'Brien Smith", givenNames: ['Mary-Ann'], birthDate: '1972-03-04' },
        eventTypes: ['person.disqualified'],
      },
    ];
    for (const body of bodies) expect((await create(from.secret, body)).status).toBe(201);
    const exported = await call('/v1/monitors?limit=100', {
      key: from.secret,
      headers: { Accept: 'text/csv' },
    });
    expect(exported.status).toBe(200);
    // The formula-safety prefix is in the export: the import must take it off again.
    expect(exported.text).toContain(",'-Dash,'-Ann Marie,");
    expect(exported.text).toContain(",''-Odd,'Quoted,");

    const imported = await call<ImportBody>('/v1/monitors/imports', {
      key: to.secret,
      method: 'POST',
      body: { csv: exported.text },
    });
    expect(imported.status, imported.text).toBe(200);
    expect([imported.body.totals.created, imported.body.problems]).toEqual([bodies.length, []]);

    const subjects = async (secret: string) => {
      const listed = await call<{ data: MonitorBody[] }>('/v1/monitors?limit=100', { key: secret });
      return listed.body.data
        .map(({ kind, companyNumber, person, eventTypes }) => ({ kind, companyNumber, person, eventTypes }))
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    };
    const before = await subjects(from.secret);
    expect(before).toHaveLength(bodies.length);
    expect(await subjects(to.secret)).toStrictEqual(before);
    // Exported again, the import's five columns are the same cells.
    const importColumns = (csv: string) =>
      csv
        .split('\r\n')
        .map((line) => line.split(',').slice(0, 5).join(','))
        .sort();
    const again = await call('/v1/monitors?limit=100', { key: to.secret, headers: { Accept: 'text/csv' } });
    expect(importColumns(again.text)).toStrictEqual(importColumns(exported.text));
  });
});

describe('one birth-date rule for creation and import', () => {
  it('refuses an impossible birth date in an import row (JSON or CSV) exactly as POST /v1/monitors does', async () => {
    const key = await createKey('test');
    const person = (birthDate: string) => ({ familyName: 'Smith', givenNames: ['Jo'], birthDate });
    const impossible = ['1990-02-30', '1990-13-01'];
    const refusals: ReturnType<typeof errorOf>[] = [];
    for (const birthDate of impossible) {
      const refused = await create(key.secret, { person: person(birthDate) });
      expectError(refused, 422, validationError('person.birthDate'));
      refusals.push(errorOf(refused));
    }
    const expectedProblems = (first: number) =>
      refusals.map((refusal, i) => ({
        row: first + i,
        outcome: 'invalid',
        error: { code: refusal.code, param: refusal.param, message: refusal.message },
      }));
    const post = (body: unknown) =>
      call<ImportBody>('/v1/monitors/imports', { key: key.secret, method: 'POST', body });

    const json = await post({
      rows: [
        { person: person('1990-02-28') },
        ...impossible.map((birthDate) => ({ person: person(birthDate) })),
      ],
    });
    expect(json.status, json.text).toBe(200);
    expect(json.body.totals).toMatchObject({ created: 1, invalid: 2 });
    expect(json.body.problems).toStrictEqual(expectedProblems(2));

    const csv = await post({
      dryRun: true,
      csv: `familyName,givenNames,birthDate\n${impossible.map((date) => `Jones,Al,${date}`).join('\n')}\nJones,Al,2000-02-29\n`,
    });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.body.totals).toMatchObject({ wouldCreate: 1, invalid: 2 });
    expect(csv.body.problems).toStrictEqual(expectedProblems(1));
    const listed = await call<{ data: MonitorBody[] }>('/v1/monitors', { key: key.secret });
    expect(listed.body.data.map((m) => m.person?.birthDate)).toEqual(['1990-02-28']);
  });
});

describe('wrong input on the reads', () => {
  it('refuses a bad company filter of the feed and of the list with the identifier codes, before any read', async () => {
    const key = await createKey('test');
    const invalid = (code: string, param: string) => ({ type: 'invalid_request_error', code, param });
    for (const path of ['/v1/monitors/events', '/v1/monitors']) {
      const get = (query: string) => call(`${path}?${query}`, { key: key.secret });
      expectError(await get('company=12345'), 400, invalid('acn_invalid', 'company'));
      expectError(await get('company=123456789'), 400, invalid('acn_invalid', 'company'));
      expectError(await get('company=51824753557'), 400, invalid('abn_invalid', 'company'));
      expectError(await get('company=51824753556'), 400, invalid('abn_not_acn_based', 'company'));
      expectError(await get(`company=${'9'.repeat(21)}`), 400, invalid('acn_invalid', 'company'));
      expectError(await get('company=990000014&limit=0'), 422, validationError('limit'));
      expectError(await get('companies=990000014'), 422, validationError('companies'));
    }
    // A valid ABN that embeds a watched company's ACN filters by that company.
    const feed = await call<{ data: unknown[]; nextPosition: string | null }>(
      '/v1/monitors/events?company=990%20000%20014',
      { key: key.secret },
    );
    expect([feed.status, feed.body.data, feed.body.nextPosition]).toEqual([200, [], null]);
  });
});

describe('the monitor list as CSV', () => {
  it('answers text/csv when Accept asks for it: the same pages, filter and errors as JSON, formula-safe cells', async () => {
    const key = await createKey('test');
    for (const body of [
      { company: '990000014' },
      { company: '990000041', eventTypes: ['company.status_changed', 'company.name_changed'] },
      { person: { familyName: '-Dash', givenNames: ['Ann', 'Marie'], birthDate: '1970-01-01' } },
    ]) {
      expect((await create(key.secret, body)).status).toBe(201);
    }
    const csv = (query: string, accept = 'text/csv') =>
      call(`/v1/monitors?${query}`, { key: key.secret, headers: { Accept: accept } });
    const first = await csv('limit=2');
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(first.headers.get('x-total-count')).toBe('3');
    const lines = first.text.split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      'company,familyName,givenNames,birthDate,eventTypes,id,kind,companyName,companyStatus,sequence,livemode,createdAt,updatedAt',
    );
    expect(lines[3]).toBe('');
    const cursor = first.headers.get('x-next-cursor') as string;
    expect(cursor).toBeTruthy();
    const second = await csv(`limit=2&cursor=${encodeURIComponent(cursor)}`);
    const rest = second.text.split('\r\n');
    expect([second.status, rest.length, rest[0], second.headers.get('x-next-cursor')]).toEqual([
      200,
      3,
      lines[0],
      null,
    ]);
    // The three monitors over the two pages (created in the same second: in id order among them).
    const rows = [lines[1], lines[2], rest[1]].sort() as string[];
    expect(rows[0]).toMatch(
      /^,'-Dash,Ann Marie,1970-01-01,person\.disqualified\|person\.licence_granted,mon_[0-9a-f]{24},person,,,0,false,/,
    );
    expect(rows[1]).toMatch(
      /^990000014,,,,company\.status_changed\|.*,mon_[0-9a-f]{24},company,[^,]+,REGD,0,false,/,
    );
    expect(rows[2]).toMatch(
      /^990000041,,,,company\.status_changed\|company\.name_changed,mon_[0-9a-f]{24},company,[^,]+,REGD,0,false,/,
    );
    // The JSON list's page is the same.
    const json = await call<{ data: MonitorBody[]; nextCursor: string }>('/v1/monitors?limit=2', {
      key: key.secret,
      headers: { Accept: 'application/json' },
    });
    expect(json.body.data.map((m) => m.id)).toEqual(lines.slice(1, 3).map((line) => line.split(',')[5]));
    // JSON when it is preferred or the two tie; CSV when text/csv outranks it.
    expect((await csv('limit=1', 'text/csv, application/json')).headers.get('content-type')).toMatch(
      /^application\/json/,
    );
    expect((await csv('limit=1', 'application/json;q=0.5, text/csv')).headers.get('content-type')).toMatch(
      /^text\/csv/,
    );
    const filtered = await csv('company=990%20000%20041');
    expect(filtered.text.split('\r\n')).toHaveLength(3);
    expect(filtered.headers.get('x-total-count')).toBe('1');
    // Wrong input: the JSON envelope, whatever the Accept.
    expectError(await csv('limit=0'), 422, validationError('limit'));
    expectError(await csv('company=12345'), 400, {
      type: 'invalid_request_error',
      code: 'acn_invalid',
      param: 'company',
    });
    expectError(await csv('cursor=nonsense'), 400, validationError('cursor'));
  });
});
