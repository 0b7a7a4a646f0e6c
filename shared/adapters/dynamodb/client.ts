import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracer } from '../../kernel/observability.ts';

function createClient(): DynamoDBClient {
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
  return tracer.captureAWSv3Client(client);
}

let rawClient: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;

/** One client per process, created on first use and reused by every invocation. */
export const dynamoClient = (): DynamoDBClient => {
  rawClient ??= createClient();
  return rawClient;
};

export const dynamo = (): DynamoDBDocumentClient => {
  documentClient ??= DynamoDBDocumentClient.from(dynamoClient(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
};
