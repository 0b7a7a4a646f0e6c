import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../shared/http/route.ts';
import { functionTimeoutMs, INTEGRATION_TIMEOUT_MS } from '../shared/http/time-budget.ts';
import { type TableId, tableDefinitions } from '../shared/infra/tables.ts';
import { ORDER_ENV } from '../shared/infra/workflow.ts';
import {
  ApiFunction,
  REGISTRY_CREDENTIAL_ENV,
  REGISTRY_URL_ENV,
  type TableAccessLevel,
} from './constructs/api-function.ts';
import { Fulfilment } from './constructs/fulfilment.ts';
import { ApiWebAcl } from './constructs/web-acl.ts';
import { ORDER_BLOB_PREFIXES } from './data-stack.ts';
import { envelopeTemplate, gatewayResponseHeaders, gatewayResponseMappings } from './gateway-responses.ts';
import { acknowledgements } from './nag.ts';
import { defaultEntryFor, type EntryFor, PROJECT_ROOT, paginates } from './routes.ts';
import { type Settings, STAGE_THROTTLING } from './settings.ts';

export interface ApiStackProps extends StackProps {
  readonly settings: Settings;
  readonly tables: Readonly<Record<TableId, ITable>>;
  readonly cursorSecret: ISecret;
  /** Credential of the live registry; read only by the functions of routes with `usesRegistry`. */
  readonly registryCredentialSecret: ISecret;
  /** Compiled order PDFs and offline search results (data stack). */
  readonly ordersBucket: IBucket;
  /** The endpoints; one function and one API Gateway method each. */
  readonly routes: readonly RouteDefinition[];
  /** Entry module of a route's or workflow's function (default `functions/<handler>.ts`). */
  readonly entryFor?: EntryFor;
}

/** What every function gets, whatever its route says: API key lookups and rate-limit counters. */
export const BASELINE_TABLE_ACCESS: Readonly<Partial<Record<TableId, TableAccessLevel>>> = {
  keys: 'getItem',
  limits: 'readWrite',
};

export const CURSOR_SECRET_ENV = 'CURSOR_SECRET_ARN';
export const DOCS_URL_ENV = 'DOCS_URL';
export { defaultEntryFor, REGISTRY_CREDENTIAL_ENV, REGISTRY_URL_ENV };

/**
 * Every type is binary to API Gateway, so that the download's base64 body (`isBase64Encoded`)
 * reaches any client as PDF bytes whatever its `Accept` header (with only `application/pdf`
 * listed, a client accepting any type would get base64 text). JSON responses are not base64-encoded and pass
 * through unchanged; request bodies arrive base64-encoded and the pipeline decodes them.
 */
export const BINARY_MEDIA_TYPES = ['*/*'] as const;

/**
 * API Gateway's integration timeout for every method, set explicitly so that the template states
 * it. It and every function's timeout come from shared/http/time-budget.ts, which the local stack
 * and the pipeline read too.
 */
export const INTEGRATION_TIMEOUT = Duration.millis(INTEGRATION_TIMEOUT_MS);

/** A route's function timeout: longer for routes that call the registry, the default otherwise. */
export const functionTimeoutFor = (route: RouteDefinition): Duration =>
  Duration.millis(functionTimeoutMs(route));

/** Whether a route's function reads a secret (and so gets the Parameters and Secrets extension). */
export const readsSecrets = (route: RouteDefinition): boolean =>
  paginates(route) || route.usesRegistry === true;

const ACCESS_RANK: Record<TableAccessLevel, number> = { getItem: 0, read: 1, readWrite: 2 };

/** Baseline access widened by the route's own `tables` entries (never narrowed). */
export function tableAccessFor(route: RouteDefinition): Partial<Record<TableId, TableAccessLevel>> {
  const access: Partial<Record<TableId, TableAccessLevel>> = { ...BASELINE_TABLE_ACCESS };
  for (const [id, level] of Object.entries(route.tables) as [TableId, TableAccessLevel | undefined][]) {
    if (!level) continue;
    const current = access[id];
    if (!current || ACCESS_RANK[level] > ACCESS_RANK[current]) access[id] = level;
  }
  return access;
}

/** Description of a route's function; names the route so the console (and tests) can tell them apart. */
export const functionDescription = (route: RouteDefinition): string =>
  `${route.name}: ${route.method} ${route.path} (functions/${route.handler}.ts)`;

/**
 * The stateless stack: one Lambda function per route behind an API Gateway REST API (functions of
 * routes that call the registry also get its URL, its credential secret and a longer timeout), with access
 * logs, execution logs (errors), X-Ray, stage throttling, gateway responses in the service's error
 * envelope and, when `settings.waf`, a WAFv2 web ACL; and the fulfilment tier (`Fulfilment`:
 * queue, workflow, event bus, sweeper). The two share a stack because each needs the other:
 * order routes send to the queue, and the workflow's last task needs the API's URL for
 * `downloadUrl`; as two stacks that would be a cycle of exports.
 */
