import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { tracer } from '../../observability.ts';
import type { BlobStore } from '../../ports/orders.ts';

let client: S3Client | undefined;

/** One client per process, created on first use. */
const s3 = (): S3Client => {
  client ??= tracer.captureAWSv3Client(new S3Client({}));
  return client;
};

const errorName = (error: unknown): string | undefined => (error instanceof Error ? error.name : undefined);

const statusOf = (error: unknown): number | undefined =>
  (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;

/**
 * Compiled PDFs and offline search results in the private orders bucket. Objects are written with
 * SSE-S3 (`AES256`), the bucket's own default encryption, so a put never depends on a KMS key.
 * A missing key reads as 404 (`NoSuchKey` / `NotFound`) only because the functions may
 * `s3:ListBucket`; without it S3 would answer 403 and `get` / `exists` would throw.
 */
export class S3BlobStore implements BlobStore {
  constructor(private readonly bucket: string) {}

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await s3().send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ServerSideEncryption: 'AES256',
      }),
    );
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const output = await s3().send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!output.Body) throw new Error(`s3://${this.bucket}/${key} has no body`);
      return await output.Body.transformToByteArray();
    } catch (error) {
      if (errorName(error) === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await s3().send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      // HEAD responses have no body, so the SDK can only name the status.
      if (errorName(error) === 'NotFound' || statusOf(error) === 404) return false;
      throw error;
    }
  }
}
