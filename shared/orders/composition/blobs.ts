/** Orders' documents in the orders bucket, on S3 (the local stack's stand-in is in shared/orders/local/). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { required } from '../../kernel/config.ts';
import { S3BlobStore } from '../adapters/s3-blobs.ts';

export const blobs: PortFactory<'blobs'> = (root) =>
  new S3BlobStore(required(root.config.ordersBucket, 'ORDERS_BUCKET'));
