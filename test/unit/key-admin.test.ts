import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRegion } from '../../bin/aws-context.ts';
import { KEY_LABEL_PATTERN, keyNameOf } from '../../shared/kernel/api-keys.ts';
import {
  isValidKeyId,
  MAX_ROTATION_GRACE_MS,
  newAuditRecord,
  parseGrace,
  rotatedExpiry,
} from '../../shared/kernel/key-admin.ts';

/** The key administration's checks (bin/keys.ts), and the region it works in with --aws. */

describe('parseGrace', () => {
  it.each([
    ['90m', 90 * 60_000],
    ['24h', 24 * 3_600_000],
    ['7d', 7 * 86_400_000],
    ['30d', MAX_ROTATION_GRACE_MS],
    [' 1h ', 3_600_000],
  ])('reads %j', (text, ms) => {
    expect(parseGrace(text)).toBe(ms);
  });

  it.each(['0h', '31d', '721h', '1w', '1.5h', 'h', '-1h', '24', ''])('refuses %j', (text) => {
    expect(parseGrace(text)).toBeUndefined();
  });
});

describe('rotatedExpiry', () => {
  const now = new Date('2026-11-25T00:00:00.000Z');
  it('ends the old key after the grace, or at its own expiry when that is sooner', () => {
    expect(rotatedExpiry({ expiresAt: null }, now, 3_600_000)).toEqual(new Date('2026-11-25T01:00:00.000Z'));
    expect(rotatedExpiry({ expiresAt: '2027-01-01T00:00:00.000Z' }, now, 3_600_000)).toEqual(
      new Date('2026-11-25T01:00:00.000Z'),
    );
    expect(rotatedExpiry({ expiresAt: '2026-11-25T00:30:00.000Z' }, now, 3_600_000)).toEqual(
      new Date('2026-11-25T00:30:00.000Z'),
    );
  });
});

describe('key ids and audit records', () => {
  it('accepts key_ and 20 lower-case hex digits only', () => {
    expect(isValidKeyId('key_0123456789abcdef0123')).toBe(true);
    expect(isValidKeyId('key_0123456789ABCDEF0123')).toBe(false);
    expect(isValidKeyId('key_0123456789abcdef012')).toBe(false);
    expect(isValidKeyId('audit_2026')).toBe(false);
  });

  it('gives each audit record an id that sorts by time', () => {
    const fields = {
      accountId: 'acct_a',
      action: 'revoked' as const,
      keyId: 'key_x',
      by: 'local:me',
      detail: '',
    };
    const first = newAuditRecord(fields, new Date('2026-11-25T00:00:00.000Z'));
    const second = newAuditRecord(fields, new Date('2026-11-25T00:00:01.000Z'));
    expect(first).toMatchObject({ ...fields, at: '2026-11-25T00:00:00.000Z' });
    expect(first.auditId).toMatch(/^audit_2026-11-25T00:00:00\.000Z_[0-9a-f]{8}$/);
    expect(first.auditId < second.auditId).toBe(true);
  });
});

describe('resolveRegion', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  function profiles(text: string) {
    const dir = mkdtempSync(join(tmpdir(), 'aws-config-'));
    writeFileSync(join(dir, 'config'), text);
    writeFileSync(join(dir, 'credentials'), '');
    delete process.env.AWS_REGION;
    delete process.env.AWS_DEFAULT_REGION;
    process.env.AWS_CONFIG_FILE = join(dir, 'config');
    process.env.AWS_SHARED_CREDENTIALS_FILE = join(dir, 'credentials');
  }

  it('reads the region of the profile AWS_PROFILE names from the shared config file', async () => {
    profiles('[default]\nregion = us-east-1\n\n[profile operations]\nregion = eu-west-2\n');
    process.env.AWS_PROFILE = 'operations';
    expect(await resolveRegion()).toBe('eu-west-2');
  });

  it('reads the default profile without AWS_PROFILE, and AWS_REGION over any profile', async () => {
    profiles('[default]\nregion = us-east-1\n');
    delete process.env.AWS_PROFILE;
    expect(await resolveRegion()).toBe('us-east-1');
    process.env.AWS_REGION = 'ap-southeast-4';
    expect(await resolveRegion()).toBe('ap-southeast-4');
  });

  it('fails when no region is set anywhere', async () => {
    profiles('[default]\n');
    delete process.env.AWS_PROFILE;
    await expect(resolveRegion()).rejects.toThrow();
  });
});

describe('key labels', () => {
  it.each([
    'a',
    'Billing service',
    'CI (staging)',
    'Zürich API',
    '東京 batch',
    'x'.repeat(40),
    'ops@acme #2',
  ])('accepts %j', (label) => {
    expect(KEY_LABEL_PATTERN.test(label)).toBe(true);
  });

  it.each(['', ' x', 'x ', '-x', 'x'.repeat(41), 'a\nb', 'bell\u0007', 'tab\tx', '<b>', '=SUM(A1)', 'a"b'])(
    'refuses %j',
    (label) => {
      expect(KEY_LABEL_PATTERN.test(label)).toBe(false);
    },
  );

  it('names a key by its label, else by its environment and last four', () => {
    expect(keyNameOf({ label: 'Web app', environment: 'live', lastFour: 'Ab3d' })).toBe('Web app');
    expect(keyNameOf({ environment: 'live', lastFour: 'Ab3d' })).toBe('Live key …Ab3d');
    expect(keyNameOf({ environment: 'test', lastFour: '0x9Z' })).toBe('Test key …0x9Z');
  });
});
