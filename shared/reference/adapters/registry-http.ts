/** The reference capability over HTTP: the form schedule and the code tables, both free. */

import type { RegistryCall } from '../../adapters/registry-http/transport.ts';
import type { ReferenceRegistry } from '../registry-port.ts';
import type { referenceRegistryProtocol } from '../registry-protocol.ts';

export const httpReference = (call: RegistryCall<typeof referenceRegistryProtocol>): ReferenceRegistry => ({
  getFormSchedule: (caller) => call('reference.forms', {}, caller),
  getCodeTables: (caller) => call('reference.codeTables', {}, caller),
});
