import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyExtract,
  call,
  clock,
  createKey,
  expectError,
  simulator,
  type TestKey,
  validationError,
} from '../support/api.ts';
import { COMPANY_EVENT_TYPES } from '../support/monitoring.ts';
import { type Receiver, startReceiver, webhooksIdle } from '../support/webhooks.ts';

/**
 * Company monitoring's jobs end to end against the local stack and the registry simulator (live
 * keys): a company moved to EXAD gives one company.status_changed at the daily check and one
 * company.external_administration from the weekly summary, to each watching account, delivered
 * once to a webhook verified with Stripe's library and readable from the feed with consecutive
 * sequence numbers, even when both jobs are run again and killed half-way; a watched person in a
 * disqualified-directors week gives one person.disqualified.
 */

const stripe = new Stripe('sk_test_unused');
// Generated companies of the simulator that no other test reads.
const WATCHED = '603037190';
const KILLED_A = '910163478';
const KILLED_B = '391206009';

interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  livemode: boolean;
  data: {
    object: 'monitorEvent';
    company: { acn: string | null; name: string } | null;
    person: { familyName: string; givenNames: string[]; birthDate: string } | null;
    before?: unknown;
    after?: unknown;
    document?: { documentNumber: string; formCode: string; formDescription: string };
    source: { kind: string; summaryType?: string; subType?: { code: string }; weekStarting?: string };
    monitorIds: string[];
    sequence: number;
  };
}

interface RunOutcome {
  companies: number;
  items: number;
  events: number;
  stopped: string | null;
}

const runJob = async (job: 'daily' | 'weekly', crashAfter?: number) => {
  const response = await call<RunOutcome>('/__local/monitoring/run', {
    method: 'POST',
    body: { job, ...(crashAfter === undefined ? {} : { crashAfter }) },
  });
  expect(response.status).toBe(200);
  return response.body;
};

const watch = async (key: TestKey, body: unknown) => {
  const created = await call<{ id: string }>('/v1/monitors', { key: key.secret, method: 'POST', body });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
};

const subscribe = async (key: TestKey, receiver: Receiver) => {
  const endpoint = await call<{ secret: string }>('/v1/webhook-endpoints', {
    key: key.secret,
    method: 'POST',
    body: { url: receiver.url, enabledEvents: ['*'] },
  });
  expect(endpoint.status).toBe(201);
  return endpoint.body.secret;
};

/** Every event of the feed, page by page from its start, once the events have settled. */
async function readFeed(key: TestKey, query = '') {
  const events: EventBody[] = [];
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const params = new URLSearchParams(query);
    params.set('limit', '2');
    if (after) params.set('after', after);
    const response = await call<{ data: EventBody[]; hasMore: boolean; nextPosition: string | null }>(
      `/v1/monitors/events?${params}`,
      { key: key.secret },
    );
    expect(response.status, response.text).toBe(200);
    events.push(...response.body.data);
    after = response.body.nextPosition;
    if (!response.body.hasMore) break;
  }
  return { events, after };
}

