import { S3BlobStore } from '../../adapters/aws/s3-blobs.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { BlobStore } from '../../ports/orders.ts';
import { requiredEnv } from './env.ts';

/**
 * The orders bucket (`ORDERS_BUCKET`), its adapter built on first use: a module that builds its
 * ports at import still loads where the variable is not set (the local stack passes stand-ins).
 */
export function s3BlobStore(): BlobStore {
  let built: BlobStore | undefined;
  const s3 = () => {
    built ??= new S3BlobStore(requiredEnv(ORDER_ENV.bucket));
    return built;
  };
  return {
    put: (key, body, contentType) => s3().put(key, body, contentType),
    get: (key) => s3().get(key),
    exists: (key) => s3().exists(key),
  };
}
