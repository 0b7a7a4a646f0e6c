/**
 * What a capability declares about itself beyond its routes' code, in one module of its folder
 * (`shared/<capability>/capability.ts`): its route areas, its error codes, its metrics and its
 * settings. The central places (the route table, the error reference, the OpenAPI document, CDK,
 * the local stack) read them from the list of capabilities (shared/app/capabilities.ts), so that
 * adding a capability is its folder and one line there. Only that list and build-time code
 * import a capability module; a function imports what its route runs, never this list.
 */

import type { PortGrant } from './capability-ports.ts';
import type { CatalogueEntry } from './errors/catalogue.ts';
import type { CapabilityErrorGuide } from './errors/guide.ts';
import type { RequestExample } from './http/request-example.ts';
import type { RouteDefinition } from './http/route.ts';
import type { MetricSpec } from './metric-line.ts';
import type { CapabilityProducts } from './products.ts';
import type { RegistryOperationRows } from './registry-protocol.ts';

/** A route area: deployed as one CDK stack (`<name>Routes`), shown as one tag of the OpenAPI document. */
export interface CapabilityArea {
  /** PascalCase, unique: names the area's stack. */
  readonly name: string;
  /** The OpenAPI tag its operations are listed under. */
  readonly tag: string;
  readonly description: string;
  /**
   * Where the reference lists it: areas go in ascending `order` (ties in the list of capabilities'
   * order), which is also the order of their stacks and of the contract's tags and paths.
   */
  readonly order: number;
  /** The route entries (each a capability's routes.ts). */
  readonly routes: readonly Readonly<Record<string, RouteDefinition>>[];
  /** Request examples kept beside the routes. */
  readonly examples?: Readonly<Record<string, RequestExample>>;
}

/**
 * Route entries that are a part of an area declared elsewhere (`joins`: its `name`): deployed in its
 * stack, listed under its tag, after its own routes (joins in the list of capabilities' order).
 */
export interface AreaJoin {
  readonly joins: string;
  readonly routes: readonly Readonly<Record<string, RouteDefinition>>[];
  readonly examples?: Readonly<Record<string, RequestExample>>;
}

/** Every route entry group of a capability, in its areas and its joins. */
export const routeGroupsOf = (capability: Capability): readonly Readonly<Record<string, RouteDefinition>>[] =>
  (capability.areas ?? []).flatMap((part) => part.routes);

/**
 * An alarm's threshold, with the reason for its value (lib/alarms.ts names the service's own, a
 * capability its own in its capability module's `alarms` or its `cdk/alarms.ts`).
 */
export interface AlarmThreshold {
  /** The alarm fires when the figure is above this (below it, with `below`). */
  readonly value: number;
  /** The alarm watches for too little of something (successful runs) rather than too much. */
  readonly below?: boolean;
  /** A period without data counts against the threshold (a run that never happened). */
  readonly missingDataBreaches?: boolean;
  /** Length of one evaluated period. */
  readonly periodMinutes: number;
  /** Consecutive periods above `value` before the alarm fires. */
  readonly periods: number;
  readonly reason: string;
}

/**
 * The share of a counted metric's counts that failed, by the values of one of its dimensions
 * (`failed / all`), counted as 0 in a period with fewer than `minimumSamples` counts: a single
 * failure among three attempts is not a rate.
 */
export interface FailureRate {
  /** The dimension whose values tell the outcomes apart (`outcome`). */
  readonly dimension: string;
  /** Every value it takes, each read as its own series. */
  readonly outcomes: readonly string[];
  /** Those that count as failed. */
  readonly failed: readonly string[];
  readonly minimumSamples: number;
  /** What the figure is called on graphs (`Attempts failed (share)`). */
  readonly label: string;
}

/**
 * An alarm on one of a capability's metrics (CDK makes it in the stage's alarms stack,
 * lib/monitoring-stack.ts): fires above `value` (below, with `below`) for `periods` periods. Its
 * threshold is named by the alarm's id in camel case in the alarm's description.
 */
export interface CapabilityAlarm {
  readonly metric: MetricSpec;
  /** The dimensions the alarm reads the metric under (a metric line is written under all of its). */
  readonly dimensions?: Readonly<Record<string, string>>;
  /** Watch the share of the metric's counts that failed rather than their sum. */
  readonly failureRate?: FailureRate;
  readonly summary: string;
  readonly threshold: AlarmThreshold;
}

export interface Capability {
  /** Its folder under shared/ (and under functions/ for its handlers). */
  readonly name: string;
  /**
   * Where its routes go: an area of its own, or a part of another's (`AreaJoin`); a second area of
   * its own when its routes outgrow one stack's resource budget. shared/app/areas.ts gathers them.
   */
  readonly areas?: readonly (CapabilityArea | AreaJoin)[];
  /** Its error codes (`defineErrors`, its errors.ts). */
  readonly errors?: Readonly<Record<string, CatalogueEntry>>;
  /** Each code's cause and fix (its error-guide.ts): the error reference and the OpenAPI document. */
  readonly errorGuide?: Readonly<Record<string, CapabilityErrorGuide>>;
  /** The metric lines it writes (its metrics.ts). */
  readonly metrics?: Readonly<Record<string, MetricSpec>>;
  /** Its alarms, by id (PascalCase: `company-register-<stage>-<id in kebab case>`). */
  readonly alarms?: Readonly<Record<string, CapabilityAlarm>>;
  /** The settings its functions read from their environment, by name: CDK and the local stack set them. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The grant of each port it declares itself (`CapabilityOwnPorts`, kernel/capability-ports.ts):
   * what a route naming it may do in AWS. Its factories are its `composition.ts`, whose `localPorts`
   * the local stack builds.
   */
  readonly portGrants?: Readonly<Record<string, PortGrant>>;
  /**
   * What it sells (its products.ts, kernel/products.ts). The same module is listed in
   * shared/usage/capability-products.ts, which functions load instead of this list.
   */
  readonly products?: CapabilityProducts;
  /**
   * Its own calls to the registry, when they are not a part of the registry port
   * (shared/app/registry.ts): its rows of the protocol (its registry-protocol.ts,
   * kernel/registry-protocol.ts), which the registry simulator answers with `sandbox` (its sample
   * data) and docs/registry-protocol.md lists; its live adapter sends them.
   */
  readonly registry?: { readonly operations: RegistryOperationRows; readonly sandbox: object };
  /**
   * Modules of its folder that build what no route's function does, loaded only by build-time
   * code: `cdk`, its constructs in the stage's API stack (workers, queues, schedules, their
   * dashboard rows; lib/capability-construct.ts says what it exports); `local`, what the local stack
   * runs for it besides its routes (its workers on the local clock, stand-ins of its AWS resources,
   * their `/__local/` endpoints; kernel/capability-local.ts). Named by path, not imported: a literal
   * `import()` would put CDK or the stand-ins into every bundle that reads the list of capabilities
   * (the MCP server's, the docs pages').
   */
  readonly infrastructure?: { readonly cdk?: `cdk/${string}.ts`; readonly local?: `local/${string}.ts` };
}

/** A capability module's declaration, kept with its literal types (the route table's type reads them). */
export const defineCapability = <const C extends Capability>(capability: C): C => capability;
