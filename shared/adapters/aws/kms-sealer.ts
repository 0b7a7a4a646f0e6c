/**
 * Signing secrets sealed with AWS KMS (Encrypt / Decrypt of the webhook key), called through
 * KMS's JSON API (json-call.ts): no SDK client in the bundle. The
 * ciphertext blob names its key, so Decrypt is given the key id only to refuse any other key.
 * An encryption context binds each blob to its purpose.
 */
import type { SecretSealer } from '../../webhooks/store-port.ts';
import { callJsonApi, type JsonApi } from './json-call.ts';

const CONTEXT = { purpose: 'webhook-signing-secret' };

const KMS: JsonApi = {
  service: 'kms',
  serviceId: 'KMS',
  targetPrefix: 'TrentService',
  jsonVersion: '1.1',
  host: (region) => `kms.${region}.amazonaws.com`,
};

const kms = <T>(operation: 'Encrypt' | 'Decrypt', body: Record<string, unknown>) =>
  callJsonApi<T>(KMS, operation, body);

export class KmsSealer implements SecretSealer {
  constructor(private readonly keyId: string) {}

  async seal(plaintext: string): Promise<string> {
    const { CiphertextBlob } = await kms<{ CiphertextBlob: string }>('Encrypt', {
      KeyId: this.keyId,
      Plaintext: Buffer.from(plaintext, 'utf8').toString('base64'),
      EncryptionContext: CONTEXT,
    });
    return `kms.${CiphertextBlob}`;
  }

  async open(sealed: string): Promise<string> {
    if (!sealed.startsWith('kms.')) throw new Error('not a KMS-sealed secret');
    const { Plaintext } = await kms<{ Plaintext: string }>('Decrypt', {
      KeyId: this.keyId,
      CiphertextBlob: sealed.slice(4),
      EncryptionContext: CONTEXT,
    });
    return Buffer.from(Plaintext, 'base64').toString('utf8');
  }
}
