import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  readSecretFromExtension,
  SECRET_MAX_AGE_SECONDS,
  secretReader,
} from '../../shared/adapters/aws/secrets-extension.ts';

/** A stand-in for the Parameters and Secrets extension's localhost endpoint. */
let served = 0;
let failNext = 0;
const requests: { url: string; token: string | undefined }[] = [];
const server = createServer((req, res) => {
  requests.push({
    url: req.url ?? '',
    token: req.headers['x-aws-parameters-secrets-token'] as string | undefined,
  });
  if (req.url?.includes('missing') || (req.url?.includes('flaky') && failNext > 0 && failNext--)) {
    res.writeHead(400).end('not found');
    return;
  }
  served += 1;
  res
    .writeHead(200, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ SecretString: `s3cret-${served}` }));
});

describe('reading the cursor key through the secrets extension', () => {
  beforeAll(async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = String((server.address() as AddressInfo).port);
    process.env.AWS_SESSION_TOKEN = 'session-token';
  });
  afterAll(() => {
    server.close();
    delete process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT;
    delete process.env.AWS_SESSION_TOKEN;
  });

  it('asks for the secret by ARN with the session token and returns its string', async () => {
    const arn = 'arn:aws:secretsmanager:ap-southeast-2:123456789012:secret:cursor-AbCdEf';
    expect(await readSecretFromExtension(arn)).toMatch(/^s3cret-\d+$/);
    expect(requests.at(-1)).toEqual({
      url: `/secretsmanager/get?secretId=${encodeURIComponent(arn)}`,
      token: 'session-token',
    });
  });

  it('fails loudly when the extension refuses, naming the secret', async () => {
    await expect(readSecretFromExtension('missing')).rejects.toThrow(
      'the secrets extension answered 400 for missing',
    );
  });

  describe('secretReader', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it(`keeps a secret ${SECRET_MAX_AGE_SECONDS} s, then reads it again (a rotated secret is picked up)`, async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const read = secretReader(
        { arn: 'arn:aws:secretsmanager:ap-southeast-2:1:secret:rotating' },
        'CURSOR_SECRET_ARN',
      );
      const first = await read();
      const before = requests.length;
      vi.setSystemTime(Date.now() + (SECRET_MAX_AGE_SECONDS - 1) * 1000);
      expect(await read()).toBe(first);
      expect(requests.length).toBe(before);
      vi.setSystemTime(Date.now() + 2000);
      const second = await read();
      expect(second).not.toBe(first);
      expect(requests.length).toBe(before + 1);
    });

    it('names the setting and the secret it could not read, keeps no failure, and reads again next time', async () => {
      failNext = 1;
      const arn = 'arn:aws:secretsmanager:ap-southeast-2:1:secret:flaky';
      const read = secretReader({ arn }, 'REGISTRY_CREDENTIAL or REGISTRY_CREDENTIAL_ARN');
      await expect(read()).rejects.toThrow(
        `could not read the secret of REGISTRY_CREDENTIAL or REGISTRY_CREDENTIAL_ARN (${arn}): the secrets extension answered 400 for ${arn}`,
      );
      expect(await read()).toMatch(/^s3cret-\d+$/);
    });

    it('answers a literal as it is, and refuses an unset setting by its names', async () => {
      expect(await secretReader({ value: 'local-secret' }, 'CURSOR_SECRET')()).toBe('local-secret');
      await expect(secretReader(undefined, 'CURSOR_SECRET or CURSOR_SECRET_ARN')()).rejects.toThrow(
        'CURSOR_SECRET or CURSOR_SECRET_ARN must be set',
      );
    });
  });
});
