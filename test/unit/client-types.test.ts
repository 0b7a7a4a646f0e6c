/**
 * The typed client's types follow the contract's exact request schemas: what the service refuses
 * for its shape does not compile. The `@ts-expect-error` lines are checked by `npm run typecheck`
 * (an expected error that disappears fails it); the calls go to a fetch that records them, so the
 * accepted bodies are shown to be sent as written.
 */
import { describe, expect, it } from 'vitest';
import { createCompanyRegisterClient, type Schemas } from '../../clients/typescript/index.ts';

function recordingClient() {
  const sent: { url: string; body: unknown }[] = [];
  const client = createCompanyRegisterClient({
    baseUrl: 'https://api.example.com',
    apiKey: 'sk_test_types',
    retries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const text = await request.text();
      sent.push({ url: new URL(request.url).pathname, body: text === '' ? null : JSON.parse(text) });
      return new Response('{}', { status: 202, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, sent };
}

describe('the typed client against the exact request schemas', () => {
  it('needs a delivery on the three order bodies, shaped by its method', async () => {
    const { client, sent } = recordingClient();
    const path = { params: { path: { id: '990000210' } } };
    await client.POST('/v1/companies/{id}/charges/extract-orders', {
      ...path,
      // @ts-expect-error: delivery is required
      body: {},
    });
    await client.POST('/v1/companies/{id}/charges/extract-orders', {
      ...path,
      // @ts-expect-error: email delivery needs its address
      body: { delivery: { method: 'email' } },
    });
    await client.POST('/v1/companies/{id}/charges/extract-orders', {
      ...path,
      // @ts-expect-error: fax is not a method
      body: { delivery: { method: 'fax' } },
    });
    await client.POST('/v1/documents/image-orders', {
      // @ts-expect-error: an image order without delivery
      body: { documents: [{ documentNumber: '9E0010007' }] },
    });
    await client.POST('/v1/companies/search/offline', {
      // @ts-expect-error: offline searches are not delivered on the web
      body: { q: 'widgets', delivery: { method: 'web' } },
    });
    const post: Schemas['PostDelivery'] = {
      method: 'post',
      contactName: 'Jo Citizen',
      contactPhone: '+61 2 9000 0000',
      recipient: 'Citizen Legal',
      address: '1 George Street, Sydney NSW',
      postcode: '2000',
    };
    await client.POST('/v1/companies/{id}/charges/extract-orders', { ...path, body: { delivery: post } });
    expect(sent.map((request) => request.body)).toEqual([
      {},
      { delivery: { method: 'email' } },
      { delivery: { method: 'fax' } },
      { documents: [{ documentNumber: '9E0010007' }] },
      { q: 'widgets', delivery: { method: 'web' } },
      { delivery: post },
    ]);
  });

  it('takes only the closed sets the service accepts', async () => {
    const { client, sent } = recordingClient();
    const path = { params: { path: { id: '990000149' } } };
    // @ts-expect-error: not an extract type
    await client.POST('/v1/companies/{id}/extracts', { ...path, body: { type: 'full' } });
    await client.POST('/v1/weekly-summaries', {
      // @ts-expect-error: not a weekly summary type
      body: { type: 'new-companies', weekStarting: '2026-11-02' },
    });
    await client.GET('/v1/registers/{register}/entries', {
      // @ts-expect-error: registers are named by their codes (case-sensitive)
      params: { path: { register: 'rq' }, query: { browse: 'sm' } },
    });
    await client.GET('/v1/companies/search', {
      // @ts-expect-error: `limit` is a number
      params: { query: { q: 'widgets', limit: '5' } },
    });
    const body: Schemas['PurchaseCompanyExtractRequest'] = { type: 'historical' };
    await client.POST('/v1/companies/{id}/extracts', { ...path, body });
    expect(sent.map((request) => request.url)).toEqual([
      '/v1/companies/990000149/extracts',
      '/v1/weekly-summaries',
      '/v1/registers/rq/entries',
      '/v1/companies/search',
      '/v1/companies/990000149/extracts',
    ]);
  });

  it('types the monitoring operations: monitors, imports, the feed, sandbox events', async () => {
    const { client, sent } = recordingClient();
    await client.POST('/v1/monitors', {
      body: { company: '990000014', eventTypes: ['company.status_changed'] },
    });
    await client.POST('/v1/monitors', {
      // @ts-expect-error: not an event type
      body: { company: '990000014', eventTypes: ['company.exploded'] },
    });
    await client.POST('/v1/monitors/imports', { body: { dryRun: true, csv: 'company\n990000014\n' } });
    // @ts-expect-error: dryRun is a boolean
    await client.POST('/v1/monitors/imports', { body: { dryRun: 'yes', rows: [] } });
    await client.GET('/v1/monitors/imports/{importId}', {
      params: { path: { importId: 'mimp_5e0a7c3b9d1f2e4a6c8b0d2f' } },
    });
    await client.GET('/v1/monitors/events', { params: { query: { company: '990000014', limit: 50 } } });
    await client.POST('/v1/sandbox/monitors/{monitorId}/events', {
      params: { path: { monitorId: 'mon_2b7c9e1d3f5a4c6b8d0e1f2a' } },
      body: { type: 'person.disqualified' },
    });
    await client.POST('/v1/sandbox/monitors/{monitorId}/events', {
      params: { path: { monitorId: 'mon_2b7c9e1d3f5a4c6b8d0e1f2a' } },
      // @ts-expect-error: type is required
      body: {},
    });
    // The answers are typed too: an import's status, a usage total's price.
    const status: Schemas['MonitorImport']['status'] = 'processing';
    const price: NonNullable<Schemas['Usage']['totals'][number]['price']> = {
      unit: 'monitor_day',
      unitAmountCents: 1,
      amountCents: 30,
    };
    expect([status, price.amountCents]).toEqual(['processing', 30]);
    expect(sent.map((s) => s.url)).toEqual([
      '/v1/monitors',
      '/v1/monitors',
      '/v1/monitors/imports',
      '/v1/monitors/imports',
      '/v1/monitors/imports/mimp_5e0a7c3b9d1f2e4a6c8b0d2f',
      '/v1/monitors/events',
      '/v1/sandbox/monitors/mon_2b7c9e1d3f5a4c6b8d0e1f2a/events',
      '/v1/sandbox/monitors/mon_2b7c9e1d3f5a4c6b8d0e1f2a/events',
    ]);
    expect(sent[0]?.body).toEqual({ company: '990000014', eventTypes: ['company.status_changed'] });
  });
});
