/**
 * What a capability builds in the stage's API stack beyond its routes' functions (its workers,
 * queues, schedules, their alarms and dashboard widgets): the default export of a module of its
 * folder, `shared/<capability>/cdk/…`, that its capability module names (`infrastructure.cdk`,
 * shared/kernel/capability.ts). lib/capability-constructs.ts loads them; the API stack builds each
 * in turn, a capability after those whose resources it uses, and the dashboard, the registry's
 * share and the route areas (through each capability's `routeBindings`) read what they give.
 */
import type { Stack } from 'aws-cdk-lib';
import type { IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { RouteUse } from '../shared/kernel/http/route.ts';
import type { TableId } from '../shared/kernel/infra/tables.ts';
import type { NamedThreshold, StageAlarms } from './alarms.ts';
import type { ApiFunction } from './constructs/api-function.ts';
import type { FailedEvents } from './constructs/failed-events.ts';
import type { LiveAliases } from './constructs/live-alias.ts';
import type { EntryFor } from './routes.ts';
import type { Settings } from './settings.ts';

/**
 * Resources one capability makes and others (or its route bindings) use, by name. The event bus is
 * the stage's, which several capabilities use; a capability's CDK module adds what else it shares
 * by module augmentation (`declare module '…/lib/capability-construct.ts'`), as it adds its ports
 * to `CapabilityOwnPorts`, so that lib names none of them.
 */
export interface SharedResources {
  /** The stage's event bus (orders make it; webhooks and monitoring publish or listen on it). */
  readonly eventBus: IEventBus;
}

/** What the API stack gives a capability's construct. */
export interface CapabilityStackScope {
  /** The API stack: the construct's scope (or a nested stack of its own made in it). */
  readonly stack: Stack;
  readonly settings: Settings;
  readonly tables: Readonly<Record<TableId, ITable>>;
  readonly registryCredentialSecret: ISecret;
  readonly ordersBucket: IBucket;
  readonly webhookKey: IKey;
  /** The API's base URL (`downloadUrl`), built from its id. */
  readonly apiBaseUrl: string;
  readonly entryFor: EntryFor;
  /** Alarms in the Monitoring nested stack, beside the stage's own. */
  readonly alarms: StageAlarms;
  /** The stage's alarms (`in(scope)` for a nested stack of the capability's own). */
  readonly stageAlarms: StageAlarms;
  readonly failedEvents: FailedEvents;
  /** The workers' live aliases, in the Monitoring nested stack. */
  readonly liveAliases: LiveAliases;
  /** Each registry-calling function's share of the registry's capacity (lib/registry-capacity.ts). */
  readonly registryConcurrency?: number;
  /** What the capabilities it builds after (`after`) share. */
  readonly shared: Partial<SharedResources>;
}

/** A queue on the dashboard: its oldest message and its dead letters. */
export interface DashboardQueue {
  readonly name: string;
  readonly queue?: Queue;
  readonly deadLetters: Queue;
}

/** What a route binding is given: the stage's settings, the data stack's resources and what the capabilities share. */
export interface RouteBindingScope {
  readonly settings: Settings;
  readonly ordersBucket: IBucket;
  readonly webhookKey: IKey;
  readonly shared: Partial<SharedResources>;
}

/** Gives a route's function what one of its `uses` (or ports) needs: its grants and environment. */
export type RouteBinding = (fn: ApiFunction, scope: RouteBindingScope) => void;

/**
 * How a route that uses a capability's resources is bound (lib/api-area-stack.ts applies them): by
 * `uses` value its ports' grants list, and by port for the settings a port's functions read.
 */
export interface RouteBindings {
  readonly uses?: Partial<Record<RouteUse, RouteBinding>>;
  readonly ports?: Readonly<Record<string, RouteBinding>>;
}

/** What a capability's construct gives the stack. */
export interface BuiltCapability {
  /** Its main construct (the tests read it by the capability's name). */
  readonly construct: Construct;
  readonly shares?: Partial<SharedResources>;
  /** Its functions on the dashboard, in groups (`Fulfilment workers`), each by its name. */
  readonly functions?: readonly (readonly [string, ReadonlyMap<string, IFunction>])[];
  /** Its queues on the dashboard's queue graph. */
  readonly queues?: readonly DashboardQueue[];
  /** Its own rows of dashboard widgets, after the stage's. */
  readonly dashboardRows?: readonly (readonly IWidget[])[];
  /** The API stack's outputs it adds (a deploy shows them), by id. */
  readonly outputs?: Readonly<Record<string, string>>;
  /** Scopes whose alarms the dashboard's status widget shows besides the Monitoring nested stack's. */
  readonly alarmScopes?: readonly Stack[];
}

/** A resource a capability or the route areas need, which another capability's construct must have shared. */
export function sharedResource<K extends keyof SharedResources>(
  shared: Partial<SharedResources>,
  name: K,
): SharedResources[K] {
  const resource = shared[name];
  if (!resource) throw new Error(`no capability construct shares ${name}, which is needed here`);
  return resource;
}

/** A capability's CDK module's default export (`defineCapabilityConstructs`). */
export interface CapabilityConstructs {
  /** Capabilities whose `shares` it uses: built before it. */
  readonly after?: readonly string[];
  /**
   * The thresholds of its alarms on what it builds (its `cdk/alarms.ts`, `namedThresholds`): the
   * runbook's alarm table and the tests read every alarm's threshold from here and lib/alarms.ts.
   */
  readonly alarmThresholds?: Readonly<Record<string, NamedThreshold>>;
  /** Its functions outside routes that call the registry, each given a share of its capacity. */
  readonly registryCallers?: { readonly workflowTasks?: number; readonly scheduled?: number };
  /** How the routes that use its resources or settings are bound. */
  readonly routeBindings?: RouteBindings;
  /** Its constructs; a module with bindings only builds nothing. */
  build?(scope: CapabilityStackScope): BuiltCapability;
}

export const defineCapabilityConstructs = (constructs: CapabilityConstructs): CapabilityConstructs =>
  constructs;
