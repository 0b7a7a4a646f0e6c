/**
 * The bench's yardstick for module init: a read-by-id handler written the way the Powertools
 * examples write one (middy, Powertools logger, tracer and metrics, the SDK v3 document client's
 * `GetCommand`), bundled by the bench with the very esbuild settings of the deployed functions.
 * It is never deployed; no function of the service may start slower than it.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

const logger = new Logger({ serviceName: 'items' });
const tracer = new Tracer({ serviceName: 'items' });
const metrics = new Metrics({ namespace: 'Items', serviceName: 'items' });
const documents = DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient({})));
const tableName = process.env.TABLE_NAME ?? 'items';

const json = (statusCode: number, body: unknown): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const readItem = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  const id = event.pathParameters?.id;
  if (!id) return json(400, { message: 'id is required' });
  const { Item } = await documents.send(new GetCommand({ TableName: tableName, Key: { id } }));
  if (!Item) {
    logger.info('item not found', { id });
    return json(404, { message: `no item ${id}` });
  }
  metrics.addMetric('itemRead', MetricUnit.Count, 1);
  return json(200, Item);
};

export const handler = middy(readItem)
  .use(captureLambdaHandler(tracer))
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics, { captureColdStartMetric: true }));
