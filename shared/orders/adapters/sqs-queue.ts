import { callJsonApi } from '../../adapters/aws/json-call.ts';
import { SQS } from '../../adapters/aws/sqs-api.ts';
import type { FulfilmentMessage, FulfilmentQueue } from '../store-port.ts';

/**
 * Sends accepted orders and offline searches (and the sweeper's restarts) to the fulfilment
 * queue: one `SendMessage` over SQS's JSON API (shared/adapters/aws/json-call.ts, no SDK client).
 */
export class SqsFulfilmentQueue implements FulfilmentQueue {
  constructor(private readonly queueUrl: string) {}

  async send(message: FulfilmentMessage): Promise<void> {
    await callJsonApi(SQS, 'SendMessage', { QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) });
  }
}
