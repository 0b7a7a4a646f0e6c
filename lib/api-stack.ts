import { Aspects, CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  BasePathMapping,
  type CfnRestApi,
  DomainName,
  EndpointAccessMode,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { Dashboard } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription, UrlSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import type { TableId } from '../shared/kernel/infra/tables.ts';
import { StageAlarms } from './alarms.ts';
import { ApiAreaStack, areaStackId } from './api-area-stack.ts';
import type { BuiltCapability, SharedResources } from './capability-construct.ts';
import { capabilityConstructs, routeBindings } from './capability-constructs.ts';
import type { ApiFunction } from './constructs/api-function.ts';
import { REGISTRY_CREDENTIAL_ENV, REGISTRY_URL_ENV } from './constructs/api-function.ts';
import { FailedEvents } from './constructs/failed-events.ts';
import { KeyAuthorizer } from './constructs/key-authorizer.ts';
import { LiveAliases } from './constructs/live-alias.ts';
import { LogRetentionAspect } from './constructs/log-retention.ts';
import { ApiWebAcl } from './constructs/web-acl.ts';
import { byModuleName } from './constructs/worker-function.ts';
import { stageDashboard } from './dashboard.ts';
import { envelopeTemplate, gatewayResponseHeaders, gatewayResponseMappings } from './gateway-responses.ts';
import { MonitoringStack } from './monitoring-stack.ts';
import { acknowledgements } from './nag.ts';
import { registryShare } from './registry-capacity.ts';
import { checkRouteAreas, defaultEntryFor, type EntryFor, type RouteArea } from './routes.ts';
import { type Settings, stageThrottling } from './settings.ts';

export {
  ApiAreaStack,
  areaStackId,
  BASELINE_TABLE_ACCESS,
  CURSOR_SECRET_ENV,
  DOCS_URL_ENV,
  functionDescription,
  functionTimeoutFor,
  INTEGRATION_TIMEOUT,
  readsSecrets,
  tableAccessFor,
} from './api-area-stack.ts';
export { defaultEntryFor, REGISTRY_CREDENTIAL_ENV, REGISTRY_URL_ENV };

export interface ApiStackProps extends StackProps {
  readonly settings: Settings;
  readonly tables: Readonly<Record<TableId, ITable>>;
  readonly cursorSecret: ISecret;
  /** Credential of the live registry; read only by the functions of routes with `usesRegistry`. */
  readonly registryCredentialSecret: ISecret;
  /** Compiled order PDFs and offline search results (data stack). */
  readonly ordersBucket: IBucket;
  /** Seals webhook signing secrets (data stack). */
  readonly webhookKey: IKey;
  /** The endpoints by area; one nested stack per area, one function and one method per route. */
  readonly areas: readonly RouteArea[];
  /** Entry module of a route's or workflow's function (default `functions/<handler>.ts`). */
  readonly entryFor?: EntryFor;
}

/**
 * Every type is binary to API Gateway, so that the download's base64 body (`isBase64Encoded`)
 * reaches any client as PDF bytes whatever its `Accept` header (with only `application/pdf`
 * listed, a client accepting any type would get base64 text). JSON responses are not base64-encoded and pass
 * through unchanged; request bodies arrive base64-encoded and the pipeline decodes them.
 */
export const BINARY_MEDIA_TYPES = ['*/*'] as const;

/**
 * The stateless stack: an API Gateway REST API (its resources, deployment and stage, with access
 * logs, execution logs (errors), X-Ray, stage throttling, gateway responses in the service's error
 * envelope and, when `settings.waf`, a WAFv2 web ACL), each capability's own constructs (its
 * `cdk/stack.ts`, lib/capability-constructs.ts: the fulfilment tier, the webhook tier, the reference
 * refresh, company monitoring's jobs), and one nested stack per route area (`ApiAreaStack`) with the
 * area's functions, methods and invoke permissions (functions of routes that call the registry
 * also get its URL, its credential secret and a longer timeout). Areas are nested stacks so that
 * every template stays well under CloudFormation's resource limit while one `cdk deploy` still
 * deploys the whole API, with CDK passing the API's ids and the queue as parameters.
 *
 * The fulfilment tier (orders') shares this stack with the API because each needs the other: order routes
 * send to the queue, and the workflow's last task needs the API's URL for `downloadUrl`; as two
 * stacks that would be a cycle of exports.
 */
export class ApiStack extends Stack {
  readonly api: RestApi;
  /** Route functions by route name (each in its area's nested stack). */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  /** Area nested stacks by area name. */
  readonly areas: ReadonlyMap<string, ApiAreaStack>;
  /** Every alarm of the stage notifies this topic (`-c alarmEmail=` subscribes an address). */
  readonly alarmTopic: Topic;
  /** The stage-wide alarms, and those of the fulfilment and webhook tiers. */
  readonly monitoring: MonitoringStack;
  readonly dashboard: Dashboard;
  /** Events and invocations that could not be delivered (rule targets, scheduled functions, alarm mail). */
  readonly failedEvents: FailedEvents;
  /** The edge check of every keyed route (lib/constructs/key-authorizer.ts). */
  readonly keyAuthorizer: KeyAuthorizer;
  /** What each capability built of its own (its construct, queues, dashboard parts), by capability name. */
  readonly capabilities: ReadonlyMap<string, BuiltCapability>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const entryFor = props.entryFor ?? defaultEntryFor;
    checkRouteAreas(props.areas, []);

    // Every log group of the stack (and its nested stacks) keeps the stage's retention and, on a
    // live stage, outlives the stack (lib/constructs/log-retention.ts).
    Aspects.of(this).add(new LogRetentionAspect(settings));
    const accessLogs = new LogGroup(this, 'AccessLogs');
    const throttling = stageThrottling(settings.contractedKeys);

    const api = new RestApi(this, 'Api', {
      restApiName: `company-register-${settings.stage}`,
      description: `Company Register Data Service (${settings.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      // With a custom domain, the API answers there only (its TLS policy, its host name).
      disableExecuteApiEndpoint: settings.domain !== undefined,
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
        throttlingRateLimit: throttling.rateLimit,
        throttlingBurstLimit: throttling.burstLimit,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    this.api = api;
    // TLS 1.2 or 1.3 only (with post-quantum key exchange offered), on the execute-api endpoint
    // too; STRICT refuses a request whose SNI host is not this API's (no domain fronting).
    const cfnApi = api.node.defaultChild as CfnRestApi;
    cfnApi.securityPolicy = API_SECURITY_POLICY;
    cfnApi.endpointAccessMode = EndpointAccessMode.STRICT;

    if (settings.domain) {
      const domain = new DomainName(this, 'Domain', {
        domainName: settings.domain.name,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', settings.domain.certificateArn),
        endpointType: EndpointType.REGIONAL,
        securityPolicy: API_SECURITY_POLICY,
        endpointAccessMode: EndpointAccessMode.STRICT,
      });
      new BasePathMapping(this, 'DomainMapping', {
        domainName: domain,
        restApi: api,
        stage: api.deploymentStage,
      });
      new CfnOutput(this, 'DomainTarget', {
        value: domain.domainNameAliasDomainName,
        description: `Point ${settings.domain.name} (CNAME or alias) at this name`,
      });
    }

    // API Gateway would create the execution log group itself, with no retention: create it first.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${settings.stage}`,
    });
    api.deploymentStage.node.addDependency(executionLogs);

    Validations.of(api).acknowledge(acknowledgements.requestValidation);
    Validations.of(api.node.findChild('CloudWatchRole')).acknowledge(
      acknowledgements.apiGatewayLogsManagedPolicy,
    );

    // Built from the API's id rather than `api.url`, which would make the functions depend on the
    // stage, and so (through the deployment) on every method and route function: a cycle.
    const apiBaseUrl = settings.domain
      ? `https://${settings.domain.name}`
      : `https://${api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${settings.stage}`;
    const docsUrl = settings.docsUrl ?? docsUrlFor(apiBaseUrl);

    for (const mapping of gatewayResponseMappings) {
      api.addGatewayResponse(`GatewayResponse${pascal(mapping.type.responseType)}`, {
        type: mapping.type,
        statusCode: String(mapping.status),
        responseHeaders: gatewayResponseHeaders(mapping),
        templates: { 'application/json': envelopeTemplate(mapping, docsUrl) },
      });
    }

    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      topicName: `company-register-${settings.stage}-alarms`,
      displayName: `Company Register ${settings.stage} alarms`,
      enforceSSL: true,
    });
    // A topic policy replaces SNS's default one, so CloudWatch may publish only if a statement
    // says so: the stage's own alarms (by name, in this account), nothing else.
    this.alarmTopic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'StageAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.alarmTopic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: { 'aws:SourceArn': alarmArnPattern(this, settings.stage) },
        },
      }),
    );
    const apiMetrics = { apiName: api.restApiName, stage: settings.stage };
    const stageAlarms = new StageAlarms(this, this.alarmTopic, settings.stage);
    this.monitoring = new MonitoringStack(this, 'Monitoring', {
      stage: settings.stage,
      api: apiMetrics,
      areas: props.areas,
      alarms: stageAlarms,
    });
    const tierAlarms = stageAlarms.in(this.monitoring);
    // The workers' live aliases and deployment groups sit beside their errors alarms, in the
    // Monitoring nested stack (the API stack's template has no room for three resources more per
    // worker: docs/decisions/0059-safe-deployments.md); what invokes them stays here.
    const workerAliases = LiveAliases.in(this.monitoring, 'Workers', {
      stage: settings.stage,
      strategy: settings.deployment,
      alarmTopic: stageAlarms.topic,
    });

    const registryConcurrency = registryShare(settings.registryConcurrency, {
      routes: props.areas.flatMap((area) => area.routes).filter((route) => route.usesRegistry === true)
        .length,
      workflowTasks: sum(capabilityConstructs.map((constructs) => constructs.registryCallers?.workflowTasks)),
      scheduled: sum(capabilityConstructs.map((constructs) => constructs.registryCallers?.scheduled)),
    });
    this.failedEvents = new FailedEvents(this, 'FailedEvents', { alarms: tierAlarms });
    // A notification SNS cannot deliver is kept with the other undelivered events.
    if (settings.alarmEmail) {
      this.alarmTopic.addSubscription(
        new EmailSubscription(settings.alarmEmail, { deadLetterQueue: this.failedEvents.queue }),
      );
    }
    if (settings.alarmEndpoint) {
      this.alarmTopic.addSubscription(
        new UrlSubscription(settings.alarmEndpoint, { deadLetterQueue: this.failedEvents.queue }),
      );
    }

    this.keyAuthorizer = new KeyAuthorizer(this, 'KeyAuthorizer', {
      keysTable: props.tables.keys,
      entryFor,
      alarms: tierAlarms,
      liveAliases: workerAliases,
    });

    // Each capability's own workers, queues and schedules (lib/capability-constructs.ts), a
    // capability after those whose resources it uses.
    const built = new Map<string, BuiltCapability>();
    let shared: Partial<SharedResources> = {};
    for (const constructs of capabilityConstructs) {
      const made = constructs.build?.({
        stack: this,
        settings,
        tables: props.tables,
        registryCredentialSecret: props.registryCredentialSecret,
        ordersBucket: props.ordersBucket,
        webhookKey: props.webhookKey,
        apiBaseUrl,
        entryFor,
        alarms: tierAlarms,
        stageAlarms,
        failedEvents: this.failedEvents,
        liveAliases: workerAliases,
        shared,
        ...(registryConcurrency === undefined ? {} : { registryConcurrency }),
      });
      if (!made) continue;
      built.set(constructs.capability, made);
      shared = { ...shared, ...made.shares };
    }
    this.capabilities = built;

    const areas = new Map<string, ApiAreaStack>();
    const functions = new Map<string, ApiFunction>();
    for (const area of props.areas) {
      // A nested stack needs at least one resource.
      if (area.routes.length === 0) continue;
      const stack = new ApiAreaStack(this, areaStackId(area), {
        area,
        settings,
        tables: props.tables,
        cursorSecret: props.cursorSecret,
        registryCredentialSecret: props.registryCredentialSecret,
        ordersBucket: props.ordersBucket,
        webhookKey: props.webhookKey,
        shared,
        bindings: routeBindings,
        api,
        apiBaseUrl,
        docsUrl,
        entryFor,
        alarms: stageAlarms,
        authorizer: this.keyAuthorizer.authorizer,
        ...(registryConcurrency === undefined ? {} : { registryConcurrency }),
      });
      areas.set(area.name, stack);
      for (const [name, fn] of stack.functions) functions.set(name, fn);
    }
    this.areas = areas;
    this.functions = functions;

    if (settings.waf) {
      new ApiWebAcl(this, 'WebAcl', {
        stage: api.deploymentStage,
        name: `company-register-${settings.stage}`,
      });
      // (Its log group takes the stage's retention from the aspect above.)
    } else {
      Validations.of(api.deploymentStage).acknowledge(acknowledgements.noWaf);
    }

    const parts = [...built.values()];
    const alarmScopes = new Set<Stack>([this.monitoring, ...parts.flatMap((part) => part.alarmScopes ?? [])]);
    this.dashboard = stageDashboard(this, {
      stage: settings.stage,
      api: apiMetrics,
      areas: props.areas,
      functions: new Map<string, ReadonlyMap<string, IFunction>>([
        ...[...areas].map(([name, stack]) => [name, stack.functions] as const),
        ['Key authorizer', byModuleName(this.keyAuthorizer.function)],
        ...parts.flatMap((part) => part.functions ?? []),
      ]),
      queues: [
        ...parts.flatMap((part) => part.queues ?? []),
        { name: 'Failed events', deadLetters: this.failedEvents.queue },
      ],
      rows: parts.flatMap((part) => part.dashboardRows ?? []),
      alarms: stageAlarms.alarms.filter((alarm) => alarmScopes.has(Stack.of(alarm))),
    });

    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topicArn });
    new CfnOutput(this, 'FailedEventsQueueUrl', { value: this.failedEvents.queue.queueUrl });
    for (const [id, value] of parts.flatMap((part) => Object.entries(part.outputs ?? {}))) {
      new CfnOutput(this, id, { value });
    }
    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL; paths start with /v1' });
  }
}

/**
 * The API's TLS policy, on the execute-api endpoint and on a custom domain: TLS 1.3 and 1.2 with
 * forward-secret ciphers and post-quantum key exchange offered; TLS 1.0 and 1.1 refused.
 */
export const API_SECURITY_POLICY = SecurityPolicy.TLS13_1_2_PQ_2025_09;

/** Every alarm of the stage is named `company-register-<stage>-…` (lib/alarms.ts). */
export const alarmArnPattern = (stack: Stack, stage: string): string =>
  `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:company-register-${stage}-*`;

/** The API's own documentation pages (`/docs`, `/docs/errors`) on the deployed stage. */
export const docsUrlFor = (apiBaseUrl: string): string => `${apiBaseUrl}/docs`;

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
  tlsVersion: '$context.tlsVersion',
  cipherSuite: '$context.cipherSuite',
  authorizerStatus: '$context.authorizer.status',
  authorizerLatency: '$context.authorizer.latency',
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

const sum = (counts: readonly (number | undefined)[]): number =>
  counts.reduce<number>((total, count) => total + (count ?? 0), 0);
