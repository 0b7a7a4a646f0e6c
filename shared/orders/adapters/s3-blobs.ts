import { AwsCallError, type SignedAnswer, signedRequest } from '../../adapters/aws/signed-request.ts';
import type { BlobStore } from '../store-port.ts';

/** The key as a path: each segment encoded (the keys we write need none, but a key may). */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/**
 * Compiled PDFs and offline search results in the private orders bucket, through S3's REST API
 * (shared/adapters/aws/signed-request.ts). Objects are written with SSE-S3 (`AES256`), the bucket's own default
 * encryption, so a put never depends on a KMS key.
 *
 * A missing key: S3 answers 404 only to a caller it lets list the bucket without a prefix, and the
 * functions may list only under their prefixes (`StringLike s3:prefix`, lib/constructs/api-function.ts),
 * so it answers 403. A 403 is therefore checked with the one list the grant allows, under the key
 * itself: a key that is not listed is missing; one that is listed was really refused, and throws.
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

  /** Whether the key is in the bucket, by a list under the key itself (at most one key back). */
  private async listed(key: string): Promise<boolean> {
    const list = this.call('ListObjectsV2', 'GET', '');
    const query = `list-type=2&max-keys=1&prefix=${encodeURIComponent(key)}`;
    const answer = await signedRequest({ ...list, path: `${list.path}?${query}` });
    const escaped = key.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    return answer.body.toString('utf8').includes(`<Key>${escaped}</Key>`);
  }

  /** A 403 to a read of `key`: missing (false) unless the key is listed, then the refusal it was. */
  private async missingOrRefused(key: string, operation: string): Promise<false> {
    if (!(await this.listed(key))) return false;
    throw new AwsCallError('AccessDenied', `s3://${this.bucket}/${key}: ${operation} refused`, 403);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const answer: SignedAnswer = await signedRequest(this.call('GetObject', 'GET', key), [200, 403, 404]);
    if (answer.statusCode === 403) {
      await this.missingOrRefused(key, 'GetObject');
      return undefined;
    }
    if (answer.statusCode === 404) {
      const code = /<Code>([^<]*)<\/Code>/.exec(answer.body.toString('utf8'))?.[1];
      if (code === 'NoSuchKey') return undefined;
      throw new AwsCallError(code ?? 'NotFound', `s3://${this.bucket}/${key}: ${code ?? 'not found'}`, 404);
    }
    return new Uint8Array(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
  }

  async exists(key: string): Promise<boolean> {
    // HEAD answers have no body: a 404 can only mean the key (the bucket is ours).
    const answer = await signedRequest(this.call('HeadObject', 'HEAD', key), [200, 403, 404]);
    if (answer.statusCode === 403) return this.missingOrRefused(key, 'HeadObject');
    return answer.statusCode === 200;
  }
}
