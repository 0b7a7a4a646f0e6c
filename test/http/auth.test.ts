import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeLocalEndpoints } from '../../local/endpoints.ts';
import { callDynamo, type Item } from '../../shared/adapters/dynamodb/json-client.ts';
import { hashKey, keyIdForHash } from '../../shared/kernel/api-keys.ts';
import { call, createKey, errorOf, revokeKey, type TestKey } from '../support/api.ts';
import { testPorts } from '../support/ports.ts';
import { localStack } from '../support/stack.ts';

const run = promisify(execFile);
const IDENTIFIER = '/v1/identifiers/51824753556';

function expectUnauthorized(response: Awaited<ReturnType<typeof call>>) {
  expect(response.status).toBe(401);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_/);
  expect(response.body).toEqual({
    error: {
      type: 'authentication_error',
      code: 'unauthorized',
      message: expect.stringContaining('Authorization: Bearer'),
      param: null,
      registryCode: null,
      requestId,
      docUrl: expect.stringMatching(/\/errors#unauthorized$/),
    },
  });
  expectUnkeyedRateHeaders(response);
  expectSecurityHeaders(response);
}

/** On every response: HTTPS only, no content sniffing. */
function expectSecurityHeaders(response: Awaited<ReturnType<typeof call>>) {
  expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
}

/** No usable key: the limits a key has, with the whole window left (spec 8: on every response). */
function expectUnkeyedRateHeaders(response: Awaited<ReturnType<typeof call>>) {
  expect(response.headers.get('ratelimit-limit')).toBe('600');
  expect(response.headers.get('ratelimit-remaining')).toBe('600');
  expect(response.headers.get('ratelimit-reset')).toBe('60');
  expect(response.headers.get('retry-after')).toBeNull();
}

describe('authentication', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await createKey('test');
  });

  it('accepts a valid key and reports the request id in header and meta', async () => {
    const response = await call(IDENTIFIER, { key: key.secret });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expectSecurityHeaders(response);
    expect(response.body.meta).toEqual({
      billable: false,
      product: null,
      requestId: response.headers.get('x-request-id'),
    });
  });

  it.each([
    ['lower-case scheme', (secret: string) => `bearer ${secret}`],
    ['upper-case scheme', (secret: string) => `BEARER ${secret}`],
    ['mixed-case scheme', (secret: string) => `bEaReR ${secret}`],
    ['several spaces after the scheme', (secret: string) => `Bearer   ${secret}`],
  ])('accepts the bearer scheme in any case (RFC 9110 §11.1): %s', async (_, header) => {
    const response = await call(IDENTIFIER, { headers: { Authorization: header(key.secret) } });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('ratelimit-limit')).toBe('600');
  });

  it('refuses a request without an Authorization header', async () => {
    expectUnauthorized(await call(IDENTIFIER));
  });

  it.each([
    ['no scheme', (secret: string) => secret],
    ['wrong scheme', (secret: string) => `Basic ${secret}`],
    ['lower-case scheme and extra token', (secret: string) => `bearer ${secret} extra`],
    ['empty bearer', () => 'Bearer '],
    ['lower-case scheme without a token', () => 'bearer    '],
    ['scheme only', () => 'Bearer'],
    ['tab instead of a space', (secret: string) => `Bearer\t${secret}`],
    ['no space after the scheme', (secret: string) => `Bearer${secret}`],
    ['key of an unknown shape', () => 'Bearer pk_test_123'],
    ['non-ASCII key', () => 'Bearer sk_test_\u00e9t\u00e9'],
  ])('refuses a malformed Authorization header (%s)', async (_, header) => {
    const response = await call(IDENTIFIER, { headers: { Authorization: header(key.secret) } });
    expectUnauthorized(response);
  });

  it('refuses an unknown key of the right shape', async () => {
    expectUnauthorized(await call(IDENTIFIER, { key: 'sk_test_doesNotExist000' }));
  });

  it('writes nothing for an unknown, revoked or expired key (no limit state, however many requests)', async () => {
    const revoked = await createKey('live');
    await revokeKey(revoked);
    const expired = await createKey('test', { expiresAt: new Date(Date.now() - 1000) });
    const unknown = `sk_test_${randomBytes(12).toString('hex')}`;
    for (const secret of [unknown, revoked.secret, expired.secret]) {
      const responses = await Promise.all(Array.from({ length: 5 }, () => call(IDENTIFIER, { key: secret })));
      for (const response of responses) expectUnauthorized(response);
      const { Item } = await callDynamo<{ Item?: Item }>('GetItem', {
        TableName: testPorts.config.limitsTable,
        Key: { pk: { S: `LIMIT#${keyIdForHash(hashKey(secret))}` } },
        ConsistentRead: true,
      });
      expect(Item, secret.slice(0, 8)).toBeUndefined();
    }
    // A usable key does get its limit state: the check above looks where it would be.
    const { Item } = await callDynamo<{ Item?: Item }>('GetItem', {
      TableName: testPorts.config.limitsTable,
      Key: { pk: { S: `LIMIT#${key.keyId}` } },
      ConsistentRead: true,
    });
    expect(Item).toBeDefined();
  });

  it('refuses a revoked key', async () => {
    const revoked = await createKey('live');
    expect((await call(IDENTIFIER, { key: revoked.secret })).status).toBe(200);
    await revokeKey(revoked);
    expectUnauthorized(await call(IDENTIFIER, { key: revoked.secret }));
  });

  it('refuses an expired key', async () => {
    const expired = await createKey('test', { expiresAt: new Date(Date.now() - 1000) });
    expectUnauthorized(await call(IDENTIFIER, { key: expired.secret }));
  });

  it('does not echo the key anywhere in an error', async () => {
    const response = await call(IDENTIFIER, { key: 'sk_test_secretValue123' });
    expect(response.text).not.toContain('secretValue123');
  });
});

