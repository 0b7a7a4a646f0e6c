/**
 * The ports a capability declares itself (in its `store-port.ts`), and what each lets its function
 * do in AWS. A capability adds its ports to `CapabilityOwnPorts` by module augmentation, gives each
 * its grant in its capability module (`portGrants`), and a factory of each in its
 * `composition.ts` (the same factory on Lambda and on the local stack), so that neither
 * shared/app/ports.ts nor the composition roots name it.
 */
import type { Clock } from './clock.ts';
import type { ServiceConfig } from './config.ts';
import type { RouteUse, TableAccess } from './http/route.ts';
import type { TableId } from './infra/tables.ts';

// biome-ignore lint/suspicious/noEmptyInterface: filled by each capability's augmentation
export interface CapabilityOwnPorts {}

/** What a port lets its function do in AWS (shared/app/port-grants.ts turns a route's ports into its grants). */
export interface PortGrant {
  readonly tables?: Partial<Record<TableId, TableAccess>>;
  /**
   * The only items of a table the port writes, by the prefix of their partition key: its writes
   * there are conditioned to them (`dynamodb:LeadingKeys`). A table the port writes without naming
   * items here is writable anywhere.
   */
  readonly items?: Partial<Record<TableId, readonly string[]>>;
  readonly uses?: readonly RouteUse[];
  /** The registry's settings and credential, and its longer time budget. */
  readonly registry?: true;
  /** Only the workers (fulfilment steps, sweeper, dispatcher) use it: no route may declare it. */
  readonly workersOnly?: true;
}

/** What a port's factory is given, on Lambda (shared/composition/aws/root.ts) and on the local stack. */
export interface PortRoot {
  config: ServiceConfig;
  clock: Clock;
}

/** A capability's port factory, `(root) => port`: built on its first use on Lambda, at start locally. */
export type PortFactory<K extends keyof CapabilityOwnPorts> = (root: PortRoot) => CapabilityOwnPorts[K];
