import { S3BlobStore } from '../../adapters/aws/s3-blobs.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { BlobStore } from '../../ports/orders.ts';
import { overrides, requiredEnv } from './overrides.ts';

let built: BlobStore | undefined;

export const blobStore = (): BlobStore => {
  if (overrides.blobs) return overrides.blobs;
  built ??= new S3BlobStore(requiredEnv(ORDER_ENV.bucket));
  return built;
};
