/**
 * The registry protocol of the whole registry port (shared/app/registry.ts): the rows each of its
 * capabilities declares in its `registry-protocol.ts`, one table that the HTTP registry sends, the
 * registry simulator answers and docs/registry-protocol.md is generated from (`npm run
 * docs:registry`). test/unit/registry-protocol.test.ts checks that every method of every
 * capability has exactly one row.
 */
import {
  MAINTENANCE_RETRY_AFTER_SECONDS,
  REGISTRY_CODE_PATTERN,
  registryProtocolOf,
  rejectionStatus,
} from '../../adapters/registry-http/protocol.ts';
import type { RegistryCapability, RegistryParts } from '../../app/registry.ts';
import { companyRegistryProtocol } from '../../companies/registry-protocol.ts';
import { purchaseRegistryProtocol } from '../../extracts/registry-protocol.ts';
import type { AnyOperationSpec, PortOfRow } from '../../kernel/registry-protocol.ts';
import { ordersRegistryProtocol } from '../../orders/registry-protocol.ts';
import { peopleRegistryProtocol } from '../../people/registry-protocol.ts';
import { recordsRegistryProtocol } from '../../records/registry-protocol.ts';
import { referenceRegistryProtocol } from '../../reference/registry-protocol.ts';
import { registerRegistryProtocol } from '../../registers/registry-protocol.ts';
import { weeklySummaryRegistryProtocol } from '../../weekly-summaries/registry-protocol.ts';

export {
  type ArgumentKind,
  type ArgumentKinds,
  isObject,
  type WireArgs,
} from '../../kernel/registry-protocol.ts';
export { MAINTENANCE_RETRY_AFTER_SECONDS, REGISTRY_CODE_PATTERN, rejectionStatus };

export const registryProtocol = {
  ...companyRegistryProtocol,
  ...peopleRegistryProtocol,
  ...ordersRegistryProtocol,
  ...purchaseRegistryProtocol,
  ...weeklySummaryRegistryProtocol,
  ...recordsRegistryProtocol,
  ...registerRegistryProtocol,
  ...referenceRegistryProtocol,
};

export type RegistryOperation = keyof typeof registryProtocol;

export const registryProtocolTable = registryProtocolOf(registryProtocol);

export const registryOperations: readonly RegistryOperation[] = registryProtocolTable.operations;

export const isRegistryOperation = registryProtocolTable.isOperation;

/** One row of the table, typed loosely: for code that handles every operation alike. */
export const operationSpec = (name: RegistryOperation): AnyOperationSpec => registryProtocolTable.spec(name);

export const billableOperations = registryProtocolTable.billable;

export const keyedOperations = registryProtocolTable.keyed;

export const clientKeyOf = registryProtocolTable.clientKeyOf;

/** The parts of the port (shared/app/registry.ts) whose rows the table does not spread. */
type PartsWithoutRows = {
  [C in RegistryCapability]: RegistryParts[C] extends PortOfRow<
    (typeof registryProtocol)[keyof typeof registryProtocol]
  >
    ? never
    : C;
}[RegistryCapability];
/** The compiler refuses the table until it has every part's rows (no run-time code: esbuild drops it). */
const _everyPartHasRows: [PartsWithoutRows] extends [never] ? true : { missing: PartsWithoutRows } = true;
