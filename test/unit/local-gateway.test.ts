/**
 * The local stack's model of what API Gateway answers before (or instead of) a function: a keyed
 * route refuses a request without a usable key or console session (the key authorizer's expression
 * and lookup) without running its function, and a
 * registry route whose reserved concurrency is in use answers as a Lambda throttle does on a live
 * stage (the INTEGRATION_FAILURE gateway response): 503, spec 7.2's type, Retry-After, the envelope.
 */
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageFaults } from '../../local/faults.ts';
import { compile, createLocalServer } from '../../local/server.ts';
import { routeList } from '../../shared/app/routes.ts';
import { newKeyRecord } from '../../shared/kernel/api-keys.ts';
import { AdjustableClock } from '../../shared/kernel/clock.ts';
import { errorCatalogue } from '../../shared/kernel/errors/catalogue.ts';
import { FUNCTION_UNAVAILABLE } from '../../shared/kernel/http/gateway-answers.ts';
import { edgeTokenOf, hashToken, newToken, sessionIdForHash } from '../../shared/kernel/sessions.ts';
import { MemoryApiKeys } from '../support/fakes.ts';

const registryRoute =
  routeList.find((route) => route.usesRegistry && route.method === 'GET' && !route.path.includes('{')) ??
  routeList.find((route) => route.usesRegistry && route.method === 'GET');
const KEY = 'Bearer sk_test_gatewayModel1';

describe('the local gateway model', () => {
  let baseUrl = '';
  let invocations = 0;
  let release: () => void = () => {};
  let server: ReturnType<typeof createLocalServer>;
  const docsUrl = 'http://docs.local/docs';
  const apiKeys = new MemoryApiKeys();
  const sessionToken = newToken();

  beforeAll(async () => {
    if (!registryRoute) throw new Error('no registry route with GET in the route table');
    const handler = async (): Promise<APIGatewayProxyResult> => {
      invocations++;
      // A registry call that takes its time: the function instance stays busy until released.
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}' };
    };
    const { hash, record } = newKeyRecord(KEY.slice('Bearer '.length), 'acct_a', new Date(), null);
    await apiKeys.create(hash, record);
    const sessionHash = hashToken(sessionToken);
    apiKeys.sessions.set(sessionHash, {
      sessionId: sessionIdForHash(sessionHash),
      accountId: 'acct_a',
      environment: 'test',
      keyId: record.keyId,
      keyHash: hash,
      csrfToken: newToken(),
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      revokedAt: null,
    });
    server = createLocalServer({
      apiKeys,
      routes: [compile(registryRoute, handler)],
      clock: new AdjustableClock(),
      faults: new StorageFaults(),
      docsUrl,
      registryConcurrency: 1,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const pathOf = () => (registryRoute?.path ?? '').replace(/\{[^}]+\}/g, '990000149');

  it('refuses a request without a well-formed key before any function runs', async () => {
    for (const authorization of [undefined, 'Basic abc', 'Bearer sk_prod_x', 'Bearer sk_test_a b']) {
      const response = await fetch(`${baseUrl}${pathOf()}`, {
        headers: authorization === undefined ? {} : { Authorization: authorization },
      });
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(response.status, authorization).toBe(401);
      expect(body.error).toMatchObject({ type: 'authentication_error', code: 'unauthorized' });
      expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
      expect(response.headers.get('ratelimit-remaining')).toBe('600');
    }
    expect(invocations).toBe(0);
  });

  it('refuses an unknown key, the bare console marker and a forged session before any function runs', async () => {
    for (const authorization of [
      'Bearer sk_test_neverIssued1',
      'Console-Session',
      `Console-Session ${hashToken(newToken())}`,
      // The session token itself is not its edge token.
      `Console-Session ${sessionToken}`,
    ]) {
      const response = await fetch(`${baseUrl}${pathOf()}`, { headers: { Authorization: authorization } });
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(response.status, authorization).toBe(401);
      expect(body.error).toMatchObject({ type: 'authentication_error', code: 'unauthorized', param: null });
      expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
      expect(response.headers.get('ratelimit-remaining')).toBe('600');
    }
    expect(invocations).toBe(0);
  });

  it('answers a throttled registry route 503 with Retry-After and the envelope, never a 500', async () => {
    const first = fetch(`${baseUrl}${pathOf()}`, { headers: { Authorization: KEY } });
    await expect.poll(() => invocations).toBe(1);

    const throttled = await fetch(`${baseUrl}${pathOf()}`, { headers: { Authorization: KEY } });
    const body = (await throttled.json()) as { error: Record<string, unknown> };
    expect(throttled.status).toBe(503);
    expect(throttled.headers.get('retry-after')).toBe(String(FUNCTION_UNAVAILABLE.retryAfterSeconds));
    expect(throttled.headers.get('ratelimit-limit')).toBe('600');
    expect(body).toEqual({
      error: {
        type: 'registry_unavailable_error',
        code: 'service_unavailable',
        message: errorCatalogue.service_unavailable.message,
        param: null,
        registryCode: null,
        requestId: throttled.headers.get('x-request-id'),
        docUrl: `${docsUrl}/errors#service_unavailable`,
      },
    });
    // The throttled request never reached the function.
    expect(invocations).toBe(1);

    release();
    expect((await first).status).toBe(200);
    // The instance is free again: the next request runs.
    const next = fetch(`${baseUrl}${pathOf()}`, { headers: { Authorization: KEY } });
    await expect.poll(() => invocations).toBe(2);
    release();
    expect((await next).status).toBe(200);
  });

  it("lets an open console session's edge token through to the function", async () => {
    const request = fetch(`${baseUrl}${pathOf()}`, {
      headers: { Authorization: `Console-Session ${edgeTokenOf(sessionToken)}` },
    });
    await expect.poll(() => invocations).toBe(3);
    release();
    expect((await request).status).toBe(200);
  });
});
