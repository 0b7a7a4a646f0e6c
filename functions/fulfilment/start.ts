import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { workflowStarter } from '../../shared/orders/services/starter.ts';
import { executionName, parseFulfilmentMessage } from '../../shared/orders/sweep.ts';

const processor = new BatchProcessor(EventType.SQS);

/** Starts one execution per message; a redelivered message starts nothing new (same name). */
const startExecution = async (record: SQSRecord) => {
  const message = parseFulfilmentMessage(record.body);
  await workflowStarter().start(executionName(message), message);
};

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, startExecution, processor, { context });