describe('key admin command', () => {
  it('creates a key that works at once and revokes it', async () => {
    const env = {
      ...process.env,
      DYNAMODB_ENDPOINT: localStack.dynamoEndpoint,
      KEYS_TABLE: localStack.tableNames.keys,
    };
    const tsx = 'node_modules/.bin/tsx';
    const created = await run(tsx, ['bin/keys.ts', 'create', '--account', 'acct_cli', '--env', 'live'], {
      env,
    });
    const secret = /Secret \(shown once, store it now\): (sk_live_\w+)/.exec(created.stdout)?.[1];
    const keyId = /Created (key_\w+) \(live\)/.exec(created.stdout)?.[1];
    expect(secret).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    expect((await call(IDENTIFIER, { key: secret ?? null })).status).toBe(200);

    const listed = await run(tsx, ['bin/keys.ts', 'list', '--account', 'acct_cli'], { env });
    expect(listed.stdout).toContain(`${keyId}  live  active  …${secret?.slice(-4)}`);
    expect(listed.stdout).not.toContain(secret);

    await run(tsx, ['bin/keys.ts', 'revoke', '--account', 'acct_cli', '--key-id', keyId ?? ''], { env });
    expectUnauthorized(await call(IDENTIFIER, { key: secret ?? null }));
  });

  it('refuses an unknown environment', async () => {
    const failure = await run('node_modules/.bin/tsx', [
      'bin/keys.ts',
      'create',
      '--account',
      'acct_cli',
      '--env',
      'prod',
    ]).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--env must be one of test, live'),
    });
  });

  it('finds the running local stack through the .local/endpoints.json it wrote, whatever its DynamoDB port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    const { DYNAMODB_ENDPOINT: _, DYNAMODB_PORT: __, ...inherited } = process.env;
    const keys = (...args: string[]) =>
      run(resolve('node_modules/.bin/tsx'), [resolve('bin/keys.ts'), ...args], {
        cwd: dir,
        env: { ...inherited, KEYS_TABLE: localStack.tableNames.keys },
      });
    try {
      const missing = await keys('list', '--account', 'acct_found').catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(missing).toMatchObject({
        code: 2,
        stderr: expect.stringContaining(
          'no local stack is running here (npm start writes .local/endpoints.json)',
        ),
      });

      writeLocalEndpoints(join(dir, '.local'), {
        api: localStack.baseUrl,
        dynamodb: localStack.dynamoEndpoint,
        registry: localStack.registryUrl,
        pid: process.pid,
      });
      const created = await keys('create', '--account', 'acct_found', '--env', 'test');
      const secret = /Secret \(shown once, store it now\): (sk_test_\w+)/.exec(created.stdout)?.[1];
      expect(secret).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
      expect((await call(IDENTIFIER, { key: secret ?? null })).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what to check, without a stack trace, when DynamoDB cannot be reached', async () => {
    const failure = await run('node_modules/.bin/tsx', ['bin/keys.ts', 'list', '--account', 'acct_cli'], {
      env: { ...process.env, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^keys list: .*connect ECONNREFUSED 127\.0\.0\.1:9\nIs the local stack running \(npm start\)\?/,
      ),
    });
    expect((failure as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  });
});

describe('errors outside any route', () => {
  it('answers an unknown path with route_not_found in the envelope', async () => {
    const key = await createKey('test');
    const response = await call('/v1/no-such-thing', { key: key.secret });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toMatchObject({
      type: 'not_found_error',
      code: 'route_not_found',
      param: null,
    });
    expectUnkeyedRateHeaders(response);
  });

  it('puts the rate limit headers on route_not_found without a key too', async () => {
    const response = await call('/v1/no-such-thing');
    expect(response.status).toBe(404);
    expect(errorOf(response).code).toBe('route_not_found');
    expectUnkeyedRateHeaders(response);
  });

  it('answers a known path with the wrong method with route_not_found naming the allowed method', async () => {
    const key = await createKey('test');
    const response = await call(IDENTIFIER, { key: key.secret, method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toMatchObject({
      code: 'route_not_found',
      message: expect.stringContaining('use GET'),
    });
    expectUnkeyedRateHeaders(response);
  });
});
