/**
 * Finding a request by its X-Request-Id in the console (shared/console/requests.ts): what the
 * service kept when it answered (route, status, time, error code), for the session's account and
 * environment only; another account's or environment's request is answered exactly as an id never
 * seen. The id's format is checked before any lookup.
 */
import { describe, expect, it } from 'vitest';
import { callDynamo } from '../../shared/adapters/dynamodb/json-client.ts';
import { requestPk } from '../../shared/adapters/dynamodb/request-log.ts';
import { baseUrl, call, createKey } from '../support/api.ts';
import { signIn, withSession } from '../support/console.ts';
import { testConfig } from '../support/ports.ts';

const idOf = (response: { headers: Headers }) => response.headers.get('x-request-id') as string;

/** The 404 envelope without its own request id and link: compared between two answers. */
const notFoundShape = (body: Record<string, unknown>) => {
  const { requestId: _r, ...rest } = body.error as Record<string, unknown>;
  return rest;
};

describe('GET /console/requests/{requestId}', () => {
  it('finds an earlier request of the key: route, status, time and error code', async () => {
    const key = await createKey('test');
    const before = new Date().toISOString();
    const failed = await call('/v1/companies/123456789', { key: key.secret });
    expect(failed.status).toBe(400);
    const succeeded = await call('/v1/usage', { key: key.secret });
    expect(succeeded.status).toBe(200);
    const session = await signIn(key.secret);

    const found = await withSession(session, `/console/requests/${idOf(failed)}`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({
      object: 'requestRecord',
      id: idOf(failed),
      method: 'GET',
      path: '/v1/companies/123456789',
      route: 'GetCompany',
      status: 400,
      errorCode: 'acn_invalid',
      keyId: key.keyId,
      viaConsole: false,
    });
    expect((found.body.receivedAt as string) >= before).toBe(true);
    expect(found.body.latencyMs).toBeGreaterThanOrEqual(0);

    const ok = await withSession(session, `/console/requests/${idOf(succeeded)}`);
    expect(ok.body).toMatchObject({ route: 'GetUsage', status: 200, errorCode: null, path: '/v1/usage' });

    // A request the console itself made is the account's too.
    const own = await withSession(session, `/console/requests/${idOf(found)}`);
    expect(own.body).toMatchObject({ route: 'FindConsoleRequest', status: 200, viaConsole: true });

    // Kept 30 days: DynamoDB's TTL attribute says so.
    const { Item } = await callDynamo<{ Item?: { expiresAtEpoch?: { N: string } } }>('GetItem', {
      TableName: testConfig.limitsTable,
      Key: { pk: { S: requestPk(idOf(failed)) } },
    });
    const days =
      (Number(Item?.expiresAtEpoch?.N) * 1000 - Date.parse(found.body.receivedAt as string)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
  });

  it("answers another account's or the other environment's request exactly as an unknown id", async () => {
    const mine = await createKey('test');
    const live = await createKey('live', { accountId: mine.accountId });
    const stranger = await createKey('test');
    const theirs = await call('/v1/usage', { key: stranger.secret });
    const otherEnvironment = await call('/v1/usage', { key: live.secret });
    const session = await signIn(mine.secret);

    const unknown = await withSession(session, '/console/requests/req_00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({
      type: 'not_found_error',
      code: 'request_not_found',
      param: 'requestId',
      registryCode: null,
    });
    for (const other of [theirs, otherEnvironment]) {
      const answer = await withSession(session, `/console/requests/${idOf(other)}`);
      expect(answer.status).toBe(404);
      expect(notFoundShape(answer.body)).toStrictEqual(notFoundShape(unknown.body));
    }
    // The stranger finds its own.
    const strangerSession = await signIn(stranger.secret);
    expect((await withSession(strangerSession, `/console/requests/${idOf(theirs)}`)).status).toBe(200);
  });

  it('checks the id before any lookup: the envelope with code and param', async () => {
    const key = await createKey('test');
    const session = await signIn(key.secret);
    for (const bad of [
      'abc',
      'req_123',
      'REQ_00000000-0000-4000-8000-000000000000',
      'req_00000000-0000-4000-8000-00000000000G',
    ]) {
      const answer = await withSession(session, `/console/requests/${bad}`);
      expect(answer.status, bad).toBe(422);
      expect(answer.body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'validation_error',
        param: 'requestId',
      });
    }
  });

  it('answers a session only: a key is refused', async () => {
    const key = await createKey('test');
    const made = await call('/v1/usage', { key: key.secret });
    const answer = await fetch(`${baseUrl}/console/requests/${idOf(made)}`, {
      headers: { Authorization: `Bearer ${key.secret}` },
    });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('keeps nothing of a request with an unknown key', async () => {
    const refused = await call('/v1/usage', { key: 'sk_test_unknownunknownunknownunknown' });
    expect(refused.status).toBe(401);
    const { Item } = await callDynamo<{ Item?: unknown }>('GetItem', {
      TableName: testConfig.limitsTable,
      Key: { pk: { S: requestPk(idOf(refused)) } },
    });
    expect(Item).toBeUndefined();
  });
});
