import { describe, expect, it } from 'vitest';
import { hashKey, newKeyRecord } from '../../shared/kernel/api-keys.ts';
import {
  authorizeToken,
  BEARER_HEADER_PATTERN,
  CONSOLE_SESSION_AUTHORIZATION,
  stageWideResource,
} from '../../shared/kernel/http/authorizer.ts';
import { MemoryApiKeys } from '../support/fakes.ts';

const METHOD_ARN = 'arn:aws:execute-api:eu-west-2:111122223333:abc123/prod/GET/v1/companies/990000149';
const STAGE_WIDE = 'arn:aws:execute-api:eu-west-2:111122223333:abc123/prod/*/*';
const NOW = new Date('2026-06-01T00:00:00Z');

async function keysWith(...entries: { secret: string; expiresAt?: Date; revoked?: boolean }[]) {
  const keys = new MemoryApiKeys();
  for (const entry of entries) {
    const { hash, record } = newKeyRecord(
      entry.secret,
      'acct_a',
      new Date('2026-01-01T00:00:00Z'),
      entry.expiresAt ?? null,
    );
    await keys.create(hash, record);
    if (entry.revoked) await keys.revoke(record.keyId, 'acct_a', new Date('2026-02-01T00:00:00Z'));
  }
  return keys;
}

const effectOf = (result: Awaited<ReturnType<typeof authorizeToken>>) => result.policyDocument.Statement[0];

describe('the key authorizer', () => {
  it('allows a usable key on every method of the stage (so API Gateway can cache the answer per key)', async () => {
    const keys = await keysWith({ secret: 'sk_live_usable1' });
    const result = await authorizeToken(
      { authorizationToken: 'Bearer sk_live_usable1', methodArn: METHOD_ARN },
      keys,
      NOW,
    );
    expect(result.principalId).toBe(`key_${hashKey('sk_live_usable1').slice(0, 20)}`);
    expect(effectOf(result)).toEqual({ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: STAGE_WIDE });
  });

  it.each([
    ['an unknown key', 'Bearer sk_test_unknown1'],
    ['a revoked key', 'Bearer sk_test_revoked1'],
    ['an expired key', 'Bearer sk_test_expired1'],
    ['a malformed header', 'Basic sk_test_usable2'],
  ])('denies %s', async (_, authorizationToken) => {
    const keys = await keysWith(
      { secret: 'sk_test_revoked1', revoked: true },
      { secret: 'sk_test_expired1', expiresAt: new Date('2026-05-01T00:00:00Z') },
      { secret: 'sk_test_usable2' },
    );
    const result = await authorizeToken({ authorizationToken, methodArn: METHOD_ARN }, keys, NOW);
    expect(result.principalId).toBe('anonymous');
    expect(effectOf(result)).toEqual({ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: STAGE_WIDE });
  });

  it('names the whole stage from a method ARN, and refuses anything else', () => {
    expect(stageWideResource(METHOD_ARN)).toBe(STAGE_WIDE);
    expect(() => stageWideResource('arn:aws:execute-api:eu-west-2:1:abc')).toThrow(/not a method ARN/);
  });

  it('gives API Gateway an expression without flags that a header in any case of the scheme passes', () => {
    const pattern = new RegExp(BEARER_HEADER_PATTERN);
    expect(pattern.test('bEaReR sk_test_abc')).toBe(true);
    expect(pattern.test('Bearer sk_test_abc\n')).toBe(false);
    expect(BEARER_HEADER_PATTERN).not.toMatch(/\(\?[a-z]+\)/);
  });

  it("lets the console's session marker through, whose session the route's admission checks", async () => {
    const keys = { findByHash: async () => undefined } as never;
    const answer = await authorizeToken(
      { authorizationToken: CONSOLE_SESSION_AUTHORIZATION, methodArn: METHOD_ARN },
      keys,
      new Date(),
    );
    expect(answer.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow', Resource: STAGE_WIDE });
    expect(answer.principalId).toBe('console-session');
    expect(new RegExp(BEARER_HEADER_PATTERN).test('Console-Session x')).toBe(false);
  });
});
