import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { TableDefinition } from '../../shared/infra/tables.ts';
import { lambdaBundling } from '../bundling.ts';

/**
 * How a function may use a table.
 * - `getItem`: `dynamodb:GetItem` on the table itself and nothing else (API key lookups).
 * - `read`: item reads and queries on the table and each of its named indexes.
 * - `readWrite`: `read` plus item writes.
 *
 * Like `grantReadData` / `grantReadWriteData`, minus `Scan` (no endpoint may scan: lists are
 * queries) and the stream actions (no streams), and with each index ARN named instead of
 * `<table>/index/*`. Transactions need no action of their own: DynamoDB authorizes each item of a
 * TransactWriteItems / TransactGetItems call against the action it performs.
 */
export type TableAccessLevel = 'getItem' | 'read' | 'readWrite';

export const TABLE_ACTIONS: Readonly<Record<TableAccessLevel, readonly string[]>> = {
  getItem: ['dynamodb:GetItem'],
  read: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:DescribeTable',
  ],
  readWrite: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:DescribeTable',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
};

/** The one Secrets Manager action a function gets, on each secret bound to it. */
export const SECRET_READ_ACTION = 'secretsmanager:GetSecretValue';

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
}

export const API_FUNCTION_DEFAULTS = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memorySize: 512,
  timeout: Duration.seconds(10),
  tracing: Tracing.ACTIVE,
  logRetention: RetentionDays.ONE_MONTH,
} as const;

export const POWERTOOLS_ENVIRONMENT = {
  POWERTOOLS_SERVICE_NAME: 'company-register',
  POWERTOOLS_METRICS_NAMESPACE: 'CompanyRegister',
  POWERTOOLS_LOG_LEVEL: 'INFO',
} as const;

/**
 * A `NodejsFunction` with the service's fixed defaults: nodejs22.x on arm64, 512 MB, 10 s (unless
 * `timeout` says otherwise),
 * X-Ray active tracing, ESM bundle by the local esbuild (see `lib/bundling.ts`), source maps on,
 * Powertools settings, and an explicit log group with a one-month retention.
 *
 * The execution role is the function's own, with no managed policy: it may write to its own log
 * group only (instead of `AWSLambdaBasicExecutionRole`'s `logs:*` on every group), plus X-Ray and
 * whatever `bindTable` and `bindSecret` grant.
 */
export class ApiFunction extends NodejsFunction {
  /** The function's own log group (one-month retention). */
  readonly functionLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: API_FUNCTION_DEFAULTS.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${id}`,
    });
    super(scope, id, {
      entry: props.entry,
      handler: 'handler',
      ...(props.description ? { description: props.description } : {}),
      ...(props.depsLockFilePath ? { depsLockFilePath: props.depsLockFilePath } : {}),
      runtime: API_FUNCTION_DEFAULTS.runtime,
      architecture: API_FUNCTION_DEFAULTS.architecture,
      memorySize: API_FUNCTION_DEFAULTS.memorySize,
      timeout: props.timeout ?? API_FUNCTION_DEFAULTS.timeout,
      tracing: API_FUNCTION_DEFAULTS.tracing,
      role,
      logGroup,
      bundling: lambdaBundling,
      ...(props.readsSecrets
        ? {
            paramsAndSecrets: ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
              cacheSize: 10,
              logLevel: ParamsAndSecretsLogLevel.WARN,
            }),
          }
        : {}),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...POWERTOOLS_ENVIRONMENT,
        ...props.environment,
      },
    });
    logGroup.grantWrite(role);
    this.functionLogGroup = logGroup;
  }

  /**
   * Gives the function a table's name in the table's env var and the matching grant together, so
   * that a function is never told about a table it may not use, nor granted one it is not told about.
   */
  bindTable(table: ITable, definition: TableDefinition, access: TableAccessLevel): void {
    this.addEnvironment(definition.envVar, table.tableName);
    const indexArns =
      access === 'getItem'
        ? []
        : definition.globalIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`);
    this.addToRolePolicy(
      new PolicyStatement({ actions: [...TABLE_ACTIONS[access]], resources: [table.tableArn, ...indexArns] }),
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
}
