import { describe, expect, it } from 'vitest';
import { DynamoMonitorStore } from '../../shared/adapters/dynamodb/monitoring.ts';
import { newMonitorId } from '../../shared/monitoring/monitors.ts';
import { call, createKey, expectError, simulator, validationError } from '../support/api.ts';
import { testConfig } from '../support/ports.ts';

/**
 * Company monitoring against the local stack: monitors (create with the baseline, list, get,
 * change, delete), their validation before any registry call, the cap and idempotent creation.
 */

interface MonitorBody {
  object: 'monitor';
  id: string;
  kind: 'company' | 'person';
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

const companyTypes = [
  'company.status_changed',
  'company.name_changed',
  'company.type_changed',
  'company.document_lodged',
  'company.external_administration',
  'company.deregistered',
  'company.reinstated',
];

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
    expect(monitor.company?.acn).toBe('990000014');
    expect(monitor.eventTypes).toEqual(companyTypes);
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
  dryRun: boolean;
  rows: number;
  totals: Record<string, number>;
  problems: {
    row: number;
    outcome: string;
    error?: { code: string; param: string | null };
    duplicateOf?: number;
  }[];
}

describe('bulk import', () => {
  it('reports exactly the three bad rows of 10,000 in a dry run and creates nothing', async () => {
    const key = await createKey('test');
    const rows = Array.from({ length: 10_000 }, (_, i) => acnOf(20_000_000 + i));
    rows[17] = '12345';
    rows[4_242] = acnOf(20_000_000 + 4_241);
    rows[9_998] = '12345678901';
    const csv = `company\n${rows.join('\n')}\n`;
    const dry = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { dryRun: true, csv },
    });
    expect(dry.status, dry.text.slice(0, 500)).toBe(200);
    expect(dry.body.totals).toEqual({
      created: 0,
      wouldCreate: 9_997,
      alreadyWatched: 0,
      invalid: 2,
      duplicate: 1,
      overCap: 0,
    });
    expect(dry.body.problems).toEqual([
      {
        row: 18,
        outcome: 'invalid',
        error: { code: 'acn_invalid', param: 'company', message: expect.any(String) },
      },
      { row: 4_243, outcome: 'duplicate', duplicateOf: 4_242 },
      {
        row: 9_999,
        outcome: 'invalid',
        error: { code: 'abn_invalid', param: 'company', message: expect.any(String) },
      },
    ]);
    const none = await call<{ totalCount: number }>('/v1/monitors?limit=1', { key: key.secret });
    expect(none.body.totalCount).toBe(0);
  }, 120_000);

  it('commits an import once: the same Idempotency-Key answers as before, and rows sent again are already watched', async () => {
    const key = await createKey('test');
    // A commit runs within the request (29 s): 2,000 rows here, on a shared test machine.
    const rows = Array.from({ length: 2_000 }, (_, i) => acnOf(30_000_000 + i));
    rows[17] = '12345';
    rows[1_242] = acnOf(30_000_000 + 1_241);
    rows[1_998] = '12345678901';
    const csv = `company\n${rows.join('\n')}\n`;
    const headers = { 'Idempotency-Key': 'import-1' };
    const commit = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { csv },
      headers,
    });
    expect(commit.status, commit.text.slice(0, 500)).toBe(200);
    expect(commit.body.totals.created).toBe(1_997);
    expect(commit.body.problems.map((p) => p.row)).toEqual([18, 1_243, 1_999]);
    const replay = await call<ImportBody>('/v1/monitors/imports', {
      key: key.secret,
      method: 'POST',
      body: { csv },
      headers,
    });
    expect(replay.status).toBe(200);
    expect([replay.body.totals, replay.body.problems]).toEqual([commit.body.totals, commit.body.problems]);
    const listed = await call<{ totalCount: number }>('/v1/monitors?limit=1', { key: key.secret });
    expect(listed.body.totalCount).toBe(1_997);

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
  }, 120_000);

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
