import { basename } from 'node:path';
import { Arn, ArnFormat, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
  type RecursiveLoop,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { DEFAULT_FUNCTION_TIMEOUT_MS } from '../../shared/kernel/http/time-budget.ts';
import type { TableDefinition } from '../../shared/kernel/infra/tables.ts';
import { lambdaBundling } from '../bundling.ts';
import { bucketObjectKeys } from '../nag.ts';

/**
 * How a function may use a table.
 * - `getItem`: `dynamodb:GetItem` on the table itself and nothing else (API key lookups).
 * - `read`: item reads and queries on the table and each of its named indexes.
 * - `readWrite`: `read` plus item puts and updates.
 * - `readWriteDelete`: `readWrite` plus `DeleteItem`, for the functions that delete items only.
 *
 * Like `grantReadData` / `grantReadWriteData`, minus `Scan` (no endpoint may scan: lists are
 * queries) and the stream actions (no streams), and with each index ARN named instead of
 * `<table>/index/*`. Transactions need no action of their own: DynamoDB authorizes each item of a
 * TransactWriteItems / TransactGetItems call against the action it performs.
 */
export type TableAccessLevel = 'getItem' | 'read' | 'readWrite' | 'readWriteDelete';

const READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
] as const;
/**
 * `BatchWriteItem` can delete too (a `DeleteRequest`) and IAM cannot tell its puts from its
 * deletes; the stores use it for puts only (document.ts `putAll`).
 */
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'] as const;

/** What `bindIndexQuery` grants, on the index alone. */
export const INDEX_QUERY_ACTION = 'dynamodb:Query';

export const TABLE_ACTIONS: Readonly<Record<TableAccessLevel, readonly string[]>> = {
  getItem: ['dynamodb:GetItem'],
  read: [...READ_ACTIONS],
  readWrite: [...READ_ACTIONS, ...WRITE_ACTIONS],
  readWriteDelete: [...READ_ACTIONS, ...WRITE_ACTIONS, 'dynamodb:DeleteItem'],
};

/**
 * How a function may use the orders bucket: `read` gets and heads objects, `readWrite` also puts
 * them. Both include `s3:ListBucket` on the bucket (no object access), without which S3 answers a
 * missing key with 403 instead of 404 and a missing object could not be told from a denied one.
 * No function lists: the grant is there for that answer alone, and it is limited to the function's
 * prefixes (`listPrefixCondition`). No delete: objects expire by the bucket's lifecycle rules.
 */
export type BucketAccessLevel = 'read' | 'readWrite';

export const BUCKET_OBJECT_ACTIONS: Readonly<Record<BucketAccessLevel, readonly string[]>> = {
  read: ['s3:GetObject'],
  readWrite: ['s3:GetObject', 's3:PutObject'],
};
export const BUCKET_LIST_ACTION = 's3:ListBucket';

/**
 * The condition on `s3:ListBucket`: a list must ask for one of the prefixes, and a list without a
 * prefix is refused (`StringLike`, not `StringLikeIfExists`). S3 then answers a GET or HEAD of a
 * missing key 403 rather than 404 (its check has no prefix), which the blob store tells from a real
 * refusal by listing under the key (shared/orders/adapters/s3-blobs.ts).
 */
export const listPrefixCondition = (prefixes: readonly string[]) => ({
  StringLike: { 's3:prefix': prefixes.map((prefix) => `${prefix}*`) },
});

/** The one SQS action a producer gets (`grantSendMessages` would add `GetQueueAttributes` and `GetQueueUrl`). */
export const QUEUE_SEND_ACTION = 'sqs:SendMessage';

/** Env vars of a function that calls the live registry: its base URL and its credential secret's ARN. */
/** Description of a function no route runs (a worker, a workflow task, the authorizer); names it so the console (and tests) can tell them apart. */
export const workflowFunctionDescription = (
  module: { readonly name: string; readonly handler: string },
  role: string,
): string => `${module.name}: ${role} (functions/${module.handler}.ts)`;

export const REGISTRY_URL_ENV = 'REGISTRY_URL';
export const REGISTRY_CREDENTIAL_ENV = 'REGISTRY_CREDENTIAL_ARN';

/** The one Secrets Manager action a function gets, on each secret bound to it. */
export const SECRET_READ_ACTION = 'secretsmanager:GetSecretValue';

/** SES sending actions: `SendEmail` (SES v2 simple content) and `SendRawEmail`, which it authorizes too. */
export const SES_SEND_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'] as const;

/** Item-level writes: every item a request touches must have a partition key with one of the prefixes. */
export const leadingKeysCondition = (prefixes: readonly string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((prefix) => `${prefix}*`) },
});

