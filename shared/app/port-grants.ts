/**
 * What each capability port lets its function do in AWS: the tables it reaches (with the access
 * level), the fulfilment resources it uses, and whether it calls the registry. A route names its
 * ports (`ports` in its entry); its grants are the union of theirs (`grantsOf`), which CDK turns
 * into least-privilege IAM and the OpenAPI generator reads for the registry's errors. The record is
 * complete by type, so a new port without its grant does not compile.
 */

import type { CapabilityOwnPorts, PortGrant } from '../kernel/capability-ports.ts';
import type { RouteDefinition, RouteGrants, RouteUse, TableAccess } from '../kernel/http/route.ts';
import type { TableId } from '../kernel/infra/tables.ts';
import { capabilityList } from './capabilities.ts';
import type { CapabilityPorts } from './ports.ts';

const appPortGrants: { readonly [P in Exclude<keyof CapabilityPorts, keyof CapabilityOwnPorts>]: PortGrant } =
  {
    registryFor: { registry: true },
    // Powertools deletes a request's record when its handler fails, so that a retry may run.
    idempotency: { tables: { idempotency: 'readWriteDelete' } },
    // Order and search emails (workers); console invitations and sign-in links (routes).
    mailer: { uses: ['mailer'] },
  };

/** Every port's grant: the app's, and those each capability gives its own ports (its capability module). */
export const portGrants = {
  ...appPortGrants,
  ...Object.fromEntries(capabilityList.flatMap((capability) => Object.entries(capability.portGrants ?? {}))),
} as { readonly [P in keyof CapabilityPorts]: PortGrant };

const ACCESS_ORDER: readonly TableAccess[] = ['getItem', 'read', 'readWrite', 'readWriteDelete'];
const wider = (a: TableAccess | undefined, b: TableAccess): TableAccess =>
  a === undefined || ACCESS_ORDER.indexOf(b) > ACCESS_ORDER.indexOf(a) ? b : a;

/**
 * A route's grants from its ports: each table at the widest level a port needs (at most `read` for
 * a `readOnly` route; `readWriteDelete` for the tables the route `deletes`), every resource a port
 * uses, the registry when a port calls it.
 */
export function grantsOf(
  route: Pick<RouteDefinition, 'name' | 'ports' | 'readOnly' | 'deletes'>,
): RouteGrants {
  const tables: Partial<Record<TableId, TableAccess>> = {};
  /** Per written table, the items its writers name; `null` once one writes it anywhere. */
  const items: Partial<Record<TableId, string[] | null>> = {};
  const uses = new Set<RouteUse>();
  let usesRegistry = false;
  for (const name of route.ports) {
    const grant = portGrants[name as keyof CapabilityPorts] as PortGrant | undefined;
    if (!grant) throw new Error(`route ${route.name} declares ${name}, which is no port`);
    if (grant.workersOnly) throw new Error(`route ${route.name} declares ${name}, which only workers use`);
    for (const [table, access] of Object.entries(grant.tables ?? {}) as [TableId, TableAccess][]) {
      const level = wider(tables[table], access);
      tables[table] =
        route.readOnly && ACCESS_ORDER.indexOf(level) > ACCESS_ORDER.indexOf('read') ? 'read' : level;
      if (ACCESS_ORDER.indexOf(access) > ACCESS_ORDER.indexOf('read')) {
        const named = grant.items?.[table];
        const known = items[table];
        items[table] = named && known !== null ? [...new Set([...(known ?? []), ...named])] : null;
      }
    }
    for (const use of grant.uses ?? []) uses.add(use);
    if (grant.registry) usesRegistry = true;
  }
  for (const table of route.deletes ?? []) {
    const level = tables[table];
    if (route.readOnly || (level !== 'readWrite' && level !== 'readWriteDelete')) {
      throw new Error(`route ${route.name} deletes from ${table}, which none of its ports writes`);
    }
    tables[table] = 'readWriteDelete';
  }
  const writtenItems = Object.fromEntries(
    Object.entries(items).filter(
      ([table, prefixes]) =>
        prefixes && ACCESS_ORDER.indexOf(tables[table as TableId] ?? 'read') > ACCESS_ORDER.indexOf('read'),
    ),
  ) as Partial<Record<TableId, readonly string[]>>;
  return { tables, items: writtenItems, uses: [...uses], usesRegistry };
}
