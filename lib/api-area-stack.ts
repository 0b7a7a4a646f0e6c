import { join } from 'node:path';
import { Duration, NestedStack, Validations } from 'aws-cdk-lib';
import { AuthorizationType, type IAuthorizer, Method, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { REGISTRY_ACCOUNT_IN_FLIGHT_ENV } from '../shared/kernel/config.ts';
import type { GrantedRoute, RouteUse } from '../shared/kernel/http/route.ts';
import { functionTimeoutMs, INTEGRATION_TIMEOUT_MS } from '../shared/kernel/http/time-budget.ts';
import { PLATFORM_ENV } from '../shared/kernel/infra/platform-env.ts';
import { KEYS_TABLE_ITEMS, type TableId, tableDefinitions } from '../shared/kernel/infra/tables.ts';
import type { StageAlarms } from './alarms.ts';
import type { RouteBinding, RouteBindingScope, SharedResources } from './capability-construct.ts';
import type { RouteBindingTable } from './capability-constructs.ts';
import { ApiFunction, leadingKeysCondition, type TableAccessLevel } from './constructs/api-function.ts';
import { LiveAliases } from './constructs/live-alias.ts';
import { RouteIntegration } from './constructs/route-integration.ts';
import { acknowledgeFunction } from './constructs/worker-function.ts';
import { acknowledgements } from './nag.ts';
import { registryAccountShare } from './registry-capacity.ts';
import { type EntryFor, PROJECT_ROOT, type RouteArea, signsWithCursorSecret } from './routes.ts';
import type { Settings } from './settings.ts';

/** What every function gets, whatever its route says: API key lookups and rate-limit counters. */
export const BASELINE_TABLE_ACCESS: Readonly<Partial<Record<TableId, TableAccessLevel>>> = {
  keys: 'getItem',
  limits: 'readWrite',
};

/**
 * The one write every keyed function may make to the keys table: a key's `lastUsedHour`
 * (shared/kernel/http/middleware/admit.ts, at most once per key per hour), on key items only,
 * touching no other attribute and returning nothing.
 */
export const recordKeyUseStatement = (keys: ITable): PolicyStatement =>
  new PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [keys.tableArn],
    conditions: {
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'lastUsedHour'] },
      ...leadingKeysCondition([KEYS_TABLE_ITEMS.key]),
      StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
    },
  });

export const CURSOR_SECRET_ENV = 'CURSOR_SECRET_ARN';
export const DOCS_URL_ENV = 'DOCS_URL';

/**
 * API Gateway's integration timeout for every method, set explicitly so that the template states
 * it. It and every function's timeout come from shared/kernel/http/time-budget.ts, which the local stack
 * and the pipeline read too.
 */
export const INTEGRATION_TIMEOUT = Duration.millis(INTEGRATION_TIMEOUT_MS);

/** A route's function timeout: longer for routes that call the registry, the default otherwise. */
export const functionTimeoutFor = (route: GrantedRoute): Duration =>
  Duration.millis(functionTimeoutMs(route));

/** Whether a route's function reads a secret (and so gets the Parameters and Secrets extension). */
export const readsSecrets = (route: GrantedRoute): boolean =>
  signsWithCursorSecret(route) || route.usesRegistry === true;

const ACCESS_RANK: Record<TableAccessLevel, number> = {
  getItem: 0,
  read: 1,
  readWrite: 2,
  readWriteDelete: 3,
};

/** Baseline access widened by the route's own `tables` entries (never narrowed). */
export function tableAccessFor(route: GrantedRoute): Partial<Record<TableId, TableAccessLevel>> {
  // A public route takes no key: it looks up no key and counts no requests.
  const access: Partial<Record<TableId, TableAccessLevel>> = route.public ? {} : { ...BASELINE_TABLE_ACCESS };
  for (const [id, level] of Object.entries(route.tables) as [TableId, TableAccessLevel | undefined][]) {
    if (!level) continue;
    const current = access[id];
    if (!current || ACCESS_RANK[level] > ACCESS_RANK[current]) access[id] = level;
  }
  return access;
}

