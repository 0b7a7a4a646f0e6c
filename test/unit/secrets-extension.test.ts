import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSecretFromExtension } from '../../shared/adapters/aws/secrets-extension.ts';

/** A stand-in for the Parameters and Secrets extension's localhost endpoint. */
const requests: { url: string; token: string | undefined }[] = [];
const server = createServer((req, res) => {
  requests.push({
    url: req.url ?? '',
    token: req.headers['x-aws-parameters-secrets-token'] as string | undefined,
  });
  if (req.url?.includes('missing')) {
    res.writeHead(400).end('not found');
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ SecretString: 's3cret' }));
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
    expect(await readSecretFromExtension(arn)).toBe('s3cret');
    expect(requests.at(-1)).toEqual({
      url: `/secretsmanager/get?secretId=${encodeURIComponent(arn)}`,
      token: 'session-token',
    });
  });

  it('fails loudly when the extension refuses', async () => {
    await expect(readSecretFromExtension('missing')).rejects.toThrow('secrets extension answered 400');
  });
});
