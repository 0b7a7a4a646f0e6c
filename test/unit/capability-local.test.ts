import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCapabilityLocals } from '../../local/capability-local.ts';
import { handleControl } from '../../local/control.ts';
import type { LocalControlRoute } from '../../shared/kernel/capability-local.ts';
import ordersLocal from '../../shared/orders/local/stack.ts';
import { loopbackAllowed } from '../../shared/webhooks/composition.ts';
import { WEBHOOK_LOCAL_ENV } from '../../shared/webhooks/infra.ts';
import { webhooksLocalConfig } from '../../shared/webhooks/local/stack.ts';

/** The capabilities' local modules as the local stack loads them (local/capability-local.ts). */
describe("the capabilities' local modules", () => {
  it('starts them in the list order, each after the modules it names: webhooks before those whose events it delivers', async () => {
    const loaded = await loadCapabilityLocals();
    expect(loaded.map(({ capability }) => capability)).toEqual([
      'webhooks',
      'reference',
      'monitoring',
      'orders',
    ]);
    expect(loaded.find(({ capability }) => capability === 'orders')?.module).toBe(ordersLocal);
    expect(loaded.find(({ capability }) => capability === 'monitoring')?.after).toEqual(['webhooks']);
  });

  it("webhooks keep their local settings themselves: a fresh sealing key, loopback off, unless the stack's settings say", () => {
    const setup = { dir: '/nonexistent', development: false, settings: {} };
    const fresh = webhooksLocalConfig(setup);
    expect(fresh.sealKey).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh.allowLoopback).toBe(false);
    expect(fresh.ca).toBeUndefined();
    expect(
      webhooksLocalConfig({
        ...setup,
        settings: { webhooks: { sealKey: 'ab'.repeat(32), allowLoopback: true, ca: 'PEM' } },
      }),
    ).toEqual({ sealKey: 'ab'.repeat(32), allowLoopback: true, ca: 'PEM' });
  });

  it('the webhook routes allow loopback receivers only where the local stack set its variable', () => {
    expect(loopbackAllowed({})).toBe(false);
    expect(loopbackAllowed({ [WEBHOOK_LOCAL_ENV.allowLoopback]: '0' })).toBe(false);
    expect(loopbackAllowed({ [WEBHOOK_LOCAL_ENV.allowLoopback]: '1' })).toBe(true);
  });
});

describe('a /__local/ control request (local/control.ts)', () => {
  const routes: LocalControlRoute[] = [
    {
      pattern: /^\/__local\/thing\/([^/]+)\/?$/,
      methods: {
        GET: ({ params, url }) => [200, { params, q: url.searchParams.get('q') }],
        POST: ({ body }) => [201, { body }],
        DELETE: () => {
          throw new Error('broken');
        },
      },
    },
  ];
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (!(await handleControl(req, res, url, routes))) {
        res.writeHead(418);
        res.end();
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });
  const call = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${base}${path}`, init);
    return { status: response.status, body: response.status === 418 ? null : await response.json() };
  };

  it('answers with the matching route, its pattern groups decoded, the body parsed', async () => {
    expect(await call('/__local/thing/a%20b?q=1')).toEqual({
      status: 200,
      body: { params: ['a b'], q: '1' },
    });
    expect(await call('/__local/thing/x', { method: 'POST', body: '{"n":1}' })).toEqual({
      status: 201,
      body: { body: { n: 1 } },
    });
    expect(await call('/__local/thing/x', { method: 'POST' })).toEqual({ status: 201, body: { body: {} } });
  });

  it('answers 405 for a method the route has not, 400 for a body that is not JSON, 500 with the error of a handler that throws', async () => {
    expect(await call('/__local/thing/x', { method: 'PUT' })).toEqual({
      status: 405,
      body: { error: 'PUT is not supported on /__local/thing/x' },
    });
    expect(await call('/__local/thing/x', { method: 'POST', body: 'not json' })).toEqual({
      status: 400,
      body: { error: 'the body is not JSON' },
    });
    expect(await call('/__local/thing/x', { method: 'DELETE' })).toEqual({
      status: 500,
      body: { error: 'Error: broken' },
    });
  });

  it('leaves a path no route matches to the server', async () => {
    expect(await call('/__local/other')).toEqual({ status: 418, body: null });
  });
});
