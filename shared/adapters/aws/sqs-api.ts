import { callJsonApi, type JsonApi } from './json-call.ts';

/** SQS's JSON protocol (`AmazonSQS.SendMessage`…), what the SDK has used since 2023. */
export const SQS: JsonApi = {
  service: 'sqs',
  serviceId: 'SQS',
  targetPrefix: 'AmazonSQS',
  jsonVersion: '1.0',
  host: (region) => `sqs.${region}.amazonaws.com`,
};

interface SendMessageBatchOutput {
  Failed?: { Id: string; Code?: string; Message?: string }[];
}

/** Sends messages as JSON, ten per `SendMessageBatch`; throws when SQS refuses any (`what` names them). */
export async function sendJsonBatches(
  queueUrl: string,
  messages: readonly unknown[],
  what: string,
): Promise<void> {
  for (let i = 0; i < messages.length; i += 10) {
    const batch = messages.slice(i, i + 10);
    const output = await callJsonApi<SendMessageBatchOutput>(SQS, 'SendMessageBatch', {
      QueueUrl: queueUrl,
      Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
    });
    if (output.Failed?.length) {
      throw new Error(`SQS refused ${output.Failed.length} ${what}: ${output.Failed[0]?.Code ?? ''}`);
    }
  }
}
