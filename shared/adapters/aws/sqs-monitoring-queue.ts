import type { MonitoringMessage, MonitoringQueue } from '../../monitoring/store-port.ts';
import { callJsonApi } from './json-call.ts';
import { SQS } from './sqs-api.ts';

interface SendMessageBatchOutput {
  Failed?: { Id: string; Code?: string; Message?: string }[];
}

/** Company monitoring's fan-out queue: ten messages per `SendMessageBatch`. */
export class SqsMonitoringQueue implements MonitoringQueue {
  constructor(private readonly queueUrl: string) {}

  async send(messages: readonly MonitoringMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      const output = await callJsonApi<SendMessageBatchOutput>(SQS, 'SendMessageBatch', {
        QueueUrl: this.queueUrl,
        Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
      });
      if (output.Failed?.length) {
        throw new Error(
          `SQS refused ${output.Failed.length} monitoring messages: ${output.Failed[0]?.Code ?? ''}`,
        );
      }
    }
  }
}
