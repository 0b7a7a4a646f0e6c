import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/routes.ts';
import { call, clock, expectError } from '../support/api.ts';
import { localStack } from '../support/stack.ts';

/**
 * `npm run keys` (bin/keys.ts) against the local stack's DynamoDB, as an operator runs it: a
 * rotated key keeps working until its grace ends on the stack's clock, a revoked key is refused
 * from the very next request, and `list` shows who changed what and when.
 */

const run = promisify(execFile);
const TSX = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');

async function keys(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(TSX, [join(PROJECT_ROOT, 'bin', 'keys.ts'), ...args], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: localStack.dynamoEndpoint,
        KEYS_TABLE: localStack.tableNames.keys,
      },
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

const secretIn = (out: string) =>
  /Secret \(shown once, store it now\): (sk_(?:test|live)_\w+)/.exec(out)?.[1] ?? '';
const keyIdIn = (out: string) => /Created (key_[0-9a-f]{20})/.exec(out)?.[1] ?? '';
const freeCall = (secret: string) => call('/v1/identifiers/51824753556', { key: secret });
const UNAUTHORIZED = { type: 'authentication_error', code: 'unauthorized', param: null };
const account = () => `acct_cli_${randomBytes(4).toString('hex')}`;

// The CLI dates a rotation's grace by the real clock: the stack's clock must start from it too (a
// file before this one on the same stack may have left it moved).
beforeEach(async () => {
  await clock.reset();
});
afterEach(async () => {
  await clock.reset();
});

describe('npm run keys', () => {
  it('rotates a key: the new one works at once, the old one until its grace ends on the clock', async () => {
    const accountId = account();
    const created = await keys('create', '--account', accountId, '--env', 'live');
    expect(created.code, created.err).toBe(0);
    const oldSecret = secretIn(created.out);
    const oldKeyId = keyIdIn(created.out);
    expect((await freeCall(oldSecret)).status).toBe(200);

    const rotated = await keys('rotate', '--account', accountId, '--key-id', oldKeyId, '--grace', '1h');
    expect(rotated.code, rotated.err).toBe(0);
    const newSecret = secretIn(rotated.out);
    const newKeyId = keyIdIn(rotated.out);
    expect(newSecret).toMatch(/^sk_live_/);
    expect(rotated.out).toContain(`replacing ${oldKeyId}`);
    expect((await freeCall(oldSecret)).status).toBe(200);
    expect((await freeCall(newSecret)).status).toBe(200);

    await clock.advance(59 * 60_000);
    expect((await freeCall(oldSecret)).status).toBe(200);
    await clock.advance(2 * 60_000);
    expectError(await freeCall(oldSecret), 401, UNAUTHORIZED);
    expect((await freeCall(newSecret)).status).toBe(200);

    const listed = await keys('list', '--account', accountId);
    expect(listed.code, listed.err).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines.find((line) => line.startsWith(newKeyId))).toContain('  live  active  ');
    expect(lines.find((line) => line.startsWith(oldKeyId))).toMatch(/ live {2}active {2}.* \d{4}-\d\d-\d\dT/);
    const changes = lines.slice(lines.indexOf('Changes (oldest first):') + 1).filter(Boolean);
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatch(new RegExp(`^\\S+Z {2}created {2}${oldKeyId} {2}local:\\S+ {2}live key$`));
    expect(changes[1]).toMatch(
      new RegExp(`^\\S+Z {2}rotated {2}${oldKeyId} {2}local:\\S+ {2}replaced by ${newKeyId}; expires \\S+Z$`),
    );
  });

  it('revokes a key: refused from the very next request, and recorded', async () => {
    const accountId = account();
    const created = await keys('create', '--account', accountId, '--env', 'test');
    const secret = secretIn(created.out);
    const keyId = keyIdIn(created.out);
    expect((await freeCall(secret)).status).toBe(200);
    const revoked = await keys('revoke', '--account', accountId, '--key-id', keyId);
    expect(revoked.code, revoked.err).toBe(0);
    expectError(await freeCall(secret), 401, UNAUTHORIZED);

    const again = await keys('revoke', '--account', accountId, '--key-id', keyId);
    expect(again.code).toBe(2);
    expect(again.err).toContain(`${keyId} is revoked already`);
    const rotateRevoked = await keys('rotate', '--account', accountId, '--key-id', keyId, '--grace', '1h');
    expect(rotateRevoked.code).toBe(2);
    expect(rotateRevoked.err).toContain(`${keyId} is revoked`);

    const listed = await keys('list', '--account', accountId);
    expect(listed.out).toContain(`${keyId}  test  revoked`);
    expect(listed.out).toMatch(
      new RegExp(`Z {2}revoked {2}${keyId} {2}local:\\S+ {2}refused from the next request`),
    );
  });

  it('labels keys: at creation, afterwards, removed; a key without one goes by its environment and last four', async () => {
    const accountId = account();
    const named = await keys('create', '--account', accountId, '--env', 'test', '--label', 'Billing service');
    expect(named.code, named.err).toBe(0);
    const namedId = keyIdIn(named.out);
    expect(named.out).toContain(`Created ${namedId} (test) for ${accountId}, labelled "Billing service".`);
    const plain = await keys('create', '--account', accountId, '--env', 'live');
    const plainId = keyIdIn(plain.out);

    const relabelled = await keys(
      'label',
      '--account',
      accountId,
      '--key-id',
      plainId,
      '--label',
      'CI (staging)',
    );
    expect(relabelled.code, relabelled.err).toBe(0);
    const removed = await keys('label', '--account', accountId, '--key-id', namedId, '--label', '');
    expect(removed.code, removed.err).toBe(0);
    // Refused before the table is touched (the rule itself: test/unit/key-admin.test.ts).
    const refused = await keys('label', '--account', accountId, '--key-id', plainId, '--label', '<b>');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("--label '<b>': label must be 1 to 40 letters");

    const listed = (await keys('list', '--account', accountId)).out;
    const line = (keyId: string) => listed.split('\n').find((l) => l.startsWith(keyId));
    expect(line(plainId)).toMatch(/ {2}live {2}active {2}.* no expiry {2}CI \(staging\)$/);
    expect(line(namedId)).toMatch(new RegExp(` no expiry {2}Test key …${secretIn(named.out).slice(-4)}$`));
    const changes = listed.split('Changes (oldest first):')[1] ?? '';
    expect(changes).toMatch(
      new RegExp(`created {2}${namedId} {2}local:\\S+ {2}test key, labelled "Billing service"`),
    );
    expect(changes).toMatch(
      new RegExp(`labelled {2}${plainId} {2}local:\\S+ {2}labelled "CI \\(staging\\)"`),
    );
    expect(changes).toMatch(new RegExp(`labelled {2}${namedId} {2}local:\\S+ {2}label removed`));
    expect(changes).not.toContain('<b>');
  });

  it.each([
    [
      ['list', '--account', 'acct-x'],
      "--account 'acct-x' must be acct_ followed by 1 to 64 letters, digits or underscores",
    ],
    [['list', '--account', `acct_${'a'.repeat(65)}`], 'must be acct_ followed by 1 to 64'],
    [['list'], '--account is required'],
    [
      ['revoke', '--account', 'acct_x', '--key-id', 'key_1'],
      "--key-id 'key_1' must be key_ followed by 20 hex digits",
    ],
    [['rotate', '--account', 'acct_x', '--key-id', 'key_0123456789abcdef0123'], '--grace is required'],
    [
      ['rotate', '--account', 'acct_x', '--key-id', 'key_0123456789abcdef0123', '--grace', '31d'],
      "--grace '31d' must be minutes, hours or days",
    ],
    [
      ['rotate', '--account', 'acct_x', '--key-id', 'key_0123456789abcdef0123', '--grace', '1h'],
      'no key key_0123456789abcdef0123 for acct_x',
    ],
    [['create', '--account', 'acct_x', '--env', 'prod'], '--env must be one of test, live'],
    [['purge', '--account', 'acct_x'], "unknown command 'purge'"],
  ])('refuses %j, changing nothing', async (args, message) => {
    const result = await keys(...args);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
  });
});
