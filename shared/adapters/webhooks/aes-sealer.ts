/**
 * The local stack's SecretSealer: AES-256-GCM with a key the stack generates at start (so
 * secrets sealed by one run of the local stack open only in that run). `v1.<iv>.<tag>.<ciphertext>`,
 * base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretSealer } from '../../webhooks/store-port.ts';

export class AesGcmSealer implements SecretSealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('AesGcmSealer needs a 32-byte key');
  }

  async seal(plaintext: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  async open(sealed: string): Promise<string> {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
