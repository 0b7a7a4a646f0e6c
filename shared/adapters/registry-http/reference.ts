/** The reference capability over HTTP: the form schedule and the code tables, both free. */
import type { ReferenceRegistry } from '../../ports/registry.ts';
import type { RegistryCall } from './transport.ts';

export const httpReference = (call: RegistryCall): ReferenceRegistry => ({
  getFormSchedule: (caller) => call('reference.forms', {}, caller),
  getCodeTables: (caller) => call('reference.codeTables', {}, caller),
});
