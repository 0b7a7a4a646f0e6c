/** Orders' documents in the orders bucket, on S3 (the local stack's stand-in is in shared/orders/local/). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { required } from '../../kernel/config.ts';
import { S3BlobStore } from '../adapters/s3-blobs.ts';
import { ORDERS_ENV } from '../env.ts';

export const blobs: PortFactory<'blobs'> = () =>
  new S3BlobStore(required(process.env[ORDERS_ENV.bucket], ORDERS_ENV.bucket));
