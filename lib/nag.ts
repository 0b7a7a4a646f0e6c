/**
 * Every cdk-nag (v3) acknowledgement the app makes, with its reason, in one place so that the
 * reasons in code and in docs/infrastructure.md stay the same. Each is applied with
 * `Validations.of(construct).acknowledge(...)` to the narrowest construct that raises it, and
 * findings that carry a detail (IAM4/IAM5) are acknowledged per finding id (`Rule[detail]`).
 */
import { type Acknowledgment, Stack } from 'aws-cdk-lib';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';

export const acknowledgements = {
  /** On each API Gateway method. */
  methodAuthorization: {
    id: 'AwsSolutions-APIG4',
    reason:
      'Authentication is done in every function by the shared middleware: the bearer API key is hashed ' +
      'and looked up in the keys table, and a missing or bad key answers the spec envelope 401 ' +
      'unauthorized. An API Gateway authorizer could not produce that envelope, per-key rate state or ' +
      'test/live key environments.',
  },
  methodCognito: {
    id: 'AwsSolutions-COG4',
    reason:
      'Clients are machines holding API keys (spec section 5), not Cognito users; the keys are verified ' +
      'in the functions (see AwsSolutions-APIG4).',
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
      'authenticated by API key and limited per key (600/min, 20 concurrent) in the functions, and the ' +
      'stage is throttled to 100 rps (burst 200). Production stages deploy the web ACL (context waf=true).',
  },
  /** On the API Gateway CloudWatch role (account-level setting that enables access/execution logs). */
  apiGatewayLogsManagedPolicy: {
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    reason:
      'AWS-managed policy made for exactly this role, assumable only by apigateway.amazonaws.com; API ' +
      'Gateway chooses the log group names of execution logs, so the permissions cannot be narrowed to ' +
      'known ARNs.',
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
    reason:
      'nodejs22.x is the runtime decided for the service (design decision 1): local development, tests ' +
      'and the bundle target all run Node 22, and it is a supported Lambda runtime.',
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
