import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '../../shared/adapters/aws/lambda-credentials.ts';

/** The Lambda bundles' stand-in for the SDK's credential chain (lib/bundling.ts) reads what Lambda sets. */
describe('the Lambda credential reader', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('answers the role credentials Lambda puts in the environment, with their session token', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'token');
    vi.stubEnv('AWS_CREDENTIAL_EXPIRATION', '2026-11-28T18:00:00Z');
    vi.stubEnv('AWS_CREDENTIAL_SCOPE', '');
    vi.stubEnv('AWS_ACCOUNT_ID', '123456789012');
    expect(await defaultProvider()()).toEqual({
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'token',
      expiration: new Date('2026-11-28T18:00:00Z'),
      accountId: '123456789012',
    });
  });

  it('answers a key pair alone when nothing else is set', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    for (const name of [
      'AWS_SESSION_TOKEN',
      'AWS_CREDENTIAL_EXPIRATION',
      'AWS_CREDENTIAL_SCOPE',
      'AWS_ACCOUNT_ID',
    ])
      vi.stubEnv(name, '');
    expect(await defaultProvider()()).toEqual({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' });
  });

  it('fails when the secret key is missing', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    await expect(defaultProvider()()).rejects.toThrow('Unable to find environment variable credentials.');
  });
});
