import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracer } from '../../observability.ts';

/** One client per process, created at module load and reused by every invocation. */
function createDocumentClient(): DynamoDBDocumentClient {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const client = new DynamoDBClient({
    ...(endpoint
      ? {
          endpoint,
          region: process.env.AWS_REGION ?? 'ap-southeast-2',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return DynamoDBDocumentClient.from(tracer.captureAWSv3Client(client), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

let documentClient: DynamoDBDocumentClient | undefined;

export const dynamo = (): DynamoDBDocumentClient => {
  documentClient ??= createDocumentClient();
  return documentClient;
};
