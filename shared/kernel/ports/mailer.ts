/**
 * The mailer: orders send their files and offline searches' results, the console its sign-in links
 * and invitations, spend caps their alerts (SES on Lambda, an outbox on the local stack).
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Uint8Array }[];
  /** Sending again with the same key sends nothing (a retried step). */
  idempotencyKey: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
