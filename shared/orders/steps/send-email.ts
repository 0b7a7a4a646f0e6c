import { toTimestamp } from '../../kernel/clock.ts';
import type { Mailer } from '../../kernel/ports/mailer.ts';
import type { BlobStore, OrderRecord, OrderStore } from '../store-port.ts';
import { type Clock, isFinished, loadOrder, type WorkflowInput } from './common.ts';

export interface SendEmailPorts extends Clock {
  orders: Pick<OrderStore, 'get' | 'update'>;
  blobs: Pick<BlobStore, 'get'>;
  mailer: Mailer;
}

const emailText = (order: OrderRecord) =>
  [
    `Your ${order.type === 'charges_extract' ? 'charges extract' : 'document image'} order ${order.id} is attached as a PDF.`,
    ...(order.company ? [`Company: ${(order.company as { name: string }).name}`] : []),
    ...order.notices.map((notice) => `Note: ${notice}`),
    '',
    'Company Register Data Service',
  ].join('\n');

/** Emails the PDF once: a send is recorded on the order (`dispatchedAt`), and the mail is keyed. */
export async function sendEmail(ports: SendEmailPorts, input: WorkflowInput) {
  const order = await loadOrder(ports.orders, input.id);
  if (isFinished(order.status) || order.dispatchedAt) return { sent: false };
  const pdf = order.pdfKey ? await ports.blobs.get(order.pdfKey) : undefined;
  if (!pdf) throw new Error(`order ${order.id} has no compiled PDF to email`);
  await ports.mailer.send({
    to: order.delivery.email as string,
    subject: `Your order ${order.id}`,
    text: emailText(order),
    attachments: [{ filename: `${order.id}.pdf`, contentType: 'application/pdf', content: pdf }],
    idempotencyKey: `${order.id}#email`,
  });
  await ports.orders.update(order.id, {
    dispatchedAt: toTimestamp(ports.now()),
    updatedAt: toTimestamp(ports.now()),
  });
  return { sent: true };
}
