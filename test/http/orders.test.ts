import { it } from 'vitest';
import { SANDBOX } from '../../shared/registry/sandbox-data.ts';
import { call, createKey } from '../support/api.ts';
import { waitForExecution, outbox, publishedEvents } from '../support/orders.ts';

it('explore', async () => {
  const key = await createKey('test');
  const live = await createKey('live');
  const log = (label: string, r: unknown) => console.log(label, JSON.stringify(r, null, 1));
  const r = await call(`/v1/companies/${SANDBOX.unavailableChargeImage}/charges/extract-orders`, { key: key.secret, method: 'POST', body: { delivery: { method: 'web' } } });
  log('test order', { status: r.status, body: r.body });
  const id = (r.body as { id: string }).id;
  await waitForExecution(id);
  log('after', (await call(`/v1/orders/${id}`, { key: key.secret })).body);
  const l = await call(`/v1/companies/${SANDBOX.satisfiedCharges}/charges/extract-orders`, { key: live.secret, method: 'POST', body: { delivery: { method: 'email', email: 'a@b.com' } } });
  log('live order', { status: l.status, body: l.body });
  const lid = (l.body as { id: string }).id;
  if (lid) { await waitForExecution(lid); log('live after', (await call(`/v1/orders/${lid}`, { key: live.secret })).body); }
  log('usage', (await call('/v1/usage', { key: live.secret })).body);
  log('outbox', (await outbox()).slice(-1));
  log('events', (await publishedEvents()).slice(-2));
  const s = await call('/v1/companies/search/offline', { key: key.secret, method: 'POST', body: { q: 'widgets', delivery: { method: 'email', email: 'x@y.com' } } });
  log('search', { status: s.status, body: s.body });
  const sid = (s.body as { id: string }).id;
  await waitForExecution(sid);
  log('search after', (await call(`/v1/companies/search/offline/${sid}`, { key: key.secret })).body);
  const res = await call(`/v1/companies/search/offline/${sid}/results?limit=2`, { key: key.secret });
  log('results', res.body);
  log('outbox', (await outbox()).slice(-1));
  log('events', (await publishedEvents()).slice(-1));
}, 60000);
