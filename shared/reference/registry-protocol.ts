/**
 * The reference capability's operations of the registry protocol (docs/registry-protocol.md; the row's fields:
 * shared/kernel/registry-protocol.ts).
 */
import { isObject, registryOperation } from '../kernel/registry-protocol.ts';
import type { ReferenceRegistry } from './registry-port.ts';

const operation = registryOperation<ReferenceRegistry>('reference');

export const referenceRegistryProtocol = {
  'reference.forms': operation({
    method: 'getFormSchedule',
    billable: false,
    timeout: 'lookup',
    args: {},
    toPort: (_a, caller) => [caller],
    isResult: (v) => isObject(v) && Array.isArray(v.forms),
    doc: { args: 'none', result: "`{forms}` (`RegistryForm[]`, in the schedule's order)" },
  }),
  'reference.codeTables': operation({
    method: 'getCodeTables',
    billable: false,
    timeout: 'lookup',
    args: {},
    toPort: (_a, caller) => [caller],
    isResult: (v) => isObject(v) && Array.isArray(v.tables),
    doc: { args: 'none', result: "`{tables}` (`RegistryCodeTable[]`, entries in the registry's order)" },
  }),
};
