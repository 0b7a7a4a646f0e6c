/** The registers capability over HTTP: browse and entry (free), the register extract (billable, keyed). */

import type { RegistryCall } from '../../adapters/registry-http/transport.ts';
import type { RegisterRegistry } from '../registry-port.ts';
import type { registerRegistryProtocol } from '../registry-protocol.ts';

export const httpRegisters = (call: RegistryCall<typeof registerRegistryProtocol>): RegisterRegistry => ({
  browseRegister: ({ register, key, limit, continuation }, caller) =>
    call(
      'register.browse',
      { register, key, limit: String(limit), continuation: continuation ?? '' },
      caller,
    ),
  getRegisterEntry: (register, number, caller) => call('register.entry', { register, number }, caller),
  purchaseRegisterExtract: ({ register, number, type }, caller, clientKey) =>
    call('register.extract', { register, number, type, clientKey }, caller),
});
