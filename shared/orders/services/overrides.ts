/**
 * Local stack only, and only for the HTTP order routes: the stand-ins of the bucket and the
 * queue they use. The workflow's functions are given their ports by their entry modules.
 */
import type { BlobStore, FulfilmentQueue } from '../../ports/orders.ts';

export interface OrderServiceOverrides {
  blobs?: BlobStore;
  queue?: FulfilmentQueue;
}

export const overrides: OrderServiceOverrides = {};

export function useOrderServices(standIns: OrderServiceOverrides): void {
  Object.assign(overrides, standIns);
}

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}
