import { join } from 'node:path';
import { type Duration, Validations } from 'aws-cdk-lib';
import type { Alias, RecursiveLoop } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { StageAlarms } from '../alarms.ts';
import { acknowledgements } from '../nag.ts';
import { type EntryFor, PROJECT_ROOT } from '../routes.ts';
import { ApiFunction } from './api-function.ts';
import type { LiveAliases } from './live-alias.ts';

/** What every background function of a capability is made with: its construct's props carry these. */
export interface WorkerScope {
  readonly entryFor: EntryFor;
  /** Where the function's errors and throttles alarms go. */
  readonly alarms: StageAlarms;
  /** Makes the function's `live` alias (and deployment group), which its invokers call. */
  readonly liveAliases: LiveAliases;
  /** The reserved concurrency of each function that calls the registry (lib/registry-capacity.ts); unset, none. */
  readonly registryConcurrency?: number;
}

/** A capability's scope in the API stack as its construct's `WorkerScope` props, without the rest of it. */
export const workerScopeOf = ({
  entryFor,
  alarms,
  liveAliases,
  registryConcurrency,
}: WorkerScope): WorkerScope => ({
  entryFor,
  alarms,
  liveAliases,
  registryConcurrency,
});

export type Invocation = 'synchronous' | 'asynchronous';

/**
 * What cdk-nag finds on every function of the service and the reasons (lib/nag.ts): its runtime,
 * X-Ray's wildcard on its role, and for one invoked synchronously only, no dead-letter queue.
 */
export function acknowledgeFunction(fn: ApiFunction, invocation: Invocation): void {
  Validations.of(fn).acknowledge(
    acknowledgements.runtimeVersion,
    acknowledgements.latestRuntime,
    ...(invocation === 'synchronous' ? [acknowledgements.synchronousInvocation] : []),
  );
  Validations.of(fn.role ?? fn).acknowledge(acknowledgements.xrayWildcard);
}

/** What is a background function's own. */
export interface WorkerOptions {
  /** Its description (`workflowFunctionDescription`): the console and the tests tell the functions apart by it. */
  readonly description: string;
  readonly timeout: Duration;
  /** Default `API_FUNCTION_DEFAULTS.memorySize`. */
  readonly memorySize?: number;
  /**
   * It calls the live registry: it reads the credential through the Parameters and Secrets
   * extension and gets the registry's reserved concurrency. The capability binds the registry
   * (`bindRegistry`) with the rest of its grants.
   */
  readonly callsRegistry?: boolean;
  /**
   * `synchronous`: a queue's event source or the workflow invokes it and handles its failures;
   * `asynchronous`: a schedule does, and the capability keeps its failed invocations
   * (`FailedEvents.keepFailedInvocations`), which cdk-nag checks.
   */
  readonly invocation: Invocation;
  readonly recursiveLoop?: RecursiveLoop;
}

/**
 * A function no route runs: a capability's background function (a queue consumer, a scheduled
 * job, a workflow task) or the key authorizer, with what each of them has: the service's function
 * defaults (`ApiFunction`), its cdk-nag acknowledgements, its errors and throttles alarms, and its
 * `live` alias, which every invoker names. Made as `<module name>Function` in `scope` unless `id`
 * says otherwise: a subclass, not a construct around it, so that its path and logical ids are the
 * ones the functions had before (docs/decisions/0132-worker-function.md).
 */
export class WorkerFunction extends ApiFunction {
  /** The module's name, which names the function's alarms, alias and deployment group. */
  readonly moduleName: string;
  /** The `live` alias: what the function's queue, schedule, workflow or API Gateway invokes. */
  readonly alias: Alias;

  constructor(
    scope: Construct,
    module: { readonly name: string; readonly handler: string },
    worker: WorkerScope,
    options: WorkerOptions & { readonly id?: string },
  ) {
    super(scope, options.id ?? `${module.name}Function`, {
      entry: worker.entryFor(module),
      description: options.description,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      timeout: options.timeout,
      ...(options.memorySize ? { memorySize: options.memorySize } : {}),
      readsSecrets: options.callsRegistry ?? false,
      ...(options.callsRegistry && worker.registryConcurrency !== undefined
        ? { reservedConcurrentExecutions: worker.registryConcurrency }
        : {}),
      ...(options.recursiveLoop === undefined ? {} : { recursiveLoop: options.recursiveLoop }),
    });
    this.moduleName = module.name;
    acknowledgeFunction(this, options.invocation);
    const { errors } = worker.alarms.forFunction(module.name, this);
    this.alias = worker.liveAliases.aliasOf(module.name, this, errors);
  }
}

/** Functions by their module's name, in their order (the dashboard's widgets follow it). */
export const byModuleName = (...functions: readonly WorkerFunction[]): ReadonlyMap<string, WorkerFunction> =>
  new Map(functions.map((fn) => [fn.moduleName, fn]));
