/**
 * The people capability's operations of the registry protocol (docs/registry-protocol.md; the row's fields:
 * shared/kernel/registry-protocol.ts).
 */
import { isObject, isSearchResult, ownClientKey, registryOperation } from '../kernel/registry-protocol.ts';
import type { PeopleRegistry, PeopleSearchQuery, PersonExtractOptions } from './registry-port.ts';

const operation = registryOperation<PeopleRegistry>('people');

export const peopleRegistryProtocol = {
  'person.search': operation({
    method: 'searchPeople',
    billable: false,
    timeout: 'lookup',
    args: { query: 'object' },
    toPort: (a, caller) => [a.query as unknown as PeopleSearchQuery, caller],
    isResult: isSearchResult,
    doc: { args: '`query` (object, below)', result: '`{found, matches}`' },
  }),
  'person.extract': operation({
    method: 'purchasePersonExtract',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { registryIdentifier: 'string', options: 'object', clientKey: 'string' },
    toPort: (a, caller) => [
      a.registryIdentifier,
      a.options as unknown as PersonExtractOptions,
      caller,
      a.clientKey,
    ],
    isResult: (v) =>
      isObject(v) && typeof v.type === 'string' && isObject(v.person) && Array.isArray(v.roles),
    doc: {
      args: '`registryIdentifier`, `options` (object, below), `clientKey`',
      result: '`RegistryPersonExtract`',
    },
  }),
};
