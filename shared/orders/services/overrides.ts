/**
 * Local stack only: stand-ins for the AWS services of the asynchronous tier (a folder for S3, an
 * outbox folder for SES, an in-process queue and event log, aws-local-stepfunctions). Each
 * getter in this folder returns the stand-in when one is set, else builds the AWS adapter once.
 */
import type {
  BlobStore,
  EventPublisher,
  FulfilmentQueue,
  Mailer,
  WorkflowStarter,
} from '../../ports/orders.ts';

export interface OrderServiceOverrides {
  blobs?: BlobStore;
  mailer?: Mailer;
  events?: EventPublisher;
  queue?: FulfilmentQueue;
  starter?: WorkflowStarter;
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
