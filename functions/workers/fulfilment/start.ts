import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { awsPorts } from '../../../shared/composition/aws/root.ts';
import { starter } from '../../../shared/orders/composition/starter.ts';
import { FULFILMENT_STARTER } from '../../../shared/orders/infra.ts';
import { instrumented } from '../../../shared/orders/instrumented.ts';
import type { WorkflowStarter } from '../../../shared/orders/store-port.ts';
import { executionName, parseFulfilmentMessage } from '../../../shared/orders/sweep.ts';

/**
 * Starts one execution per message; a redelivered message starts nothing new (same name). The
 * local stack passes its workflow as the starter.
 */
export function createHandler(ports: { starter: WorkflowStarter }) {
  const processor = new BatchProcessor(EventType.SQS);
  const startExecution = async (record: SQSRecord) => {
    const message = parseFulfilmentMessage(record.body);
    await ports.starter.start(executionName(message), message);
  };
  return instrumented(
    FULFILMENT_STARTER.name,
    (event: SQSEvent, context) => processPartialResponse(event, startExecution, processor, { context }),
    {
      keysOf: (event) => ({ messages: String(event.Records.length) }),
      summary: (result) => ({
        failedMessages: (result as { batchItemFailures: unknown[] }).batchItemFailures.length,
      }),
    },
  );
}

export const handler = createHandler(awsPorts({ starter }));
