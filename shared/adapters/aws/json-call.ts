/**
 * One call to an AWS service that speaks the JSON protocol (`X-Amz-Target`: KMS, SQS,
 * EventBridge, Step Functions) over the signed request (signed-request.ts): the operation's input
 * as the API reference writes it, its output parsed. A refusal throws an AwsCallError named by its
 * error type (`QueueDoesNotExist`, `ExecutionAlreadyExists`).
 */
import { signedRequest } from './signed-request.ts';

export interface JsonApi {
  /** Signing name: `kms`, `sqs`, `events`, `states`. */
  service: string;
  /** The SDK's name of the service (`KMS`, `SQS`, `EventBridge`, `SFN`): the dependency recorded, `AWS_ENDPOINT_URL_<ID>`. */
  serviceId: string;
  /** The prefix of `X-Amz-Target`: `TrentService`, `AmazonSQS`, `AWSEvents`, `AWSStepFunctions`. */
  targetPrefix: string;
  /** `1.0` or `1.1`, as the service's protocol says. */
  jsonVersion: '1.0' | '1.1';
  /** The service's host in a region. */
  host: (region: string) => string;
}

export async function callJsonApi<T>(api: JsonApi, operation: string, input: object): Promise<T> {
  const answer = await signedRequest({
    service: api.service,
    serviceId: api.serviceId,
    operation,
    host: api.host,
    method: 'POST',
    path: '/',
    headers: {
      'Content-Type': `application/x-amz-json-${api.jsonVersion}`,
      'X-Amz-Target': `${api.targetPrefix}.${operation}`,
    },
    body: Buffer.from(JSON.stringify(input)),
  });
  return (answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : {}) as T;
}
