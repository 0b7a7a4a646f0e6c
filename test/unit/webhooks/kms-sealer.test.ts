import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KmsSealer } from '../../../shared/webhooks/adapters/kms-sealer.ts';
import { SECRET_CONTEXT_KEYS } from '../../../shared/webhooks/infra.ts';

/** The KMS sealer over KMS's JSON API (signed with aws4, no SDK client), against a fake endpoint. */

const received: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
    received.push({ headers: request.headers, body });
    response.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.1' });
    // A toy "encryption": the blob is the plaintext reversed, so the round trip is checkable.
    if (request.headers['x-amz-target'] === 'TrentService.Encrypt') {
      response.end(
        JSON.stringify({
          CiphertextBlob: [...(body.Plaintext as string)].reverse().join(''),
          KeyId: body.KeyId,
        }),
      );
    } else {
      response.end(
        JSON.stringify({
          Plaintext: [...(body.CiphertextBlob as string)].reverse().join(''),
          KeyId: body.KeyId,
        }),
      );
    }
  });
});
const saved = { ...process.env };

beforeAll(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  process.env.AWS_ENDPOINT_URL_KMS = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_REGION = 'ap-southeast-2';
  process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
});

afterAll(async () => {
  process.env = saved;
  await new Promise((done) => server.close(done));
});

describe('KmsSealer', () => {
  it('seals with Encrypt and opens with Decrypt, signed for kms, with the key, the purpose, the account and the endpoint bound', async () => {
    const sealer = new KmsSealer('arn:aws:kms:ap-southeast-2:111122223333:key/k-1');
    const binding = { accountId: 'acct_1', endpointId: 'we_1' };
    const sealed = await sealer.seal('whsec_secret', binding);
    const opened = await sealer.open(sealed, binding);

    expect(sealed.startsWith('kms.')).toBe(true);
    expect(sealed).not.toContain('whsec_secret');
    expect(opened).toBe('whsec_secret');
    expect(received.map((r) => r.headers['x-amz-target'])).toStrictEqual([
      'TrentService.Encrypt',
      'TrentService.Decrypt',
    ]);
    for (const request of received) {
      expect(String(request.headers.authorization)).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ap-southeast-2\/kms\/aws4_request/,
      );
      expect(request.body).toMatchObject({
        KeyId: 'arn:aws:kms:ap-southeast-2:111122223333:key/k-1',
      });
      expect(request.body.EncryptionContext).toStrictEqual({
        purpose: 'webhook-signing-secret',
        account: 'acct_1',
        endpoint: 'we_1',
      });
      expect(Object.keys(request.body.EncryptionContext as object).sort()).toStrictEqual(
        [...SECRET_CONTEXT_KEYS].sort(),
      );
    }
    await expect(sealer.open('v1.not.kms', binding)).rejects.toThrow(/not a KMS-sealed secret/);
  });
});
