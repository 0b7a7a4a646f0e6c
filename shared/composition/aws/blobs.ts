import { required } from '../../kernel/config.ts';
import { S3BlobStore } from '../../orders/adapters/s3-blobs.ts';
import type { CapabilityFactory } from './root.ts';

export const blobs: CapabilityFactory<'blobs'> = (root) =>
  new S3BlobStore(required(root.config.ordersBucket, 'ORDERS_BUCKET'));
