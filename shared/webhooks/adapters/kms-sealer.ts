/**
 * Signing secrets sealed with AWS KMS (Encrypt / Decrypt of the webhook key), called through
 * KMS's JSON API (shared/adapters/aws/json-call.ts): no SDK client in the bundle. The
 * ciphertext blob names its key, so Decrypt is given the key id only to refuse any other key.
 * An encryption context binds each blob to its purpose, account and endpoint: the key policy refuses
 * a call without it, and Decrypt fails unless the context is the one the secret was sealed with.
 */

import { callJsonApi, type JsonApi } from '../../adapters/aws/json-call.ts';
import { SECRET_CONTEXT_PURPOSE } from '../infra.ts';
import type { SecretBinding, SecretSealer } from '../store-port.ts';

/** The encryption context (its keys: SECRET_CONTEXT_KEYS). */
const contextOf = (binding: SecretBinding) => ({
  purpose: SECRET_CONTEXT_PURPOSE,
  account: binding.accountId,
  endpoint: binding.endpointId,
});

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

  async seal(plaintext: string, binding: SecretBinding): Promise<string> {
    const { CiphertextBlob } = await kms<{ CiphertextBlob: string }>('Encrypt', {
      KeyId: this.keyId,
      Plaintext: Buffer.from(plaintext, 'utf8').toString('base64'),
      EncryptionContext: contextOf(binding),
    });
    return `kms.${CiphertextBlob}`;
  }

  async open(sealed: string, binding: SecretBinding): Promise<string> {
    if (!sealed.startsWith('kms.')) throw new Error('not a KMS-sealed secret');
    const { Plaintext } = await kms<{ Plaintext: string }>('Decrypt', {
      KeyId: this.keyId,
      CiphertextBlob: sealed.slice(4),
      EncryptionContext: contextOf(binding),
    });
    return Buffer.from(Plaintext, 'base64').toString('utf8');
  }
}
