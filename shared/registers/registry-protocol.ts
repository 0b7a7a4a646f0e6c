/**
 * The registers capability's operations of the registry protocol (docs/registry-protocol.md; the row's fields:
 * shared/kernel/registry-protocol.ts).
 */
import { isObject, ownClientKey, registryOperation } from '../kernel/registry-protocol.ts';
import type { RegisterExtractType, RegisterRegistry } from './registry-port.ts';

const operation = registryOperation<RegisterRegistry>('registers');

export const registerRegistryProtocol = {
  'register.browse': operation({
    method: 'browseRegister',
    billable: false,
    timeout: 'lookup',
    args: { register: 'string', key: 'string', limit: 'string', continuation: 'string' },
    toPort: (a, caller) => [
      { register: a.register, key: a.key, limit: Number(a.limit), continuation: a.continuation || null },
      caller,
    ],
    isResult: (v) =>
      isObject(v) &&
      Array.isArray(v.entries) &&
      (v.continuation === null || typeof v.continuation === 'string'),
    doc: {
      args: '`register` (code), `key` (name key), `limit` (1–100, as text), `continuation` (empty on the first page)',
      result: '`{entries, continuation}`',
    },
  }),
  'register.entry': operation({
    method: 'getRegisterEntry',
    billable: false,
    timeout: 'lookup',
    args: { register: 'string', number: 'string' },
    toPort: (a, caller) => [a.register, a.number, caller],
    isResult: (v) => isObject(v) && typeof v.register === 'string' && typeof v.number === 'string',
    doc: { args: '`register` (code), `number`', result: '`RegistryRegisterEntry`' },
  }),
  'register.extract': operation({
    method: 'purchaseRegisterExtract',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { register: 'string', number: 'string', type: 'string', clientKey: 'string' },
    toPort: (a, caller) => [
      { register: a.register, number: a.number, type: a.type as RegisterExtractType },
      caller,
      a.clientKey,
    ],
    isResult: (v) =>
      isObject(v) && typeof v.type === 'string' && isObject(v.entry) && Array.isArray(v.addresses),
    doc: {
      args: '`register` (code), `number`, `type` (`current` or `historical`), `clientKey`',
      result: '`RegistryRegisterExtract`',
    },
  }),
};
