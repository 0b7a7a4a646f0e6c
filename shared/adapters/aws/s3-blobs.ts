import type { BlobStore } from '../../orders/store-port.ts';
import { AwsCallError, type SignedAnswer, signedRequest } from './signed-request.ts';

/** The key as a path: each segment encoded (the keys we write need none, but a key may). */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/**
 * Compiled PDFs and offline search results in the private orders bucket, through S3's REST API
 * (signed-request.ts). Objects are written with SSE-S3 (`AES256`), the bucket's own default
 * encryption, so a put never depends on a KMS key. A missing key reads as 404 (`NoSuchKey`, or an
 * empty 404 to a HEAD) only because the functions may `s3:ListBucket`; without it S3 would answer
 * 403 and `get` / `exists` would throw.
 */
export class S3BlobStore implements BlobStore {
  constructor(private readonly bucket: string) {}

  private call(operation: string, method: 'GET' | 'HEAD' | 'PUT', key: string, extra: object = {}) {
    // A custom endpoint (AWS_ENDPOINT_URL_S3) is addressed path-style, S3 itself by the bucket's host name.
    const pathStyle = !!process.env.AWS_ENDPOINT_URL_S3;
    return {
      service: 's3',
      serviceId: 'S3',
      operation,
      method,
      host: (region: string) => `${this.bucket}.s3.${region}.amazonaws.com`,
      path: `${pathStyle ? `/${this.bucket}` : ''}/${encodeKey(key)}`,
      ...extra,
    };
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await signedRequest(
      this.call('PutObject', 'PUT', key, {
        headers: { 'Content-Type': contentType, 'X-Amz-Server-Side-Encryption': 'AES256' },
        body: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      }),
    );
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const answer: SignedAnswer = await signedRequest(this.call('GetObject', 'GET', key), [200, 404]);
    if (answer.statusCode === 404) {
      const code = /<Code>([^<]*)<\/Code>/.exec(answer.body.toString('utf8'))?.[1];
      if (code === 'NoSuchKey') return undefined;
      throw new AwsCallError(code ?? 'NotFound', `s3://${this.bucket}/${key}: ${code ?? 'not found'}`, 404);
    }
    return new Uint8Array(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
  }

  async exists(key: string): Promise<boolean> {
    // HEAD answers have no body: a 404 can only mean the key (the bucket is ours).
    const answer = await signedRequest(this.call('HeadObject', 'HEAD', key), [200, 404]);
    return answer.statusCode === 200;
  }
}