/** The platform's own route bindings: the mailer, which several capabilities' routes use. */
export const PLATFORM_ROUTE_BINDINGS: ReadonlyMap<string, RouteBinding> = new Map([
  ['mailer', (fn, { settings }) => fn.bindMail(PLATFORM_ENV.mailFrom, settings.mailFrom)],
]);

/**
 * What binds a route's function to the resources and settings its `uses` and ports need, each
 * once: the capabilities' (in the order they are built), then the platform's, then by port.
 */
export function bindingsOf(route: GrantedRoute, bindings: RouteBindingTable): readonly RouteBinding[] {
  const byUse = [...bindings.uses, ...PLATFORM_ROUTE_BINDINGS];
  const unbound = route.uses.filter((use) => !byUse.some(([name]) => name === use));
  if (unbound.length > 0) throw new Error(`${route.name}: no capability binds uses ${unbound.join(', ')}`);
  const found = new Set<RouteBinding>();
  for (const [use, binding] of byUse) if (route.uses.includes(use as RouteUse)) found.add(binding);
  for (const [port, binding] of bindings.ports) if (route.ports.includes(port)) found.add(binding);
  return [...found];
}

/** Description of a route's function; names the route so the console (and tests) can tell them apart. */
export const functionDescription = (
  route: Pick<GrantedRoute, 'name' | 'method' | 'path' | 'handler'>,
): string => `${route.name}: ${route.method} ${route.path} (functions/${route.handler}.ts)`;

/** Construct id of an area's nested stack in the API stack: `Companies` → `CompaniesRoutes`. */
export const areaStackId = (area: Pick<RouteArea, 'name'>): string => `${area.name}Routes`;

/** What the routes of every area use, from the data stack and the API stack. */
export interface RouteDependencies {
  readonly settings: Settings;
  readonly tables: Readonly<Record<TableId, ITable>>;
  readonly cursorSecret: ISecret;
  /** Credential of the live registry; read only by the functions of routes with `usesRegistry`. */
  readonly registryCredentialSecret: ISecret;
  /** Compiled order PDFs and offline search results (data stack), for the capabilities' route bindings. */
  readonly ordersBucket: IBucket;
  /** Seals webhook signing secrets (data stack), for the capabilities' route bindings. */
  readonly webhookKey: IKey;
  /** What the capabilities' constructs share (their queues), for their route bindings. */
  readonly shared: Partial<SharedResources>;
  /** How a route that uses a capability's resources or settings is bound (lib/capability-constructs.ts). */
  readonly bindings: RouteBindingTable;
  /** The REST API (API stack); the area adds its methods to the API's resources. */
  readonly api: RestApi;
  /** `https://<api id>.execute-api.<region>.<suffix>/<stage>` (`API_BASE_URL`). */
  readonly apiBaseUrl: string;
  /** Base of the documentation error envelopes link to (`DOCS_URL`). */
  readonly docsUrl: string;
  readonly entryFor: EntryFor;
  /** The stage's alarms: each route's function gets its errors and throttles alarms in its area's stack. */
  readonly alarms: StageAlarms;
  /** Reserved concurrency of each function that calls the registry (lib/registry-capacity.ts); unset, none. */
  readonly registryConcurrency?: number;
  /** The key authorizer (lib/constructs/key-authorizer.ts), on every route that takes a key. */
  readonly authorizer: IAuthorizer;
}

export interface ApiAreaStackProps extends RouteDependencies {
  readonly area: RouteArea;
}

/**
 * The routes of one area (the routes.ts of one or more capabilities, `lib/routes.ts`), as a nested stack of the API
 * stack: per route, its function (with its role, policy, log group, current version and `live`
 * alias, and on a stage that deploys through CodeDeploy the alias's deployment group), its API
 * Gateway method on the API stack's resource for the route's path, invoking the alias, and the
 * permission that lets API Gateway invoke the alias for that method and stage. The REST API, its resources, deployment and
 * stage stay in the API stack: the deployment depends on every method, so a deployment follows
 * any change of a route in any area.
 */
