import type { Mailer, MailMessage } from '../../kernel/ports/mailer.ts';
import { signedRequest } from './signed-request.ts';

/** Header that carries the message's idempotency key to the recipient's copy (support, tracing). */
export const IDEMPOTENCY_HEADER = 'X-Company-Register-Idempotency-Key';
/** SES message tag with the same key, searchable in SES event publishing (sends, bounces). */
export const IDEMPOTENCY_TAG = 'idempotency-key';

/** Message tag values allow only ASCII letters, digits, `_` and `-`, at most 256 characters. */
export const tagValue = (key: string): string => key.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256);

/** The body of SES v2 `SendEmail` (simple content with attachments), as the SDK would send it. */
export function sendEmailRequest(from: string, message: MailMessage) {
  return {
    FromEmailAddress: from,
    Destination: { ToAddresses: [message.to] },
    Content: {
      Simple: {
        Subject: { Data: message.subject, Charset: 'UTF-8' },
        Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
        Headers: [{ Name: IDEMPOTENCY_HEADER, Value: message.idempotencyKey }],
        Attachments: message.attachments.map((attachment) => ({
          FileName: attachment.filename,
          ContentType: attachment.contentType,
          // A blob in SES's JSON protocol: base64.
          RawContent: Buffer.from(attachment.content).toString('base64'),
          ContentDisposition: 'ATTACHMENT',
          ContentTransferEncoding: 'BASE64',
        })),
      },
    },
    EmailTags: [{ Name: IDEMPOTENCY_TAG, Value: tagValue(message.idempotencyKey) }],
  };
}

/**
 * Sends mail through SES v2 (`SendEmail` with simple content and attachments), over its REST API
 * (signed-request.ts).
 *
 * SES has no idempotency key: two calls send two messages. A retried step must not send again,
 * and that is the caller's job: the workflow step checks and records the order's state around
 * the send, so `message.idempotencyKey` is only carried along (as a header and a message tag)
 * for tracing a message back to its order.
 */
export class SesMailer implements Mailer {
  constructor(private readonly from: string) {}

  async send(message: MailMessage): Promise<void> {
    await signedRequest({
      service: 'ses',
      serviceId: 'SESv2',
      operation: 'SendEmail',
      method: 'POST',
      host: (region) => `email.${region}.amazonaws.com`,
      path: '/v2/email/outbound-emails',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from(JSON.stringify(sendEmailRequest(this.from, message))),
    });
  }
}
