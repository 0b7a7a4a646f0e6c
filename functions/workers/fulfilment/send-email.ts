import { mailer } from '../../../shared/composition/aws/mailer.ts';
import { awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { blobs } from '../../../shared/orders/composition/blobs.ts';
import { orders } from '../../../shared/orders/composition.ts';
import { workflowTask } from '../../../shared/orders/instrumented.ts';
import type { WorkflowInput } from '../../../shared/orders/steps/common.ts';
import { type SendEmailPorts, sendEmail } from '../../../shared/orders/steps/send-email.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: SendEmailPorts) =>
  workflowTask('SendEmail', (input: WorkflowInput) => sendEmail(ports, input));

export const handler = createHandler(awsPorts({ orders, blobs, mailer, now }));