export class ApiAreaStack extends NestedStack {
  /** Route functions by route name. */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  /** The `live` alias of each route's function (what its method invokes), by route name. */
  readonly aliases: ReadonlyMap<string, Alias>;
  /** Methods by route name. */
  readonly methods: ReadonlyMap<string, Method>;

  constructor(scope: Construct, id: string, props: ApiAreaStackProps) {
    super(scope, id, {
      description: `Company Register Data Service: ${props.area.name} routes (${props.settings.stage})`,
    });
    const functions = new Map<string, ApiFunction>();
    const methods = new Map<string, Method>();
    const aliases = new Map<string, Alias>();
    const alarms = props.alarms.in(this);
    const live = LiveAliases.in(this, areaStackId(props.area), {
      stage: props.settings.stage,
      strategy: props.settings.deployment,
      alarmTopic: props.alarms.topic,
    });
    for (const route of props.area.routes) {
      const fn = this.createFunction(route, props);
      const { errors, internalErrors } = alarms.forRoute(route.name, fn);
      functions.set(route.name, fn);
      // The method invokes the alias, so that a deployment's traffic shift is what customers get.
      const alias = live.aliasOf(route.name, fn, errors, internalErrors);
      aliases.set(route.name, alias);
      const method = new Method(this, `${route.name}Method`, {
        resource: props.api.root.resourceForPath(route.path),
        httpMethod: route.method,
        integration: new RouteIntegration(alias, props.settings.stage, { timeout: INTEGRATION_TIMEOUT }),
        options: route.public
          ? { operationName: route.name, authorizationType: AuthorizationType.NONE }
          : {
              operationName: route.name,
              authorizationType: AuthorizationType.CUSTOM,
              authorizer: props.authorizer,
            },
      });
      Validations.of(method).acknowledge(
        ...(route.public ? [acknowledgements.publicMethod] : []),
        acknowledgements.methodCognito,
      );
      methods.set(route.name, method);
    }
    this.functions = functions;
    this.aliases = aliases;
    this.methods = methods;
  }

  private createFunction(route: GrantedRoute, props: ApiAreaStackProps): ApiFunction {
    const timeout = functionTimeoutFor(route);
    if (timeout.toMilliseconds() > INTEGRATION_TIMEOUT.toMilliseconds()) {
      throw new Error(`${route.name}: function timeout exceeds the API Gateway integration timeout`);
    }
    const fn = new ApiFunction(this, `${route.name}Function`, {
      entry: props.entryFor(route),
      description: functionDescription(route),
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      environment: { [DOCS_URL_ENV]: props.docsUrl, [PLATFORM_ENV.apiBaseUrl]: props.apiBaseUrl },
      readsSecrets: readsSecrets(route),
      timeout,
      ...(route.assets ? { assets: route.assets } : {}),
      ...(route.usesRegistry && props.registryConcurrency !== undefined
        ? { reservedConcurrentExecutions: props.registryConcurrency }
        : {}),
    });
    acknowledgeFunction(fn, 'synchronous');

    for (const [id, level] of Object.entries(tableAccessFor(route)) as [TableId, TableAccessLevel][]) {
      fn.bindTable(props.tables[id], tableDefinitions[id], level, route.items[id]);
    }
    if (!route.public) fn.addToRolePolicy(recordKeyUseStatement(props.tables.keys));
    if (signsWithCursorSecret(route)) fn.bindSecret(props.cursorSecret, CURSOR_SECRET_ENV);
    if (route.usesRegistry) {
      fn.bindRegistry(props.settings.registryUrl, props.registryCredentialSecret);
      const accountShare = registryAccountShare(props.registryConcurrency);
      if (accountShare !== undefined) fn.addEnvironment(REGISTRY_ACCOUNT_IN_FLIGHT_ENV, String(accountShare));
    }
    const scope: RouteBindingScope = {
      settings: props.settings,
      ordersBucket: props.ordersBucket,
      webhookKey: props.webhookKey,
      shared: props.shared,
    };
    for (const bind of bindingsOf(route, props.bindings)) bind(fn, scope);
    return fn;
  }
}
