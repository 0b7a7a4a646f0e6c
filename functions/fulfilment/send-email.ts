import { systemClock } from '../../shared/domain/clock.ts';
import { s3BlobStore } from '../../shared/orders/services/blobs.ts';
import { workflowTask } from '../../shared/orders/services/instrumented.ts';
import { sesMailer } from '../../shared/orders/services/mailer.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import type { WorkflowInput } from '../../shared/orders/steps/common.ts';
import { type SendEmailPorts, sendEmail } from '../../shared/orders/steps/send-email.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: SendEmailPorts) =>
  workflowTask('SendEmail', (input: WorkflowInput) => sendEmail(ports, input));

export const handler = createHandler({
  orders: orderStore(),
  blobs: s3BlobStore(),
  mailer: sesMailer(),
  now: () => systemClock.now(),
});