const weekAgo = () => new Date(Date.now() - 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('monitoring jobs', () => {
  let a: TestKey;
  let b: TestKey;
  let hookA: Receiver;
  let hookB: Receiver;
  let secretA: string;
  let secretB: string;
  let monitorA: string;
  let monitorB: string;
  let personMonitor: string;
  let sandboxKey: TestKey;
  const person = {
    familyName: 'Featherstonehaugh',
    givenNames: ['Imogen', 'Clare'],
    birthDate: '1968-11-02',
  };

  beforeAll(async () => {
    a = await createKey('live');
    b = await createKey('live');
    hookA = await startReceiver();
    hookB = await startReceiver();
    secretA = await subscribe(a, hookA);
    secretB = await subscribe(b, hookB);
    monitorA = await watch(a, { company: WATCHED });
    monitorB = await watch(b, { company: WATCHED });
    personMonitor = await watch(a, { person });
    // A person of the same names born a day later (a near miss): never matched.
    await watch(b, { person: { ...person, birthDate: '1968-11-03' } });
    // A test key's monitor of a sandbox company that changes on no schedule: its days are never priced.
    sandboxKey = await createKey('test');
    await watch(sandboxKey, { company: '990000149' });
  });

  afterAll(async () => {
    await clock.reset();
    await hookA?.close();
    await hookB?.close();
  });

  it('gives one company.status_changed per watching account at the daily check, signed and delivered once', async () => {
    await simulator.change({ number: WATCHED, status: 'EXAD', at: weekAgo() });
    await simulator.change({
      person: {
        ...person,
        familyName: 'FEATHERSTONEHAUGH',
        givenNames: ['IMOGEN', 'CLARE'],
        event: 'disqualified',
      },
      at: weekAgo(),
    });
    await simulator.change({
      person: { ...person, familyName: 'FEATHERSTONEHAUGH', givenNames: ['IMOGEN'], event: 'disqualified' },
      at: weekAgo(),
    });

    const first = await runJob('daily');
    expect(first.stopped).toBeNull();
    const again = await runJob('daily');
    expect(again.events).toBe(0);
    await webhooksIdle();

    for (const [hook, secret, monitor] of [
      [hookA, secretA, monitorA],
      [hookB, secretB, monitorB],
    ] as const) {
      const [delivery] = await hook.waitFor(1);
      const event = stripe.webhooks.constructEvent(
        delivery?.rawBody as string,
        delivery?.headers['svc-signature'] as string,
        secret,
      ) as unknown as EventBody;
      expect(event.type).toBe('company.status_changed');
      expect(event.data).toMatchObject({
        object: 'monitorEvent',
        company: { acn: WATCHED },
        person: null,
        before: { code: 'REGD' },
        after: { code: 'EXAD' },
        source: { kind: 'daily_check' },
        monitorIds: [monitor],
        sequence: 1,
      });
      expect(hook.received).toHaveLength(1);
    }
  });

  it('gives one company.external_administration and one person.disqualified from the weekly summaries, run twice and killed half-way', async () => {
    const killed = await runJob('weekly', 1);
    expect(killed.stopped).toMatch(/weekly job stopped after 1 events/);
    expect(killed.events).toBe(0);
    const full = await runJob('weekly');
    expect(full.stopped).toBeNull();
    const again = await runJob('weekly');
    expect([again.stopped, again.events]).toEqual([null, 0]);
    await webhooksIdle();

    const typesA = (await hookA.waitFor(3)).map((d) => d.body.type).sort();
    expect(typesA).toEqual([
      'company.external_administration',
      'company.status_changed',
      'person.disqualified',
    ]);
    const typesB = (await hookB.waitFor(2)).map((d) => d.body.type).sort();
    expect(typesB).toEqual(['company.external_administration', 'company.status_changed']);
    await new Promise((done) => setTimeout(done, 300));
    expect([hookA.received.length, hookB.received.length]).toEqual([3, 2]);

    const ea = hookB.received.find((d) => d.body.type === 'company.external_administration');
    expect(ea?.body.data).toMatchObject({
      company: { acn: WATCHED },
      appointee: { type: 'person', person: { familyName: 'KOWALSKI' } },
      source: { kind: 'weekly_summary', summaryType: 'external-administrations', subType: { code: 'EXAD' } },
      monitorIds: [monitorB],
      sequence: 2,
    });
    const disqualified = hookA.received.find((d) => d.body.type === 'person.disqualified');
    expect(disqualified?.body.data).toMatchObject({
      company: null,
      person,
      match: 'names_and_birth_date',
      source: { kind: 'weekly_summary', summaryType: 'disqualified-directors', subType: { code: 'DISQ' } },
      monitorIds: [personMonitor],
      sequence: 1,
    });
  });

  it('serves the feed oldest first with consecutive sequence numbers, resumable from its position', async () => {
    await clock.advance(2 * 60_000);
    const { events, after } = await readFeed(a, `company=${WATCHED}`);
    expect(events.map((e) => [e.type, e.data.sequence])).toEqual([
      ['company.status_changed', 1],
      ['company.external_administration', 2],
    ]);
    const all = await readFeed(a);
    expect(all.events.map((e) => e.type)).toEqual([
      'company.status_changed',
      'company.external_administration',
      'person.disqualified',
    ]);
    // Resuming from the last position gives nothing new, and the position stays.
    const resumed = await call<{ data: EventBody[]; nextPosition: string }>(
      `/v1/monitors/events?company=${WATCHED}&after=${after}`,
      { key: a.secret },
    );
    expect([resumed.body.data, resumed.body.nextPosition]).toEqual([[], after]);
    const bad = await call('/v1/monitors/events?after=nonsense', { key: a.secret });
    expect(bad.status).toBe(422);
    // A day of monitoring on the usage ledger, once however often the check ran: 2 monitor-days.
    type UsageBody = {
      totals: { product: string; quantity: number; billable: boolean; entries: number }[];
    };
    const usage = await call<UsageBody>('/v1/usage', { key: a.secret });
    // Priced by the stage's (example) schedule, 1 cent a monitored company-day: 2 monitor-days, 2 cents.
    expect(usage.body.totals.filter((t) => t.product === 'monitoring')).toEqual([
      {
        product: 'monitoring',
        feeCode: null,
        billable: true,
        quantity: 2,
        entries: 1,
        amountCents: 2,
        price: { unit: 'monitor_day', unitAmountCents: 1, amountCents: 2 },
      },
    ]);
    // A test key's monitoring is on its ledger, never billable: its amount is what it would have cost.
    const sandboxUsage = await call<UsageBody>('/v1/usage', { key: sandboxKey.secret });
    expect(sandboxUsage.body.totals.filter((t) => t.product === 'monitoring')).toEqual([
      { product: 'monitoring', feeCode: null, billable: false, quantity: 1, entries: 1, amountCents: 1 },
    ]);
    // The weekly summaries' fees are the platform's, never the account's.
    expect(usage.body.totals.filter((t) => t.product === 'weekly_summary')).toEqual([]);
    // The ids are the webhook deliveries' ids.
    expect(all.events.map((e) => e.id).sort()).toEqual(hookA.received.map((d) => d.body.id).sort());
  });

  it('creates no duplicate and loses no event when the daily check is killed half-way and run again', async () => {
    const k = await createKey('live');
    const monitors = [await watch(k, { company: KILLED_A }), await watch(k, { company: KILLED_B })];
    await simulator.change({ number: KILLED_A, status: 'SOFF', document: { formCode: '484' } });
    await simulator.change({ number: KILLED_B, name: 'RENAMED ENGINEERING (NT) PTY LTD', status: 'SOFF' });

    const killed = await runJob('daily', 1);
    expect(killed.stopped).toMatch(/stopped after/);
    await runJob('daily');
    await runJob('daily');
    await clock.advance(2 * 60_000);

    const { events } = await readFeed(k);
    const byCompany = (number: string) => events.filter((e) => e.data.company?.acn === number);
    expect(byCompany(KILLED_A).map((e) => [e.type, e.data.sequence])).toEqual([
      ['company.status_changed', 1],
      ['company.document_lodged', 2],
    ]);
    expect(byCompany(KILLED_A)[1]?.data.document).toMatchObject({ formCode: '484' });
    expect(byCompany(KILLED_B).map((e) => [e.type, e.data.sequence])).toEqual([
      ['company.status_changed', 1],
      ['company.name_changed', 2],
    ]);
    expect(byCompany(KILLED_B)[1]?.data).toMatchObject({
      before: 'WONG ENGINEERING (NT) PTY LTD',
      after: 'RENAMED ENGINEERING (NT) PTY LTD',
    });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const read = await call<{ sequence: number }>(`/v1/monitors/${monitors[0]}`, { key: k.secret });
    expect(read.body.sequence).toBe(2);
  });
});

describe('monitoring in the sandbox', () => {
  // The daily checks below move the shared local clock: give the next file today's.
  afterAll(async () => {
    await clock.reset();
  });

  it('fires every event type on demand for a test key, to the feed and the webhook, once per Idempotency-Key', async () => {
    const key = await createKey('test');
    const hook = await startReceiver();
    const secret = await subscribe(key, hook);
    const company = await watch(key, { company: '990000014' });
    const person = await watch(key, {
      person: { familyName: 'Lindqvist', givenNames: ['Maja'], birthDate: '1980-04-05' },
    });
    const fire = (monitorId: string, type: string, headers: Record<string, string> = {}) =>
      call<{ object: string; id: string; type: string; monitorId: string; status: string }>(
        `/v1/sandbox/monitors/${monitorId}/events`,
        { key: key.secret, method: 'POST', body: { type }, headers },
      );
    const ids: string[] = [];
    for (const type of COMPANY_EVENT_TYPES) {
      const fired = await fire(company, type, { 'Idempotency-Key': `sandbox-${type}` });
      expect(fired.status, fired.text).toBe(202);
      expect(fired.body).toEqual({
        object: 'sandboxEvent',
        id: expect.stringMatching(/^evt_/),
        type,
        monitorId: company,
        status: 'queued',
        meta: expect.any(Object),
      });
      ids.push(fired.body.id);
    }
    for (const type of ['person.disqualified', 'person.licence_granted']) {
      const fired = await fire(person, type);
      expect(fired.status, fired.text).toBe(202);
      ids.push(fired.body.id);
    }
    // The same Idempotency-Key again: the same answer, no second event.
    const again = await fire(company, 'company.status_changed', {
      'Idempotency-Key': 'sandbox-company.status_changed',
    });
    expect([again.status, again.body.id]).toEqual([202, ids[0]]);

    const deliveries = await hook.waitFor(9, 30_000);
    await new Promise((done) => setTimeout(done, 300));
    expect(hook.received).toHaveLength(9);
    for (const delivery of deliveries) {
      stripe.webhooks.constructEvent(delivery.rawBody, delivery.headers['svc-signature'] as string, secret);
    }
    expect(deliveries.map((d) => d.body.id).sort()).toEqual([...ids].sort());

    await clock.advance(2 * 60_000);
    const { events } = await readFeed(key);
    const ofCompany = events.filter((e) => e.data.monitorIds[0] === company);
    expect(ofCompany.map((e) => [e.type, e.data.sequence, e.data.source.kind])).toEqual(
      COMPANY_EVENT_TYPES.map((type, i) => [type, i + 1, 'sandbox']),
    );
    expect(ofCompany[0]?.data).toMatchObject({ company: { acn: '990000014' } });
    expect(ofCompany[0]?.data.before).toEqual(expect.objectContaining({ code: expect.any(String) }));
    expect(ofCompany[3]?.data.document).toMatchObject({ formCode: '484' });
    const ofPerson = events.filter((e) => e.data.monitorIds[0] === person);
    expect(ofPerson.map((e) => [e.type, e.data.sequence])).toEqual([
      ['person.disqualified', 1],
      ['person.licence_granted', 2],
    ]);
    expect(ofPerson[0]?.data.person).toEqual({
      familyName: 'Lindqvist',
      givenNames: ['Maja'],
      birthDate: '1980-04-05',
    });
    await hook.close();
  });

  it('refuses a live key, a type the monitor does not want and another owner, with their codes', async () => {
    const key = await createKey('test');
    const other = await createKey('test');
    const live = await createKey('live');
    const monitor = await watch(key, { company: '990000041', eventTypes: ['company.name_changed'] });
    const liveMonitor = await watch(live, { company: WATCHED });
    const fire = (secret: string, monitorId: string, body: unknown) =>
      call(`/v1/sandbox/monitors/${monitorId}/events`, { key: secret, method: 'POST', body });
    expectError(await fire(live.secret, liveMonitor, { type: 'company.name_changed' }), 400, {
      type: 'invalid_request_error',
      code: 'monitoring_sandbox_only',
      param: null,
    });
    expectError(
      await fire(key.secret, monitor, { type: 'company.status_changed' }),
      422,
      validationError('type'),
    );
    expectError(await fire(key.secret, monitor, { type: 'company.exploded' }), 422, validationError('type'));
    expectError(await fire(key.secret, monitor, {}), 422, validationError('type'));
    expectError(
      await fire(key.secret, monitor, { type: 'company.name_changed', extra: 1 }),
      422,
      validationError('extra'),
    );
    expectError(await fire(other.secret, monitor, { type: 'company.name_changed' }), 403, {
      type: 'permission_error',
      code: 'monitor_owner_mismatch',
      param: 'monitorId',
    });
    expectError(
      await fire(key.secret, 'mon_000000000000000000000000', { type: 'company.name_changed' }),
      404,
      {
        type: 'not_found_error',
        code: 'monitor_not_found',
        param: 'monitorId',
      },
    );
  });

  it('changes the scheduled sandbox companies day by day: one event a day each, whose before and after the lookups show', async () => {
    const key = await createKey('test');
    const liveKey = await createKey('live');
    const scheduled: [string, string][] = [
      ['990011017', 'company.status_changed'],
      ['990011026', 'company.name_changed'],
      ['990011035', 'company.document_lodged'],
      ['990011044', 'company.external_administration'],
    ];
    interface CompanyBody {
      name: string;
      status: { code: string; label: string };
    }
    const dayAfter = (date: string, days = 1) =>
      new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    // Three calendar days ahead of today, at noon (the clock only moves forward): the day before
    // the monitors exist, the day they are created and checked (D), and the next day (D+1).
    const first = dayAfter(new Date().toISOString().slice(0, 10));
    const days = [first, dayAfter(first), dayAfter(first, 2)] as const;
    const setDay = async (day: string, time = '12:00:00') => {
      const set = await call<{ now: string }>('/__local/clock', {
        method: 'POST',
        body: { now: `${day}T${time}Z` },
      });
      // The clock runs on from the instant set: it reads that instant, or a few ms on.
      const ranOnMs = Date.parse(set.body.now) - Date.parse(`${day}T${time}Z`);
      expect(ranOnMs, set.body.now).toBeGreaterThanOrEqual(0);
      expect(ranOnMs, set.body.now).toBeLessThan(1_000);
    };
    const lookup = async (number: string) => {
      const response = await call<CompanyBody>(`/v1/companies/${number}`, { key: key.secret });
      expect(response.status, response.text).toBe(200);
      return { name: response.body.name, status: response.body.status };
    };
    const lookups = async () => {
      const seen = new Map<string, CompanyBody>();
      for (const [number] of scheduled) seen.set(number, await lookup(number));
      return seen;
    };
    /** The document list an integrator reads: a current extract's, bought today with a fresh key. */
    const documentList = async () => {
      const buyer = await createKey('test');
      const bought = await buyExtract(buyer.secret, '990011035', 'current');
      expect(bought.status, bought.text).toBe(201);
      const list = await call<{ data: { documentNumber: string; formCode: string; receivedAt: string }[] }>(
        '/v1/companies/990011035/documents?limit=5',
        { key: buyer.secret },
      );
      expect(list.status, list.text).toBe(200);
      return list.body.data;
    };

    await setDay(days[0]);
    const before = await lookups();
    await setDay(days[1]);
    const monitors = new Map<string, string>();
    for (const [number] of scheduled) monitors.set(number, await watch(key, { company: number }));

    let previous = before;
    let seenSoFar = 0;
    for (const [index, day] of [days[1], days[2]].entries()) {
      await setDay(day);
      const today = await lookups();
      // The day's state, before the day's event is delivered: the lookup already shows it.
      expect(today.get('990011017')?.status.code).not.toBe(previous.get('990011017')?.status.code);
      expect(today.get('990011026')?.name).not.toBe(previous.get('990011026')?.name);
      expect(today.get('990011044')?.status.code).toBe('EXAD');
      // Live keys read the registry (here its simulator), which follows no schedule.
      const live = await call<CompanyBody>('/v1/companies/990011017', { key: liveKey.secret });
      expect([live.status, live.body.status?.code]).toEqual([200, 'REGD']);
      await setDay(day, '15:00:00');
      // D+1's check is killed half-way first: the run again loses nothing and duplicates nothing.
      if (index === 1) expect((await runJob('daily', 2)).stopped).toMatch(/stopped after/);
      const run = await runJob('daily');
      expect(run.stopped).toBeNull();
      expect((await runJob('daily')).events).toBe(0);
      await setDay(day, '15:05:00');
      const { events } = await readFeed(key);
      const ofDay = events.slice(seenSoFar);
      seenSoFar = events.length;
      expect(
        ofDay.map((e) => [e.data.company?.acn, e.type, e.data.source.kind, e.data.sequence]).sort(),
      ).toEqual(scheduled.map(([number, type]) => [number, type, 'sandbox', index + 1]).sort());
      const event = (number: string) => ofDay.find((e) => e.data.company?.acn === number) as EventBody;
      expect(event('990011017').data.monitorIds).toEqual([monitors.get('990011017')]);
      expect([event('990011017').data.before, event('990011017').data.after]).toEqual([
        previous.get('990011017')?.status,
        today.get('990011017')?.status,
      ]);
      expect([event('990011026').data.before, event('990011026').data.after]).toEqual([
        previous.get('990011026')?.name,
        today.get('990011026')?.name,
      ]);
      expect(event('990011026').data.company?.name).toBe(today.get('990011026')?.name);
      const lodged = event('990011035').data.document;
      expect(lodged).toEqual({
        documentNumber: expect.stringMatching(/^9S\d{7}$/),
        formCode: '484',
        formDescription: expect.any(String),
        receivedAt: day,
      });
      const list = await documentList();
      expect(list[0]).toMatchObject({
        documentNumber: lodged?.documentNumber,
        formCode: '484',
        receivedAt: day,
      });
      expect(list[1]?.receivedAt).toBe(dayAfter(day, -1));
      const document = await call<{ documentNumber: string }>(`/v1/documents/${lodged?.documentNumber}`, {
        key: key.secret,
      });
      expect([document.status, document.body.documentNumber]).toEqual([200, lodged?.documentNumber]);
      expect(event('990011044').data).toMatchObject({
        appointee: { type: 'person', person: { familyName: 'KOWALSKI', givenNames: ['ANNA', 'MARIA'] } },
        date: day,
        source: { kind: 'sandbox', subType: { code: 'EXAD' } },
      });
      previous = today;
    }
    // Each monitor's sequence is its count of events: 1 then 2, no gap.
    for (const monitorId of monitors.values()) {
      const read = await call<{ sequence: number }>(`/v1/monitors/${monitorId}`, { key: key.secret });
      expect(read.body.sequence).toBe(2);
    }
    // Five daily runs, each checking every company the files before this one watch (thousands
    // once an import has run): more than the default 30 seconds on a loaded machine.
  }, 180_000);
});
