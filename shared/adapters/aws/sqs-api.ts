import type { JsonApi } from './json-call.ts';

/** SQS's JSON protocol (`AmazonSQS.SendMessage`…), what the SDK has used since 2023. */
export const SQS: JsonApi = {
  service: 'sqs',
  serviceId: 'SQS',
  targetPrefix: 'AmazonSQS',
  jsonVersion: '1.0',
  host: (region) => `sqs.${region}.amazonaws.com`,
};
