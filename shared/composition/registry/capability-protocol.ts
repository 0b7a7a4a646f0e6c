/**
 * Every operation of the registry protocol: the registry port's table (protocol.ts) and the rows
 * of each capability that calls the registry on its own (`registry` in its capability module).
 * The registry simulator answers them all; docs/registry-protocol.md lists those of published
 * capabilities (like the OpenAPI document, which leaves out `internal` routes: a new capability's
 * page lists its operations until it publishes, then `npm run docs:registry`). Apart from
 * protocol.ts because it reads the list of capabilities, which functions do not load.
 */
import { registryProtocolOf } from '../../adapters/registry-http/protocol.ts';
import { capabilityList } from '../../app/capabilities.ts';
import { type Capability, routeGroupsOf } from '../../kernel/capability.ts';
import type { RegistryOperationRows } from '../../kernel/registry-protocol.ts';
import { type RegistryOperation, registryProtocol } from './protocol.ts';

/** What each capability's own calls answer with in the simulator, by operation. */
export const capabilityRegistrySandboxes: Readonly<Record<string, object>> = Object.fromEntries(
  capabilityList.flatMap(({ registry }) =>
    registry ? Object.keys(registry.operations).map((name) => [name, registry.sandbox]) : [],
  ),
);

const rows: RegistryOperationRows = Object.assign(
  {},
  registryProtocol,
  ...capabilityList.map(({ registry }) => registry?.operations ?? {}),
);

/** An operation of the whole protocol: the registry port's, or a capability's own. */
export type ProtocolOperation = RegistryOperation | (string & {});

export const fullRegistryProtocol = registryProtocolOf(rows);

const isPublished = (capability: Capability) =>
  routeGroupsOf(capability).some((group) => Object.values(group).some((route) => !route.internal));

/** The operations docs/registry-protocol.md lists: the port's and those of published capabilities. */
export const documentedRegistryProtocol = registryProtocolOf(
  Object.assign(
    {},
    registryProtocol,
    ...capabilityList.filter(isPublished).map(({ registry }) => registry?.operations ?? {}),
  ) as RegistryOperationRows,
);
