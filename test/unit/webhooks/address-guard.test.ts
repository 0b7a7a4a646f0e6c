import { describe, expect, it } from 'vitest';
import { guardedLookup, HttpsWebhookSender } from '../../../shared/webhooks/adapters/https-sender.ts';
import {
  checkAddress,
  checkHost,
  checkWebhookUrl,
  parseIPv4,
  parseIPv6,
} from '../../../shared/webhooks/address-guard.ts';

/** The SSRF guard: every spelling of a non-public address is refused, public ones pass. */

describe('IP literal parsing', () => {
  it.each([
    ['127.0.0.1', [127, 0, 0, 1]],
    ['2130706433', [127, 0, 0, 1]],
    ['0x7f000001', [127, 0, 0, 1]],
    ['0X7F000001', [127, 0, 0, 1]],
    ['0177.0.0.1', [127, 0, 0, 1]],
    ['0177.0.0.01', [127, 0, 0, 1]],
    ['127.1', [127, 0, 0, 1]],
    ['127.0.1', [127, 0, 0, 1]],
    ['0x7f.1', [127, 0, 0, 1]],
    ['0', [0, 0, 0, 0]],
    ['169.254.169.254', [169, 254, 169, 254]],
    ['0xa9.0xfe.0xa9.0xfe', [169, 254, 169, 254]],
    ['2852039166', [169, 254, 169, 254]],
    ['127.0.0.1.', [127, 0, 0, 1]],
    // As the WHATWG URL parser reads it: an empty hex number is 0.
    ['0x', [0, 0, 0, 0]],
  ])('reads %s as %j', (text, bytes) => {
    expect(parseIPv4(text)).toStrictEqual(bytes);
  });

  it.each(['256.0.0.1', '1.2.3.4.5', '08.0.0.1', 'example.com', '4294967296', ''])(
    '%s is no IPv4 literal',
    (text) => {
      expect(parseIPv4(text)).toBeNull();
    },
  );

  it('reads IPv6 with embedded IPv4, brackets and zones', () => {
    expect(parseIPv6('[::ffff:127.0.0.1]')?.slice(10)).toStrictEqual([0xff, 0xff, 127, 0, 0, 1]);
    expect(parseIPv6('::ffff:7f00:1')?.slice(10)).toStrictEqual([0xff, 0xff, 127, 0, 0, 1]);
    expect(parseIPv6('fe80::1%eth0')?.slice(0, 2)).toStrictEqual([0xfe, 0x80]);
    expect(parseIPv6('127.0.0.1')).toBeNull();
  });
});

describe('address checks', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '::',
    '::1',
    'fe80::1',
    'febf::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:8.8.8.8',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::1',
    '2001:db8::1',
    '2001::1',
    '100::1',
  ])('refuses %s', (address) => {
    expect(checkAddress(address).allowed).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::1',
    '2002:808:808::1',
  ])('allows the public address %s', (address) => {
    expect(checkAddress(address)).toStrictEqual({ allowed: true });
  });

  it('allows loopback only when configured, and nothing else private', () => {
    expect(checkAddress('127.0.0.1', { allowLoopback: true }).allowed).toBe(true);
    expect(checkAddress('::1', { allowLoopback: true }).allowed).toBe(true);
    expect(checkAddress('10.0.0.1', { allowLoopback: true }).allowed).toBe(false);
    expect(checkAddress('169.254.169.254', { allowLoopback: true }).allowed).toBe(false);
    expect(checkAddress('::ffff:127.0.0.1', { allowLoopback: true }).allowed).toBe(false);
  });
});

describe('webhook URLs', () => {
  it.each([
    'https://127.0.0.1/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[64:ff9b::7f00:1]/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fe80::1]/',
    'https://[fd00::1]/',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'https://localhost/',
    'https://api.localhost/',
    'https://localhost./hook',
    'https://LocalHost./hook',
    'https://api.localhost./hook',
    'https://localhost../hook',
    'https://256.256.256.256/',
    'http://hooks.example.com/',
    'ftp://hooks.example.com/',
    'https://user:pass@hooks.example.com/',
    'not a url',
  ])('refuses %s', (url) => {
    expect(checkWebhookUrl(url)).toEqual(expect.any(String));
  });

  it.each(['https://hooks.example.com/x?y=1', 'https://8.8.8.8/hook', 'https://[2606:4700::1]:8443/'])(
    'allows %s',
    (url) => {
      expect(checkWebhookUrl(url)).toBeNull();
    },
  );

  it('normalises a name (trailing dots, case) before judging it', () => {
    expect(checkHost('LOCALHOST.')).toStrictEqual({
      allowed: false,
      reason: 'localhost is loopback',
      literal: false,
    });
    expect(checkHost('Hooks.Example.com.')).toStrictEqual({ allowed: true, literal: false });
  });

  it('treats names as names: their addresses are checked when connecting', () => {
    expect(checkHost('internal.example.com')).toStrictEqual({ allowed: true, literal: false });
  });
});

describe('at connection time', () => {
  it('the lookup hook drops every address that is not allowed, and fails when none is left', async () => {
    const lookup = guardedLookup({});
    const error = await new Promise<Error | null>((done) =>
      lookup('localhost', { all: true }, (failure) => done(failure as Error | null)),
    );
    expect(error?.name).toBe('BlockedAddressError');
    const allowed = await new Promise<unknown>((done) =>
      guardedLookup({ allowLoopback: true })('localhost', { all: true }, (_e, addresses) => done(addresses)),
    );
    expect(allowed).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^(127\.|::1)/) })]),
    );
  });

  it.each([
    'https://127.0.0.1:1/',
    'https://2130706433:1/',
    'https://[::ffff:127.0.0.1]:1/',
    'https://localhost:1/',
  ])('the sender never connects to %s', async (url) => {
    const answer = await new HttpsWebhookSender({}).send({ url, headers: {}, body: '{}' });
    expect(answer.statusCode).toBeNull();
    expect(answer.error).toMatch(/blocked|BlockedAddressError/);
  });
});
