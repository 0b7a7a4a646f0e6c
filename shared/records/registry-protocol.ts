/**
 * The records capability's operations of the registry protocol (docs/registry-protocol.md; the row's fields:
 * shared/kernel/registry-protocol.ts).
 */
import { isObject, registryOperation } from '../kernel/registry-protocol.ts';
import type { BusinessNameQuery, RecordsRegistry } from './registry-port.ts';

const operation = registryOperation<RecordsRegistry>('records');

export const recordsRegistryProtocol = {
  'documents.details': operation({
    method: 'getDocumentDetails',
    billable: false,
    timeout: 'lookup',
    args: { numbers: 'strings' },
    toPort: (a, caller) => [a.numbers, caller],
    isResult: (v) => Array.isArray(v),
    doc: {
      args: '`numbers` (list of up to 10 document numbers)',
      result: '`RegistryDocumentDetails[]` (in the order asked)',
    },
  }),
  'business-names.find': operation({
    method: 'findBusinessNames',
    billable: false,
    timeout: 'lookup',
    args: { query: 'object' },
    toPort: (a, caller) => [a.query as unknown as BusinessNameQuery, caller],
    isResult: (v) => Array.isArray(v),
    doc: {
      args: '`query` {`number`, `stateNumber`, `jurisdiction`} (one kind of number)',
      result: '`RegistryBusinessName[]`',
    },
  }),
  'name-reservation.get': operation({
    method: 'getNameReservation',
    billable: false,
    timeout: 'lookup',
    args: { number: 'string' },
    toPort: (a, caller) => [a.number, caller],
    isResult: (v) => isObject(v) && typeof v.number === 'string' && typeof v.expiresAt === 'string',
    doc: { args: '`number`', result: '`RegistryNameReservation`' },
  }),
};
