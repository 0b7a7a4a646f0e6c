/**
 * Every cdk-nag (v3) acknowledgement the app makes, with its reason, in one place so that the
 * reasons in code and in docs/infrastructure.md stay the same. Each is applied with
 * `Validations.of(construct).acknowledge(...)` to the narrowest construct that raises it, and
 * findings that carry a detail (IAM4/IAM5) are acknowledged per finding id (`Rule[detail]`).
 */
import { type Acknowledgment, Stack } from 'aws-cdk-lib';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';

/** Why nodejs22.x, and until when (AwsSolutions-L1 and Serverless-LambdaLatestVersion). */
export const NODE_RUNTIME_REASON =
  'nodejs22.x is the runtime decided for the service (design decision 1): local development, tests and ' +
  'the bundle target all run Node 22 (engines in package.json). Node.js 22 is maintained until 30 April ' +
  '2027, the date AWS Lambda deprecates nodejs22.x; the service moves to the next LTS runtime before ' +
  'then (docs/operations.md, "Runtime end of life").';

export const acknowledgements = {
  /** On each public API Gateway method (the documentation pages), which takes no key. */
  publicMethod: {
    id: 'AwsSolutions-APIG4',
    reason:
      'A public documentation page or asset (the API reference, the error reference, the OpenAPI ' +
      'document): it reads no customer data, takes no key and writes nothing; every other method has ' +
      'the key authorizer.',
  },
  /** On each API Gateway method. */
  methodCognito: {
    id: 'AwsSolutions-COG4',
    reason:
      'Clients are machines holding API keys (spec section 5), not Cognito users: keyed methods use the ' +
      'key authorizer (a TOKEN authorizer that checks the bearer key, lib/constructs/key-authorizer.ts) ' +
      'and each function checks the key again.',
  },
  /** On the RestApi. */
  requestValidation: {
    id: 'AwsSolutions-APIG2',
    reason:
      'Each function validates path, query and body with the route zod schemas and answers the spec ' +
      'error envelope (validation_error with param); API Gateway request validators cannot name the ' +
      'parameter or use the envelope, and the route table is the single source of the schemas.',
  },
  /** On the API stage, only when no web ACL is deployed (non-prod stages by default). */
  noWaf: {
    id: 'AwsSolutions-APIG3',
    reason:
      'Non-production stage without a WAFv2 web ACL to save its fixed monthly cost: every request is ' +
      'refused at the gateway without a well-formed, known API key (the key authorizer), limited per key ' +
      '(600/min, 20 concurrent) in the functions, and the stage is throttled from its contracted capacity. ' +
      'Production stages deploy the web ACL (context waf=true).',
  },
  /** On the API Gateway CloudWatch role (account-level setting that enables access/execution logs). */
  apiGatewayLogsManagedPolicy: {
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    reason:
      'AWS-managed policy made for exactly this role, assumable only by apigateway.amazonaws.com; API ' +
      'Gateway chooses the log group names of execution logs, so the permissions cannot be narrowed to ' +
      'known ARNs.',
  },
  /** On the CodeDeploy service role of each stack with live-alias deployment groups. */
  codeDeployManagedPolicy: {
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
    reason:
      'AWS-managed policy made for CodeDeploy shifting Lambda aliases, which CDK attaches to the role of ' +
      'every Lambda deployment group (one role per stack here, assumable only by codedeploy.amazonaws.com): ' +
      'it gets and updates aliases, describes alarms, and may publish to or invoke only CodeDeploy-named ' +
      'topics and hook functions, of which the service has none.',
  },
  /** On each function role. */
  xrayWildcard: {
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level ' +
      'permissions, so AWS requires Resource "*" for them; they are the only actions on "*" in the role.',
  },
  /** On the fulfilment state machine's role. */
  stateMachineWildcards: {
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Step Functions logging and tracing: the CloudWatch Logs delivery actions (logs:CreateLogDelivery, ' +
      'GetLogDelivery, UpdateLogDelivery, DeleteLogDelivery, ListLogDeliveries, PutResourcePolicy, ' +
      'DescribeResourcePolicies, DescribeLogGroups) and the X-Ray actions support no resource-level ' +
      'permissions, so AWS requires Resource "*"; Lambda invocation is granted on the task functions by ARN.',
  },
  /** On the secret. */
  cursorSecretRotation: {
    id: 'AwsSolutions-SMG4',
    reason:
      'Internal HMAC key that signs pagination cursors, not a credential shared with anyone: cursors live ' +
      '30 minutes and a rotation would invalidate every open cursor. Rotation is a manual runbook step ' +
      '(docs/infrastructure.md) that costs clients at most one restarted pagination.',
  },
  /** On the registry credential secret. */
  registryCredentialRotation: {
    id: 'AwsSolutions-SMG4',
    reason:
      'The registry issues this credential out of band (its operator creates and revokes it), so no ' +
      'rotation Lambda can make a new one; rotation is the manual runbook step in docs/infrastructure.md: ' +
      'obtain a new credential from the registry, put it in the secret, then revoke the old one.',
  },
  /** On each function. */
  runtimeVersion: {
    id: 'AwsSolutions-L1',
    reason: NODE_RUNTIME_REASON,
  },
  /** On each function (the Serverless pack's form of AwsSolutions-L1). */
  latestRuntime: {
    id: 'Serverless-LambdaLatestVersion',
    reason: NODE_RUNTIME_REASON,
  },
  /** On each function invoked synchronously only (routes, workflow tasks, queue consumers). */
  synchronousInvocation: {
    id: 'Serverless-LambdaDLQ',
    reason:
      'Invoked synchronously only: by API Gateway (the client gets the error envelope and retries), by ' +
      'Step Functions (its Retry and Catch handle the error) or by an SQS event source (the message ' +
      'returns to the queue and, after five receives, moves to the alarmed dead-letter queue). There ' +
      'is no asynchronous invocation whose event a dead-letter queue could keep.',
  },
  /** On each function invoked asynchronously (the schedules), which has an on-failure destination. */
  asyncFailureDestination: {
    id: 'Serverless-LambdaDLQ',
    reason:
      'Its asynchronous invocations have an on-failure destination (the failed-events queue, alarmed), ' +
      'which AWS recommends over a function dead-letter queue: the record keeps the error and the ' +
      'request, not only the event.',
  },
  /** On the event source mapping of each SQS queue (it invokes the consumer's live alias). */
  sqsEventSourceDestination: {
    id: 'Serverless-LambdaEventSourceMappingDestination',
    reason:
      'Lambda offers on-failure destinations for stream and Kafka event sources only, not for SQS: a ' +
      'message whose processing fails returns to the queue and, after five receives, moves to the ' +
      'queue’s dead-letter queue, which is alarmed and redriven (docs/operations.md).',
  },
  /** On the failed-events queue (a dead-letter queue of rules and functions, not of a queue). */
  failedEventsQueue: {
    id: 'AwsSolutions-SQS3',
    reason:
      'This queue is the dead-letter queue of the EventBridge rule targets, the on-failure destination ' +
      'of the scheduled functions and the redrive queue of the alarm subscription; AwsSolutions-SQS3 ' +
      'only recognises dead-letter queues of other queues. Nothing consumes it, so it needs none itself.',
  },
  /** On each dead-letter queue. */
  deadLetterQueueRedrive: {
    id: 'Serverless-SQSRedrivePolicy',
    reason:
      'This queue is itself a dead-letter queue: nothing consumes it, its messages are kept 14 days, ' +
      'raise an alarm at the first one and are inspected and redriven by an operator (docs/operations.md); ' +
      'a dead-letter queue of a dead-letter queue would only hide them.',
  },
} as const satisfies Record<string, Acknowledgment>;

export const BUCKET_OBJECT_KEYS_REASON =
  'Object-level S3 actions (GetObject, PutObject) can only name objects by key, and each order PDF or ' +
  'offline search result has its own key, made when the order is fulfilled: the grant is one key ' +
  'prefix of the private orders bucket (orders/ or offline-searches/), never the whole bucket or "*", ' +
  'and carries no delete (objects expire by lifecycle rule).';

/**
 * On each role granted the objects under one prefix of the orders bucket: the finding names the
 * resource as cdk-nag prints it (`flattenCfnReference` of the resolved ARN, here
 * `<stackName>:OrdersBucketArn/orders/*`), so the id is computed from the very same resource.
 */
export const bucketObjectKeys = (scope: IConstruct, objectsArn: string): Acknowledgment => ({
  id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(objectsArn))}]`,
  reason: BUCKET_OBJECT_KEYS_REASON,
});
