import { describe, expect, it } from 'vitest';
import { hashKey, newKeyRecord } from '../../shared/kernel/api-keys.ts';
import {
  authorizeToken,
  BEARER_HEADER_PATTERN,
  stageWideResource,
} from '../../shared/kernel/http/authorizer.ts';
import {
  type ConsoleMemberRecord,
  type ConsoleSessionRecord,
  edgeTokenOf,
  hashToken,
  newToken,
  sessionIdForHash,
} from '../../shared/kernel/sessions.ts';
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

  describe('a console session, by its edge token', () => {
    /** A key, and a session opened with it (stored by its token's hash, as sign-in stores it). */
    async function withSession(options: { revokedKey?: boolean; sessionEnds?: string; signedOut?: boolean }) {
      const keys = await keysWith({ secret: 'sk_test_owner1', revoked: options.revokedKey === true });
      const token = newToken();
      const hash = hashToken(token);
      const session: ConsoleSessionRecord = {
        sessionId: sessionIdForHash(hash),
        accountId: 'acct_a',
        environment: 'test',
        keyId: `key_${hashKey('sk_test_owner1').slice(0, 20)}`,
        keyHash: hashKey('sk_test_owner1'),
        csrfToken: newToken(),
        createdAt: '2026-05-31T23:00:00.000Z',
        expiresAt: options.sessionEnds ?? '2026-06-01T07:00:00.000Z',
        revokedAt: options.signedOut ? '2026-05-31T23:30:00.000Z' : null,
      };
      keys.sessions.set(hash, session);
      return { keys, token, session };
    }
    const authorize = (keys: MemoryApiKeys, authorizationToken: string) =>
      authorizeToken({ authorizationToken, methodArn: METHOD_ARN }, keys, NOW);

    it('allows an open session of a usable key, as the session, stage-wide (cached per session)', async () => {
      const { keys, token, session } = await withSession({});
      const result = await authorize(keys, `Console-Session ${edgeTokenOf(token)}`);
      expect(result.principalId).toBe(session.sessionId);
      expect(effectOf(result)).toEqual({
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: STAGE_WIDE,
      });
    });

    it.each([
      ['a forged edge token (never issued)', async () => `Console-Session ${hashToken(newToken())}`],
      [
        'the session token itself instead of its edge token',
        async (token: string) => `Console-Session ${token}`,
      ],
      ['the bare marker that passed before', async () => 'Console-Session'],
      ['the marker with a value of the wrong shape', async () => 'Console-Session x'],
    ])('denies %s', async (_, header) => {
      const { keys, token } = await withSession({});
      const result = await authorize(keys, await header(token));
      expect(result.principalId).toBe('anonymous');
      expect(effectOf(result)).toEqual({
        Action: 'execute-api:Invoke',
        Effect: 'Deny',
        Resource: STAGE_WIDE,
      });
    });

    describe("a member's session", () => {
      const member: ConsoleMemberRecord = {
        memberId: 'mem_0123456789abcdef0123',
        accountId: 'acct_a',
        environment: 'test',
        email: 'billing@example.com',
        role: 'billing',
        status: 'active',
        generation: 2,
        invitedAt: '2026-05-30T00:00:00.000Z',
        invitedBy: 'console:cs_x',
      };
      async function memberSession(stored: ConsoleMemberRecord | undefined) {
        const keys = new MemoryApiKeys();
        if (stored) keys.members.set(`acct_a#${stored.memberId}`, stored);
        const token = newToken();
        const hash = hashToken(token);
        keys.sessions.set(hash, {
          sessionId: sessionIdForHash(hash),
          accountId: 'acct_a',
          environment: 'test',
          keyId: member.memberId,
          member: { memberId: member.memberId, email: member.email, role: 'billing', generation: 2 },
          csrfToken: newToken(),
          createdAt: '2026-05-31T23:00:00.000Z',
          expiresAt: '2026-06-01T07:00:00.000Z',
          revokedAt: null,
        });
        return authorize(keys, `Console-Session ${edgeTokenOf(token)}`);
      }

      it('allows it while the member holds', async () => {
        expect(effectOf(await memberSession(member))?.Effect).toBe('Allow');
      });

      it.each([
        ['removed', undefined],
        ['whose role changed since (one more generation)', { ...member, role: 'developer', generation: 3 }],
        [
          'removed and invited again (another member id)',
          { ...member, memberId: 'mem_ffffffffffffffffffff' },
        ],
      ] as const)('denies it once the member was %s', async (_, stored) => {
        expect(effectOf(await memberSession(stored as ConsoleMemberRecord | undefined))?.Effect).toBe('Deny');
      });
    });

    it.each([
      ['signed out', { signedOut: true }],
      ['past its end', { sessionEnds: '2026-05-31T23:59:59.000Z' }],
      ['whose key was revoked', { revokedKey: true }],
    ])('denies a session %s', async (_, options) => {
      const { keys, token } = await withSession(options);
      const result = await authorize(keys, `Console-Session ${edgeTokenOf(token)}`);
      expect(effectOf(result)?.Effect).toBe('Deny');
    });

    it('lets no fixed value through the gateway: only a key or a 64-hex edge token is well formed', () => {
      const pattern = new RegExp(BEARER_HEADER_PATTERN);
      for (const fixed of [
        'Console-Session',
        'Console-Session ',
        'Console-Session x',
        'Bearer',
        'Bearer sk_live_',
      ])
        expect(pattern.test(fixed), fixed).toBe(false);
      expect(pattern.test(`Console-Session ${'a'.repeat(64)}`)).toBe(true);
      expect(pattern.test(`Console-Session ${'A'.repeat(64)}`)).toBe(false);
    });
  });
});
