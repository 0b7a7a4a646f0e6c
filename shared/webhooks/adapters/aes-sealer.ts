/**
 * The local stack's SecretSealer: AES-256-GCM with a key the stack generates at start (so
 * secrets sealed by one run of the local stack open only in that run). `v1.<iv>.<tag>.<ciphertext>`,
 * base64url. The account and endpoint are the associated data, as they are KMS's encryption
 * context when deployed: a secret opens only for the endpoint it was sealed for.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBinding, SecretSealer } from '../store-port.ts';

const associatedData = (binding: SecretBinding) =>
  Buffer.from(JSON.stringify([binding.accountId, binding.endpointId]), 'utf8');

export class AesGcmSealer implements SecretSealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('AesGcmSealer needs a 32-byte key');
  }

  async seal(plaintext: string, binding: SecretBinding): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(associatedData(binding));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  async open(sealed: string, binding: SecretBinding): Promise<string> {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(associatedData(binding));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
