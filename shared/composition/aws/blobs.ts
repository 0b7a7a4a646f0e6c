import { S3BlobStore } from '../../adapters/aws/s3-blobs.ts';
import { required } from '../../kernel/config.ts';
import type { CapabilityFactory } from './root.ts';

export const blobs: CapabilityFactory<'blobs'> = (root) =>
  new S3BlobStore(required(root.config.ordersBucket, 'ORDERS_BUCKET'));