export class ApiStack extends Stack {
  readonly api: RestApi;
  /** Route functions by route name. */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  readonly fulfilment: Fulfilment;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { settings, routes } = props;
    const entryFor = props.entryFor ?? defaultEntryFor;

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const api = new RestApi(this, 'Api', {
      restApiName: `company-register-${settings.stage}`,
      description: `Company Register Data Service (${settings.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      // The account-level role that lets API Gateway write access and execution logs. Retained so
      // that deleting one stage's stack does not switch logging off for the others in the region.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: settings.stage,
        tracingEnabled: true,
        metricsEnabled: true,
        // Execution logs for errors only, and never request/response bodies (they carry API keys).
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        throttlingRateLimit: STAGE_THROTTLING.rateLimit,
        throttlingBurstLimit: STAGE_THROTTLING.burstLimit,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    this.api = api;

    // API Gateway would create the execution log group itself, with no retention: create it first.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${settings.stage}`,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    api.deploymentStage.node.addDependency(executionLogs);

    Validations.of(api).acknowledge(acknowledgements.requestValidation);
    Validations.of(api.node.findChild('CloudWatchRole')).acknowledge(
      acknowledgements.apiGatewayLogsManagedPolicy,
    );

    for (const mapping of gatewayResponseMappings) {
      api.addGatewayResponse(`GatewayResponse${pascal(mapping.type.responseType)}`, {
        type: mapping.type,
        statusCode: String(mapping.status),
        responseHeaders: gatewayResponseHeaders(mapping),
        templates: { 'application/json': envelopeTemplate(mapping, settings.docsUrl) },
      });
    }

    // Built from the API's id rather than `api.url`, which would make the functions depend on the
    // stage, and so (through the deployment) on every method and route function: a cycle.
    const apiBaseUrl = `https://${api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${settings.stage}`;
    this.fulfilment = new Fulfilment(this, 'Fulfilment', {
      settings,
      mainTable: props.tables.main,
      registryCredentialSecret: props.registryCredentialSecret,
      ordersBucket: props.ordersBucket,
      apiBaseUrl,
      entryFor,
    });

    const functions = new Map<string, ApiFunction>();
    for (const route of routes) {
      if (functions.has(route.name)) throw new Error(`duplicate route name ${route.name}`);
      const fn = this.createFunction(route, entryFor(route), props, apiBaseUrl);
      functions.set(route.name, fn);
      const integration = new LambdaIntegration(fn, {
        allowTestInvoke: false,
        timeout: INTEGRATION_TIMEOUT,
      });
      const method = api.root.resourceForPath(route.path).addMethod(route.method, integration, {
        operationName: route.name,
        authorizationType: AuthorizationType.NONE,
      });
      Validations.of(method).acknowledge(
        acknowledgements.methodAuthorization,
        acknowledgements.methodCognito,
      );
    }
    this.functions = functions;

    if (settings.waf) {
      new ApiWebAcl(this, 'WebAcl', {
        stage: api.deploymentStage,
        name: `company-register-${settings.stage}`,
      });
    } else {
      Validations.of(api.deploymentStage).acknowledge(acknowledgements.noWaf);
    }

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL; paths start with /v1' });
  }

  private createFunction(
    route: RouteDefinition,
    entry: string,
    props: ApiStackProps,
    apiBaseUrl: string,
  ): ApiFunction {
    const timeout = functionTimeoutFor(route);
    if (timeout.toMilliseconds() > INTEGRATION_TIMEOUT.toMilliseconds()) {
      throw new Error(`${route.name}: function timeout exceeds the API Gateway integration timeout`);
    }
    const fn = new ApiFunction(this, `${route.name}Function`, {
      entry,
      description: functionDescription(route),
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      environment: { [DOCS_URL_ENV]: props.settings.docsUrl, [ORDER_ENV.apiBaseUrl]: apiBaseUrl },
      readsSecrets: readsSecrets(route),
      timeout,
    });
    Validations.of(fn).acknowledge(acknowledgements.runtimeVersion);
    Validations.of(fn.role ?? fn).acknowledge(acknowledgements.xrayWildcard);

    for (const [id, level] of Object.entries(tableAccessFor(route)) as [TableId, TableAccessLevel][]) {
      fn.bindTable(props.tables[id], tableDefinitions[id], level);
    }
    if (paginates(route)) fn.bindSecret(props.cursorSecret, CURSOR_SECRET_ENV);
    if (route.usesRegistry) fn.bindRegistry(props.settings.registryUrl, props.registryCredentialSecret);
    const uses = new Set(route.uses ?? []);
    if (uses.has('queue')) fn.bindQueueSender(this.fulfilment.queue, ORDER_ENV.queueUrl);
    if (uses.has('blobs')) fn.bindBucket(props.ordersBucket, ORDER_ENV.bucket, 'read', ORDER_BLOB_PREFIXES);
    return fn;
  }
}

/** JSON access log line; no header or body is logged (Authorization carries the API key). */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  path: '$context.path',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integration.latency',
  integrationStatus: '$context.integration.status',
  errorType: '$context.error.responseType',
  errorMessage: '$context.error.message',
  wafResponseCode: '$context.wafResponseCode',
  xrayTraceId: '$context.xrayTraceId',
} as const;

const pascal = (snake: string): string =>
  snake
    .toLowerCase()
    .split('_')
    .map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}`)
    .join('');
