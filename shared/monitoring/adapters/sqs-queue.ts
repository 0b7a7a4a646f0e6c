import { sendJsonBatches } from '../../adapters/aws/sqs-api.ts';
import type { MonitoringMessage, MonitoringQueue } from '../store-port.ts';

/** Company monitoring's fan-out queue: ten messages per `SendMessageBatch`. */
export class SqsMonitoringQueue implements MonitoringQueue {
  constructor(private readonly queueUrl: string) {}

  send(messages: readonly MonitoringMessage[]): Promise<void> {
    return sendJsonBatches(this.queueUrl, messages, 'monitoring messages');
  }
}