export interface ApiFunctionProps {
  /** TypeScript entry module exporting `handler`. */
  readonly entry: string;
  readonly description?: string;
  readonly environment?: Readonly<Record<string, string>>;
  /** Lock file that marks the project root for bundling. */
  readonly depsLockFilePath?: string;
  /**
   * Adds AWS's Parameters and Secrets extension, so the function reads secrets over localhost
   * instead of bundling a Secrets Manager client (about 35 KB and part of every cold start).
   */
  readonly readsSecrets?: boolean;
  /** Default `API_FUNCTION_DEFAULTS.timeout` (10 s); functions that call the registry get longer. */
  readonly timeout?: Duration;
  /** Default `API_FUNCTION_DEFAULTS.memorySize` (512 MB); workflow tasks set their own. */
  readonly memorySize?: number;
  /** Files (relative to the project root) copied next to the bundle, for the handler to read at run time. */
  readonly assets?: readonly string[];
  /** Reserved concurrency (functions that call the registry, sized by lib/registry-capacity.ts). */
  readonly reservedConcurrentExecutions?: number;
  /**
   * Lambda's recursive-loop detection: `Terminate` (AWS's default, left unset) stops a chain of
   * about 16 invocations through the same queue; a function that pages through work by sending
   * itself the next page sets `Allow`, with the reason.
   */
  readonly recursiveLoop?: RecursiveLoop;
}

/** The bundling, plus a copy of each asset into the bundle's directory after esbuild ran. */
export function bundlingWithAssets(assets: readonly string[] = []): BundlingOptions {
  if (assets.length === 0) return lambdaBundling;
  return {
    ...lambdaBundling,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) => [
        ...(lambdaBundling.commandHooks?.afterBundling(inputDir, outputDir) ?? []),
        ...assets.map((asset) => `cp "${inputDir}/${asset}" "${outputDir}/${basename(asset)}"`),
      ],
    },
  };
}

export const API_FUNCTION_DEFAULTS = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memorySize: 512,
  timeout: Duration.millis(DEFAULT_FUNCTION_TIMEOUT_MS),
  tracing: Tracing.ACTIVE,
} as const;

export const POWERTOOLS_ENVIRONMENT = {
  POWERTOOLS_SERVICE_NAME: 'company-register',
  POWERTOOLS_METRICS_NAMESPACE: 'CompanyRegister',
  POWERTOOLS_LOG_LEVEL: 'INFO',
} as const;

/**
 * A `NodejsFunction` with the service's fixed defaults: nodejs22.x on arm64, 512 MB and 10 s
 * (unless `memorySize` / `timeout` say otherwise),
 * X-Ray active tracing, CommonJS bundle by the local esbuild (see `lib/bundling.ts`) with its source map,
 * Powertools settings, and an explicit log group (its retention and removal are the stage's, set by
 * `LogRetentionAspect` in lib/constructs/log-retention.ts).
 *
 * The execution role is the function's own, with no managed policy: it may write to its own log
 * group only (instead of `AWSLambdaBasicExecutionRole`'s `logs:*` on every group), plus X-Ray and
 * whatever `bindTable` and `bindSecret` grant.
 */
export class ApiFunction extends NodejsFunction {
  /** The function's own log group (the stage's retention). */
  readonly functionLogGroup: LogGroup;
  /**
   * What esbuild builds its bundle with (a synth that skips bundling never runs it, so the infra
   * tests read it here: no function keeps the route entries' response schemas).
   */
  readonly bundling: BundlingOptions;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`);
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${id}`,
    });
    const bundling = bundlingWithAssets(props.assets);
    super(scope, id, {
      entry: props.entry,
      handler: 'handler',
      ...(props.description ? { description: props.description } : {}),
      ...(props.depsLockFilePath ? { depsLockFilePath: props.depsLockFilePath } : {}),
      runtime: API_FUNCTION_DEFAULTS.runtime,
      architecture: API_FUNCTION_DEFAULTS.architecture,
      memorySize: props.memorySize ?? API_FUNCTION_DEFAULTS.memorySize,
      timeout: props.timeout ?? API_FUNCTION_DEFAULTS.timeout,
      tracing: API_FUNCTION_DEFAULTS.tracing,
      role,
      logGroup,
      // A deploy that changes the function publishes a new version for its live alias
      // (lib/constructs/live-alias.ts); the one it replaces is deleted once the deploy has
      // succeeded (a failed deploy rolls back to it first), so versions do not pile up.
      currentVersionOptions: { removalPolicy: RemovalPolicy.DESTROY },
      bundling,
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      ...(props.recursiveLoop === undefined ? {} : { recursiveLoop: props.recursiveLoop }),
      ...(props.readsSecrets
        ? {
            paramsAndSecrets: ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
              cacheSize: 10,
              logLevel: ParamsAndSecretsLogLevel.WARN,
            }),
          }
        : {}),
      // Source maps ship beside the bundle but are not turned on: `--enable-source-maps` parses
      // the map at load, about 12 ms of every cold start. Set NODE_OPTIONS=--enable-source-maps
      // on a function while investigating to get mapped stack traces.
      environment: {
        ...POWERTOOLS_ENVIRONMENT,
        ...props.environment,
      },
    });
    logGroup.grantWrite(role);
    this.functionLogGroup = logGroup;
    this.bundling = bundling;
  }

  /**
   * Gives the function a table's name in the table's env var and the matching grant together, so
   * that a function is never told about a table it may not use, nor granted one it is not told about.
   */
  bindTable(
    table: ITable,
    definition: TableDefinition,
    access: TableAccessLevel,
    items?: readonly string[],
  ): void {
    this.addEnvironment(definition.envVar, table.tableName);
    const indexArns =
      access === 'getItem'
        ? []
        : definition.globalIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`);
    if (!items || access === 'getItem' || access === 'read') {
      this.addToRolePolicy(
        new PolicyStatement({
          actions: [...TABLE_ACTIONS[access]],
          resources: [table.tableArn, ...indexArns],
        }),
      );
      return;
    }
    // Reads anywhere (queries of the indexes included); writes only to the items named.
    this.addToRolePolicy(
      new PolicyStatement({ actions: [...TABLE_ACTIONS.read], resources: [table.tableArn, ...indexArns] }),
    );
    this.addToRolePolicy(
      new PolicyStatement({
        actions: TABLE_ACTIONS[access].filter((action) => !TABLE_ACTIONS.read.includes(action)),
        resources: [table.tableArn],
        conditions: leadingKeysCondition(items),
      }),
    );
  }

  /**
   * Gives the function the table's name and `dynamodb:Query` on one of its indexes alone: no read of
   * the table's items by their key, no other index, no write.
   */
  bindIndexQuery(table: ITable, definition: TableDefinition, indexName: string): void {
    if (!definition.globalIndexes.some((index) => index.indexName === indexName)) {
      throw new Error(`table ${definition.id} has no index ${indexName}`);
    }
    this.addEnvironment(definition.envVar, table.tableName);
    this.addToRolePolicy(
      new PolicyStatement({
        actions: [INDEX_QUERY_ACTION],
        resources: [`${table.tableArn}/index/${indexName}`],
      }),
    );
  }

  /**
   * Gives the function a secret's ARN in `envVar` and `secretsmanager:GetSecretValue` on that
   * secret alone: all the Parameters and Secrets extension calls (`grantRead` would add
   * `DescribeSecret`). The secrets use the AWS-managed key, so no KMS grant is needed.
   */
  bindSecret(secret: ISecret, envVar: string): void {
    this.addEnvironment(envVar, secret.secretArn);
    this.addToRolePolicy(
      new PolicyStatement({ actions: [SECRET_READ_ACTION], resources: [secret.secretArn] }),
    );
  }

  /** What a function that calls the live registry needs: its URL and its credential secret. */
  bindRegistry(registryUrl: string, credential: ISecret): void {
    this.addEnvironment(REGISTRY_URL_ENV, registryUrl);
    this.bindSecret(credential, REGISTRY_CREDENTIAL_ENV);
  }

  /**
   * Gives the function the bucket's name in `envVar` and the matching grant together: the object
   * actions of `access` on the keys under `prefixes` only, and `s3:ListBucket` on the bucket for
   * those prefixes.
   * The bucket uses SSE-S3, so no KMS grant is needed.
   */
  bindBucket(bucket: IBucket, envVar: string, access: BucketAccessLevel, prefixes: readonly string[]): void {
    this.addEnvironment(envVar, bucket.bucketName);
    const objects = prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`));
    this.addToRolePolicy(
      new PolicyStatement({ actions: [...BUCKET_OBJECT_ACTIONS[access]], resources: objects }),
    );
    Validations.of(this.role ?? this).acknowledge(...objects.map((arn) => bucketObjectKeys(this, arn)));
    this.addToRolePolicy(
      new PolicyStatement({
        actions: [BUCKET_LIST_ACTION],
        resources: [bucket.bucketArn],
        conditions: listPrefixCondition(prefixes),
      }),
    );
  }

  /**
   * `MAIL_FROM` (in `envVar`) and the SES send actions on the sender's identities: SES authorizes a
   * send against the verified identity the From address belongs to, the address itself or its
   * domain, so both ARNs are named, and `ses:FromAddress` keeps a domain identity from sending as
   * anyone else.
   */
  bindMail(envVar: string, mailFrom: string): void {
    this.addEnvironment(envVar, mailFrom);
    const domain = mailFrom.slice(mailFrom.indexOf('@') + 1);
    const identity = (name: string): string =>
      Arn.format(
        {
          service: 'ses',
          resource: 'identity',
          resourceName: name,
          arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
        },
        Stack.of(this),
      );
    this.addToRolePolicy(
      new PolicyStatement({
        actions: [...SES_SEND_ACTIONS],
        resources: [identity(mailFrom), identity(domain)],
        conditions: { StringEquals: { 'ses:FromAddress': mailFrom } },
      }),
    );
  }

  /** Gives the function the queue's URL in `envVar` and `sqs:SendMessage` on that queue alone (SQS-managed SSE: no KMS grant). */
  bindQueueSender(queue: IQueue, envVar: string): void {
    this.addEnvironment(envVar, queue.queueUrl);
    this.addToRolePolicy(new PolicyStatement({ actions: [QUEUE_SEND_ACTION], resources: [queue.queueArn] }));
  }
}
